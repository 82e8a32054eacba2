/**
 * Issue 21 §1, §2, §4 as pure rules: the run-level plan fields (repeat, min_pass_rate, gate,
 * retry_no_connection) refused with a path and a reason; a row per repeat; pass-rate math, flaky, the
 * worst call and the failure reasons; triage of each class from execution records shaped as the
 * service (and the sandbox) write them; blocking vs advisory; retry rounds; the gate and exit codes.
 */
import { describe, expect, it } from 'vitest';
import type { Execution } from '../../../lib/api/schemas/execution';
import { executionsByCall, planCsv, repeatOf } from '../../../lib/plans/batch';
import { parseQaArgs } from '../../../lib/plans/cli-args';
import { exitFor, gateRun, parseBaseline } from '../../../lib/plans/gate';
import { judgeRun } from '../../../lib/plans/judge';
import { afterListed, afterPoll, afterRead, newRun, runSpec, type PlanRun } from '../../../lib/plans/run-state';
import { checkPlan, type TestPlanInput } from '../../../lib/plans/schema';
import { triageCall } from '../../../lib/plans/triage';
import { liveExecution, plan, scheduledRun } from './fixtures';

const base = { format: 'voice-agent-test-plan', version: 1, name: 'P', agent_id: 'agent-1' } as const;
const problems = (input: Record<string, unknown>) => {
  const r = checkPlan({ ...base, ...input });
  return r.ok ? [] : r.problems.map((p) => `${p.path}: ${p.message}`);
};
const oneCase = { id: 'a', label: 'A', contact_number: '+14155550123' };

describe('plan schema: the run-level fields', () => {
  it('accepts repeat, min_pass_rate, retry_no_connection on the plan and repeat, min_pass_rate, gate on a case', () => {
    expect(problems({ repeat: 3, min_pass_rate: 0.6, retry_no_connection: 2, cases: [{ ...oneCase, repeat: 5, min_pass_rate: 0.8, gate: 'advisory' }] })).toEqual([]);
  });
  it('refuses each wrong value with its path and the reason', () => {
    expect(problems({ repeat: 0, cases: [oneCase] })).toEqual(['repeat: must be at least 1']);
    expect(problems({ repeat: 21, cases: [oneCase] })).toEqual(['repeat: must be at most 20']);
    expect(problems({ cases: [{ ...oneCase, repeat: 2.5 }] })).toEqual(['cases[0].repeat: must be a whole number from 1 to 20']);
    expect(problems({ min_pass_rate: 80, cases: [oneCase] })).toEqual(['min_pass_rate: must be from 0 to 1 (0.8 is 80%); write 80% as 0.8']);
    expect(problems({ cases: [{ ...oneCase, min_pass_rate: '0.8' }] })).toEqual(['cases[0].min_pass_rate: must be a number from 0 to 1 (0.8 is 80%)']);
    expect(problems({ cases: [{ ...oneCase, gate: 'soft' }] })).toEqual(['cases[0].gate: must be one of "blocking", "advisory"']);
    expect(problems({ retry_no_connection: 9, cases: [oneCase] })).toEqual(['retry_no_connection: must be at most 3']);
    expect(problems({ cases: [{ ...oneCase, variables: { test_repeat: '1' } }] })).toEqual([
      'cases[0].variables: test_repeat is filled with the repeat number; choose another variable name.',
    ]);
  });
  it('refuses a run of more than 1000 calls, counting every repeat', () => {
    const cases = Array.from({ length: 101 }, (_, i) => ({ ...oneCase, id: `c${i}` }));
    expect(problems({ repeat: 10, cases })).toEqual(['repeat: the run would make 1010 calls (every case times its repeat); a run makes at most 1000']);
    expect(problems({ repeat: 9, cases })).toEqual([]);
  });
});

describe('one placement: a row per repeat, each with its case id and repeat number', () => {
  const p = plan({ repeat: 2, cases: [{ ...oneCase, variables: { name: 'Ann' } }, { id: 'b', label: 'B', contact_number: '+14155550124', repeat: 1 }] });
  it('the CSV has every repeat of every case', () => {
    expect(planCsv(p).trim().split('\n')).toEqual([
      'contact_number,test_case_id,test_repeat,name',
      '+14155550123,a,1,Ann',
      '+14155550123,a,2,Ann',
      '+14155550124,b,1,',
    ]);
  });
  it('a plan without repeats keeps its CSV as before (no test_repeat column)', () => {
    expect(planCsv(plan({ cases: [oneCase] })).split('\n')[0]).toBe('contact_number,test_case_id');
  });
  it('each execution maps back to its case and repeat', () => {
    const e = (id: string, repeat: string) => liveExecution({ id, context_details: { recipient_data: { test_case_id: 'a', test_repeat: repeat } } });
    expect(repeatOf(e('x', '2'))).toBe(2);
    expect([...executionsByCall(p, [e('x', '1'), e('y', '2')]).entries()].map(([k, v]) => [k, v.id])).toEqual([
      ['a#1', 'x'],
      ['a#2', 'y'],
    ]);
  });
});

// Execution records as the service writes them for each outcome (the sandbox's sandbox/calls.ts HANGUPS and ERRORS).
const failedLine = (status: string, hangup: { by: string; reason: string; code: number } | null, error: string | null = null) =>
  liveExecution({
    status,
    conversation_duration: 0,
    total_cost: 0,
    transcript: null,
    extracted_data: null,
    error_message: error,
    telephony_data: { to_number: '+14155550123', duration: '0', ...(hangup ? { hangup_by: hangup.by, hangup_reason: hangup.reason, hangup_code: hangup.code } : {}) },
  });
const busy = () => failedLine('busy', { by: 'Carrier', reason: 'Busy Line', code: 3010 });
const noAnswer = () => failedLine('no-answer', { by: 'Carrier', reason: 'No Answer', code: 3000 });
const unreachable = () => failedLine('failed', { by: 'Carrier', reason: 'Destination Unreachable', code: 2010 }, 'The telephony provider could not connect the call: Destination Unreachable');
const balanceLow = () => failedLine('balance-low', null, 'Insufficient wallet balance to place the call. Please recharge your wallet.');
const serviceError = () => failedLine('error', null, 'An internal error occurred while placing the call');
const silentCompleted = () => failedLine('completed', { by: 'Callee', reason: 'Normal Hangup', code: 4000 });

describe('triage: each class from the service’s own data', () => {
  const c = { ...oneCase, expect: { status: 'completed' as const, extracted: { interested: { equals: true } } } };
  const classOf = (e: Execution | undefined) => judgeRun(plan({ cases: [c] }), new Map(e ? [['a', e]] : [])).cases[0]!.triage;

  it('no connection: busy, no-answer, failed (carrier codes), a completed call of zero duration', () => {
    expect([busy(), noAnswer(), unreachable(), silentCompleted()].map(classOf)).toEqual(['no-connection', 'no-connection', 'no-connection', 'no-connection']);
  });
  it('account or service: balance-low, error, no execution at all', () => {
    expect([balanceLow(), serviceError(), undefined].map(classOf)).toEqual(['account-or-service', 'account-or-service', 'account-or-service']);
  });
  it('agent: the call happened and an expectation did not hold', () => {
    expect(classOf(liveExecution({ extracted_data: { interested: false, callback_time: 'x' } }))).toBe('agent');
  });
  it('plan: an expectation on a field the agent never extracts (its other fields are there)', () => {
    const misspelt = plan({ cases: [{ ...oneCase, expect: { extracted: { intrested: { equals: true } } } }] });
    expect(judgeRun(misspelt, new Map([['a', liveExecution()]])).cases[0]!.triage).toBe('plan');
    const notNumber = plan({ cases: [{ ...oneCase, expect: { extracted: { callback_time: { min: 3 } } } }] });
    expect(judgeRun(notNumber, new Map([['a', liveExecution()]])).cases[0]!.triage).toBe('plan');
  });
  it('a passing call, and a call cut short by a stop, have no class', () => {
    expect(classOf(liveExecution())).toBeNull();
    expect(triageCall({ verdict: 'error', execution: undefined, outcomes: [], unfinished: 'cancelled' })).toBeNull();
  });
});

/** A plan of one case `a` called 3 times; executions by repeat (undefined: none). */
function threeCalls(over: Partial<TestPlanInput> & { caseOver?: Record<string, unknown> }, calls: Array<Execution | undefined>) {
  const { caseOver, ...rest } = over;
  const p = plan({ repeat: 3, ...rest, cases: [{ ...oneCase, expect: { status: 'completed', extracted: { interested: { equals: true } } }, ...caseOver }] });
  const map = new Map<string, Execution>();
  calls.forEach((e, i) => e && map.set(`a#${i + 1}`, { ...e, id: `e${i + 1}` }));
  return judgeRun(p, map);
}
const pass = () => liveExecution();
const agentFail = () => liveExecution({ extracted_data: { interested: false } });

describe('pass rates', () => {
  it('2 of 3: pass rate 2/3, flaky, the worst call and each reason with its count; fails the default (every call)', () => {
    const r = threeCalls({}, [pass(), agentFail(), pass()]);
    const c = r.cases[0]!;
    expect(c.repeats).toMatchObject({ calls: 3, passes: 2, flaky: true, minPassRate: 1, worstRepeat: 2 });
    expect(c.repeats!.passRate).toBeCloseTo(2 / 3);
    expect(c.verdict).toBe('fail');
    expect(c.executionId).toBe('e2');
    expect(c.repeats!.reasons).toMatchObject([{ reason: 'extracted.interested equals: expected equals true, got false', triage: 'agent', count: 1 }]);
    expect(r).toMatchObject({ verdict: 'fail', calls: 3, passedCalls: 2 });
  });
  it('2 of 3 passes a min_pass_rate of 0.6 (plan) and of 0.66 (case, which wins over the plan)', () => {
    expect(threeCalls({ min_pass_rate: 0.6 }, [pass(), agentFail(), pass()]).cases[0]!.verdict).toBe('pass');
    expect(threeCalls({ min_pass_rate: 1, caseOver: { min_pass_rate: 0.66 } }, [pass(), agentFail(), pass()]).cases[0]!.verdict).toBe('pass');
    expect(threeCalls({ min_pass_rate: 0.7 }, [pass(), agentFail(), pass()]).cases[0]!.verdict).toBe('fail');
  });
  it('exactly at the rate passes: 2 of 3 against 2/3', () => {
    expect(threeCalls({ min_pass_rate: 2 / 3 }, [pass(), pass(), agentFail()]).cases[0]!.verdict).toBe('pass');
  });
  it('the worst call is an error over a failure, else the one with most failed checks; reasons are counted per reason and class, the most frequent first', () => {
    // A busy line fails two checks (status, and the extracted field it never got); the agent's failure one.
    const c = threeCalls({}, [agentFail(), busy(), busy()]).cases[0]!;
    expect(c.repeats!.worstRepeat).toBe(2);
    expect(c.repeats!.reasons.map((x) => [x.triage, x.count, x.reason])).toEqual([
      ['no-connection', 2, 'status: expected completed, got busy'],
      ['no-connection', 2, 'extracted.interested equals: expected equals true, got (absent)'],
      ['agent', 1, 'extracted.interested equals: expected equals true, got false'],
    ]);
    expect(c.repeats!.flaky).toBe(false);
    const errors = threeCalls({}, [balanceLow(), agentFail(), pass()]).cases[0]!;
    expect([errors.repeats!.worstRepeat, errors.triage]).toEqual([1, 'account-or-service']);
  });
  it('no call of any repeat passed, none failed an expectation: the case is in error', () => {
    expect(threeCalls({}, [balanceLow(), undefined, serviceError()]).cases[0]!.verdict).toBe('error');
  });
});

describe('blocking and advisory', () => {
  const p = plan({
    cases: [
      { ...oneCase, expect: { status: 'completed' } },
      { id: 'b', label: 'B', contact_number: '+14155550124', gate: 'advisory', expect: { status: 'busy' } },
    ],
  });
  it('the run verdict follows the blocking cases only; both are counted', () => {
    const r = judgeRun(p, new Map([['a', pass()], ['b', pass()]]));
    expect(r.cases.map((c) => c.verdict)).toEqual(['pass', 'fail']);
    expect(r).toMatchObject({ verdict: 'pass', blocking: { pass: 1, fail: 0, error: 0 }, advisory: { pass: 0, fail: 1, error: 0 } });
    expect(judgeRun(p, new Map([['a', busy()], ['b', busy()]])).verdict).toBe('fail');
  });
});

describe('retry_no_connection: a second placement of the calls that never connected', () => {
  const T0 = 1_700_000_000_000;
  const p = plan({ repeat: 2, retry_no_connection: 1, cases: [{ ...oneCase, expect: { status: 'completed' } }, { id: 'b', label: 'B', contact_number: '+14155550124', expect: { status: 'busy' } }] });
  const row = (id: string, caseId: string, repeat: number, e: Execution, at: string) =>
    ({ ...e, id, updated_at: at, context_details: { recipient_data: { test_case_id: caseId, test_repeat: String(repeat) } } }) as Execution;
  const followed = (run: PlanRun, rows: Execution[], now: number) => {
    const listed = afterListed(run, rows);
    let next = listed.run;
    for (const id of listed.toRead) next = afterRead(next, rows.find((r) => r.id === id)!);
    return afterPoll(next, now);
  };
  const first = (): PlanRun => {
    const run = scheduledRun(newRun({ id: 'run-1', planId: 'p', plan: p, baseUrl: 'x' }, T0), { batchId: 'batch-1', scheduledAt: '2026-01-01T00:02:00+00:00', requestAt: T0 }, T0);
    return followed(
      run,
      [
        row('a1', 'a', 1, pass(), '2026-01-01T00:03:00Z'),
        row('a2', 'a', 2, noAnswer(), '2026-01-01T00:03:00Z'),
        // Expected busy and busy: it passed, so it is not placed again.
        row('b1', 'b', 1, busy(), '2026-01-01T00:03:00Z'),
        row('b2', 'b', 2, busy(), '2026-01-01T00:03:00Z'),
      ],
      T0 + 200_000,
    );
  };

  it('once the first batch is over, only the call that never connected (and did not pass) goes out again, named for its round', () => {
    const run = first();
    expect(run.phase).toBe('creating');
    expect(run.result).toBeNull();
    expect(run.retry).toEqual({ round: 1, calls: [{ caseId: 'a', repeat: 2 }] });
    expect(run.rounds!.map((r) => [r.round, r.batchId, r.calls, r.executions.length])).toEqual([[0, 'batch-1', 4, 4]]);
    const spec = runSpec(run);
    expect(spec.fileName).toBe('test-plan-run-1-retry-1.csv');
    expect(spec.csv.trim().split('\n')).toEqual(['contact_number,test_case_id,test_repeat', '+14155550123,a,2']);
  });

  it('the retry’s answer counts for the call; its first try is reported apart, and the run lists the retry', () => {
    const retry = scheduledRun(first(), { batchId: 'batch-2', scheduledAt: '2026-01-01T00:06:00+00:00', requestAt: T0 + 210_000 }, T0 + 210_000);
    const done = followed(retry, [row('a2-retry', 'a', 2, pass(), '2026-01-01T00:07:00Z')], T0 + 400_000);
    expect(done.phase).toBe('finished');
    const a = done.result!.cases[0]!;
    expect(a).toMatchObject({ verdict: 'pass', repeats: { passes: 2, calls: 2, retried: 1 } });
    expect(a.repeats!.runs[1]!.retriedFrom).toEqual([{ executionId: 'a2', status: 'no-answer', batchId: 'batch-1' }]);
    expect(done.result!.batchId).toBe('batch-1');
    expect(done.result!.retries).toEqual([{ round: 1, batchId: 'batch-2', calls: 1 }]);
  });

  it('retries at most retry_no_connection times; the last try is judged', () => {
    const retry = scheduledRun(first(), { batchId: 'batch-2', scheduledAt: '2026-01-01T00:06:00+00:00', requestAt: T0 + 210_000 }, T0 + 210_000);
    const done = followed(retry, [row('a2-retry', 'a', 2, noAnswer(), '2026-01-01T00:07:00Z')], T0 + 400_000);
    expect(done.phase).toBe('finished');
    expect(done.result!.cases[0]).toMatchObject({ verdict: 'fail', triage: 'no-connection', repeats: { passes: 1, retried: 1 } });
  });
});

describe('the regression gate and the exit code', () => {
  // Answered by voicemail where a person was expected: the call happened and the status check fails.
  const agentFail = () => liveExecution({ answered_by_voice_mail: true });
  const p = plan({
    repeat: 2,
    cases: ['flip', 'flaky', 'already', 'fixed', 'same'].map((id, i) => ({ id, label: id, contact_number: `+1415555010${i}`, expect: { status: 'completed' as const } })),
  });
  const runOf = (outcomes: Record<string, [Execution, Execution]>, plan_ = p) => {
    const map = new Map<string, Execution>();
    for (const [id, [x, y]] of Object.entries(outcomes)) {
      map.set(`${id}#1`, x);
      map.set(`${id}#2`, y);
    }
    return judgeRun(plan_, map);
  };
  const baseline = runOf({ flip: [pass(), pass()], flaky: [pass(), pass()], already: [busy(), busy()], fixed: [busy(), busy()], same: [pass(), pass()] });

  it('lists pass → fail flips apart from flaky cases and cases already failing, with pass rates before and after', () => {
    const now = runOf({ flip: [agentFail(), agentFail()], flaky: [pass(), agentFail()], already: [busy(), busy()], fixed: [pass(), pass()], same: [pass(), pass()] });
    const gate = gateRun(baseline, now);
    expect(gate.cases.map((c) => [c.caseId, c.change, c.before, c.after])).toEqual([
      ['flip', 'flipped', 1, 0],
      ['flaky', 'flaky', 1, 0.5],
      ['already', 'already-failing', 0, 0],
      ['fixed', 'fixed', 0, 1],
      ['same', 'passing', 1, 1],
    ]);
    expect(gate.regressions).toEqual(['flip']);
    expect(exitFor(now, gate)).toBe('regression');
  });
  it('flaky and already-failing cases alone do not fail the job against a baseline; without one, any failing blocking case does', () => {
    const now = runOf({ flip: [pass(), pass()], flaky: [pass(), agentFail()], already: [busy(), busy()], fixed: [busy(), busy()], same: [pass(), pass()] });
    expect(exitFor(now, gateRun(baseline, now))).toBe('pass');
    expect(exitFor(now, null)).toBe('failed');
  });
  it('a new blocking case that fails fails the job (exit 1); an advisory flip is listed, never a regression', () => {
    const grown = plan({ ...p, cases: [...p.cases, { id: 'new', label: 'new', contact_number: '+14155550199', expect: { status: 'completed' } }] });
    const now = runOf({ flip: [pass(), pass()], flaky: [pass(), pass()], already: [pass(), pass()], fixed: [pass(), pass()], same: [pass(), pass()], new: [busy(), busy()] }, grown);
    expect(exitFor(now, gateRun(baseline, now))).toBe('failed');
    const advisory = plan({ ...p, cases: p.cases.map((c) => (c.id === 'flip' ? { ...c, gate: 'advisory' as const } : c)) });
    const later = runOf({ flip: [agentFail(), agentFail()], flaky: [pass(), pass()], already: [busy(), busy()], fixed: [busy(), busy()], same: [pass(), pass()] }, advisory);
    const gate = gateRun(baseline, later);
    expect(gate.cases[0]).toMatchObject({ change: 'flipped', blocking: false });
    expect(exitFor(later, gate)).toBe('pass');
  });
  it('a baseline is a run’s JSON report; anything else is refused with the reason', () => {
    expect(parseBaseline(JSON.stringify({ format: 'voice-agent-test-run', version: 1, ...baseline })).ok).toBe(true);
    expect(parseBaseline('{')).toMatchObject({ ok: false, problem: expect.stringMatching(/^it is not JSON/) });
    expect(parseBaseline(JSON.stringify({ format: 'voice-agent-test-plan', cases: [] }))).toEqual({
      ok: false,
      problem: 'format: must be "voice-agent-test-run" (the --json report of a run)',
    });
  });
  it('--baseline and --min-pass-rate on the command line (80% or 0.8); a rate outside 0–1 is a usage error', () => {
    const args = ['run', 'p.json', '--base-url', 'https://x.example', '--baseline', 'b.json', '--min-pass-rate', '80%'];
    expect(parseQaArgs(args)).toMatchObject({ baseline: 'b.json', minPassRate: 0.8 });
    expect(parseQaArgs([...args.slice(0, 6), '--min-pass-rate=0.5'])).toMatchObject({ minPassRate: 0.5 });
    expect(() => parseQaArgs([...args.slice(0, 6), '--min-pass-rate', '80'])).toThrow(/--min-pass-rate takes a share from 0 to 1/);
  });
});
