// The judge on recorded executions (live and spec shapes): per-case verdicts with each expectation's outcome.
import { describe, expect, it } from 'vitest';
import { executionsByCase, planCsv, rowVariables } from '../../../lib/plans/batch';
import { judgeCase, judgeRun } from '../../../lib/plans/judge';
import { liveExecution, plan, specExecution } from './fixtures';

const ok = { id: 'ok', label: 'Callback', contact_number: '+14155550123' };

describe('judgeCase', () => {
  it('passes when every expectation holds (live shape)', () => {
    const p = plan({
      cases: [
        {
          ...ok,
          expect: {
            status: 'completed',
            extracted: { interested: { equals: true }, callback_time: { present: true, contains: '10am' }, budget: { min: 1000, max: 2000 }, customer_name: { absent: true } },
            transcript: { contains: ["I'd like a callback"], not_contains: ['refund'] },
            duration: { at_least: 40, at_most: 42 },
            cost: { at_most: 12.5 },
            hangup_by: 'callee',
          },
        },
      ],
    });
    const r = judgeCase(p.cases[0]!, liveExecution());
    expect(r.verdict).toBe('pass');
    expect(r.outcomes).toHaveLength(12);
    expect(r.outcomes.every((o) => o.passed)).toBe(true);
    expect(r).toMatchObject({ status: 'completed', durationSeconds: 42, costCents: 12.5, executionId: '7c1f4a52-8f4e-4c55-9a77-1f1de1e0a001', error: null });
  });

  it('fails on a field, with the actual value beside the expected one (spec shape)', () => {
    const p = plan({ cases: [{ ...ok, id: 'spec', expect: { extracted: { interested: { equals: true } }, duration: { at_most: 30 } } }] });
    const r = judgeCase(p.cases[0]!, specExecution());
    expect(r.verdict).toBe('fail');
    expect(r.outcomes).toMatchObject([
      { name: 'extracted.interested equals', passed: false, expected: 'equals true', actual: '"false"' },
      // The spec's conversation_time is read as the duration.
      { name: 'duration', passed: true, expected: 'at most 30 s', actual: '30 s' },
    ]);
  });

  it('fails on status; a completed call answered by voicemail is `voicemail`', () => {
    const p = plan({ cases: [{ ...ok, expect: { status: 'completed' } }, { ...ok, id: 'vm', expect: { status: 'voicemail' } }] });
    const voicemail = liveExecution({ answered_by_voice_mail: true });
    expect(judgeCase(p.cases[0]!, voicemail).outcomes[0]).toMatchObject({ name: 'status', passed: false, expected: 'completed', actual: 'voicemail' });
    expect(judgeCase(p.cases[1]!, voicemail).verdict).toBe('pass');
  });

  it('a busy call passes a case that expects busy, and fails one that expects completed', () => {
    const busy = liveExecution({ status: 'busy', transcript: null, extracted_data: null, conversation_duration: 0 });
    const p = plan({ cases: [{ ...ok, expect: { status: ['busy', 'no-answer'] } }, { ...ok, id: 'b', expect: { status: 'completed', transcript: { contains: ['hello'] } } }] });
    expect(judgeCase(p.cases[0]!, busy).verdict).toBe('pass');
    const r = judgeCase(p.cases[1]!, busy);
    expect(r.verdict).toBe('fail');
    expect(r.outcomes.map((o) => o.actual)).toEqual(['busy', '(no transcript)']);
  });

  it('error when the call never happened, unless that status is what the case expects', () => {
    const p = plan({ cases: [{ ...ok, expect: { status: 'completed' } }, { ...ok, id: 'neg', expect: { status: 'balance-low' } }] });
    expect(judgeCase(p.cases[0]!, undefined)).toMatchObject({ verdict: 'error', error: 'No execution of the batch carries this case.', outcomes: [] });
    expect(judgeCase(p.cases[0]!, liveExecution({ status: 'in-progress' }))).toMatchObject({ verdict: 'error', error: 'The call had not finished (last status: in-progress).' });
    // call-disconnected is not final: its results are not in yet.
    expect(judgeCase(p.cases[0]!, liveExecution({ status: 'call-disconnected' })).verdict).toBe('error');
    const low = liveExecution({ status: 'balance_low', error_message: 'Insufficient wallet balance' });
    expect(judgeCase(p.cases[0]!, low)).toMatchObject({ verdict: 'error', error: 'The call was not placed: balance-low (Insufficient wallet balance).' });
    expect(judgeCase(p.cases[1]!, low).verdict).toBe('pass');
  });

  it('a case without expectations passes once its call is placed', () => {
    const p = plan({ cases: [ok] });
    expect(judgeCase(p.cases[0]!, liveExecution()).verdict).toBe('pass');
  });
});

describe('judgeRun', () => {
  const p = plan({
    cases: [
      { ...ok, expect: { status: 'completed' } },
      { id: 'spec', label: 'Declines', contact_number: '+14155550124', expect: { extracted: { interested: { equals: false } } } },
      { id: 'missing', label: 'Never placed', contact_number: '+14155550125' },
    ],
  });
  it('verdict, counts, total cost and duration', () => {
    const executions = new Map([
      ['ok', liveExecution()],
      ['spec', specExecution()],
    ]);
    const r = judgeRun(p, executions, { batchId: 'abc', startedAt: 1_000, finishedAt: 61_000 });
    expect(r.cases.map((c) => c.verdict)).toEqual(['pass', 'pass', 'error']);
    expect(r).toMatchObject({ verdict: 'error', counts: { pass: 2, fail: 0, error: 1 }, totalCostCents: 20.5, durationMs: 60_000, batchId: 'abc', startedAt: '1970-01-01T00:00:01.000Z' });
  });
  it('any failing case fails the run; all passing passes it', () => {
    const failing = new Map([
      ['ok', liveExecution({ status: 'busy' })],
      ['spec', specExecution()],
      ['missing', specExecution()],
    ]);
    expect(judgeRun(p, failing).verdict).toBe('fail');
    const passing = new Map([
      ['ok', liveExecution()],
      ['spec', specExecution()],
      ['missing', specExecution()],
    ]);
    expect(judgeRun(p, passing)).toMatchObject({ verdict: 'pass', durationMs: null });
  });
});

describe('the batch of a plan', () => {
  const p = plan({
    cases: [
      { ...ok, variables: { name: 'Ann, "the boss"', intent: 'callback' } },
      { id: 'declines', label: 'Declines', contact_number: '+14155550124', variables: { intent: 'decline' } },
      { id: 'same-number-1', label: 'A', contact_number: '+14155550199' },
      { id: 'same-number-2', label: 'B', contact_number: '+14155550199' },
    ],
  });
  it('one row per case: contact_number, test_case_id, then every variable (quoted where needed)', () => {
    expect(planCsv(p)).toBe(
      'contact_number,test_case_id,name,intent\n' +
        '+14155550123,ok,"Ann, ""the boss""",callback\n' +
        '+14155550124,declines,,decline\n' +
        '+14155550199,same-number-1,,\n' +
        '+14155550199,same-number-2,,\n',
    );
  });
  it('maps executions back by the case id variable, in the live and other shapes', () => {
    const live = liveExecution({}, 'declines'); // its number is another case's: the id wins
    const userData = specExecution({ id: 'e2', context_details: { user_data: { test_case_id: 'same-number-1' } }, telephony_data: { to_number: '+14155550199' } });
    const topLevel = specExecution({ id: 'e3', user_data: { test_case_id: 'same-number-2' }, telephony_data: { to_number: '+14155550199' } });
    const map = executionsByCase(p, [live, userData, topLevel]);
    expect([...map].map(([caseId, e]) => [caseId, e.id])).toEqual([
      ['declines', live.id],
      ['same-number-1', 'e2'],
      ['same-number-2', 'e3'],
    ]);
    expect(rowVariables(live)).toMatchObject({ test_case_id: 'declines', name: 'Ann' });
  });
  it('falls back to the number only when one case calls it', () => {
    const byNumber = liveExecution({}, null); // +14155550123, no case id
    const ambiguous = specExecution({ id: 'e9', telephony_data: { to_number: '+14155550199' } });
    const map = executionsByCase(p, [byNumber, ambiguous]);
    expect([...map.keys()]).toEqual(['ok']);
  });
  it('keeps the latest execution of a retried row', () => {
    const first = liveExecution({ id: 'first', status: 'busy', updated_at: '2026-11-23T10:00:00Z' });
    const retry = liveExecution({ id: 'retry', updated_at: '2026-11-23T10:05:00Z' });
    expect(executionsByCase(p, [retry, first]).get('ok')!.id).toBe('retry');
  });
});
