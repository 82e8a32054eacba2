// @vitest-environment happy-dom
// The run's views: results per case (verdicts, expected beside actual, the call opened), Stop asking first, two runs compared.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { RunCompare } from '../../../components/plans/RunCompare';
import { RunResults } from '../../../components/plans/RunResults';
import { afterListed, afterRead, finish, markAttempt, newRun, type PlanRun } from '../../../lib/plans/run-state';
import { fakeBackground, ok } from '../ui/helpers';
import type { StepMark } from '../../../lib/plans/guided';
import { liveExecution, plan, scheduledRun } from './fixtures';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const p = plan({
  cases: [
    { id: 'ok', label: 'Callback', contact_number: '+14155550123', expect: { extracted: { interested: { equals: true } } } },
    { id: 'busy', label: 'Busy line', contact_number: '+14155551001', expect: { status: 'busy' } },
  ],
});

function following(id: string, createdAt: number): PlanRun {
  const run = markAttempt(newRun({ id, planId: 'plan-1', plan: p, baseUrl: 'http://x' }, createdAt));
  return scheduledRun(run, { batchId: 'batch-1', scheduledAt: new Date(createdAt + 135_000).toISOString(), requestAt: createdAt }, createdAt);
}

function finished(id: string, createdAt: number, ok: Record<string, unknown>): PlanRun {
  const executions = [liveExecution({ id: `${id}-ok`, ...ok }, 'ok'), liveExecution({ id: `${id}-busy`, status: 'busy', telephony_data: { to_number: '+14155551001' } }, 'busy')];
  let run = afterListed(following(id, createdAt), executions).run;
  for (const e of executions) run = afterRead(run, e);
  return finish(run, createdAt + 90_000);
}

describe('RunResults', () => {
  it('shows the verdict, each case with its outcome, expected beside actual, and opens a case’s call', () => {
    const openExecution = vi.fn();
    render(<RunResults run={finished('r1', Date.UTC(2026, 10, 23, 10), { extracted_data: { interested: false } })} openExecution={openExecution} />);
    expect(screen.getByText(/^Verdict:/).textContent).toBe('Verdict: Fail. 1 passed, 1 failed, 0 in error.');
    const rows = within(screen.getByRole('table', { name: 'Verdict per case' })).getAllByRole('row');
    expect(rows.slice(1).map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Fail', 'Pass']);
    const expectations = screen.getByRole('table', { name: 'Expectations of Callback' });
    const line = within(expectations).getAllByRole('row')[1]!;
    expect(within(line).getAllByRole('cell').map((c) => c.textContent)).toEqual(['extracted.interested equals', 'equals true', 'false', 'Does not hold']);
    fireEvent.click(screen.getByRole('button', { name: 'Open call of Callback' }));
    expect(openExecution).toHaveBeenCalledWith('r1-ok');
    for (const name of ['Download JUnit XML', 'Download JSON', 'Download CSV']) expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  it('while a run is under way, Stop asks first, naming the plan, then asks the background', async () => {
    const bg = fakeBackground((r) => (r.type === 'plans/stop-run' ? ok(null) : undefined));
    render(<RunResults run={following('r2', Date.now())} openExecution={() => undefined} />);
    expect(screen.getByRole('status').textContent).toMatch(/Calls under way… 0 of 2 calls finished\./);
    fireEvent.click(screen.getByRole('button', { name: 'Stop run' }));
    expect(screen.getByText(/Stop this run of Sales smoke\?/)).toBeTruthy();
    expect(bg.requests).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Stop the run' }));
    await waitFor(() => expect(bg.requests).toEqual([{ type: 'plans/stop-run', runId: 'r2' }]));
  });
});

describe('RunResults: progress', () => {
  it('says each status the calls are in as the call view does ("In progress", "Call ended, finalising"), not the service’s word', () => {
    const run = afterListed(following('r3', Date.now()), [
      liveExecution({ id: 'r3-ok', status: 'in-progress' }, 'ok'),
      liveExecution({ id: 'r3-busy', status: 'call-disconnected', telephony_data: { to_number: '+14155551001' } }, 'busy'),
    ]).run;
    render(<RunResults run={run} openExecution={() => undefined} />);
    const progress = screen.getByRole('status').textContent ?? '';
    expect(progress).toContain('1 In progress');
    expect(progress).toContain('1 Call ended, finalising');
    expect(progress).not.toMatch(/in-progress|call-disconnected/);
  });
});

describe('RunCompare', () => {
  it('shows the later run against the earlier one: verdicts, changed values and the transcript diff', () => {
    const before = finished('a', Date.UTC(2026, 10, 22, 10), {});
    const after = finished('b', Date.UTC(2026, 10, 23, 10), { extracted_data: { interested: false }, transcript: 'assistant: Hello! This is Ava.\nuser: No thanks.' });
    render(<RunCompare runs={[after, before]} />);
    expect(screen.getByText(/^Run verdict: Pass then Fail\./).textContent).toBe('Run verdict: Pass then Fail. 1 case changed its verdict.');
    const changes = screen.getByRole('article', { name: 'Changes in Callback' });
    expect(within(changes).getByText('Verdict: Pass then Fail.')).toBeTruthy();
    const values = within(changes).getByRole('table', { name: 'Extracted values that changed' });
    expect(within(values).getByRole('row', { name: /interested/ }).textContent).toBe('interestedYesNo');
    const diff = changes.querySelector('pre')!.textContent!;
    expect(diff).toContain('  assistant: Hello! This is Ava.');
    expect(diff).toContain("− user: Yes, I'd like a  CALLBACK tomorrow.");
    expect(diff).toContain('+ user: No thanks.');
    expect(screen.queryByRole('article', { name: 'Changes in Busy line' })).toBeNull();
  });
});

describe('RunResults: a guided call and latency figures', () => {
  const script = [{ say: 'Friday at 3pm works for me' }, { silent: 8 }, { hang_up: true as const }];
  const gp = plan({
    cases: [{ id: 'ok', label: 'Books Friday', contact_number: '+14155550188', expect: { latency: { turn_p95_at_most_ms: 2000 } }, caller_script: script }],
  });
  const LATENCY = {
    time_to_first_audio: 1000,
    transcriber: { turns: [{ turn: 1, turn_latency: [{ sequence_id: 1, audio_to_text_latency: 600 }] }, { turn: 2, turn_latency: [{ sequence_id: 1, audio_to_text_latency: 700 }] }] },
  };
  const guided = (marks: StepMark[]): PlanRun => {
    const run = markAttempt(newRun({ id: 'g1', planId: 'plan-1', plan: gp, baseUrl: 'http://x', guided: { caseId: 'ok', toNumber: '+14155550188', marks } }, Date.now()));
    return scheduledRun(run, { batchId: 'batch-1', scheduledAt: new Date(Date.now() - 5000).toISOString(), requestAt: Date.now() }, Date.now());
  };

  it('during the call: the script step by step with the elapsed time; Done and Wrong with a note go to the background', async () => {
    const bg = fakeBackground((r) => (r.type === 'plans/mark-step' ? ok(null) : undefined));
    render(<RunResults run={guided([])} openExecution={() => undefined} />);
    const section = screen.getByRole('region', { name: 'Caller script' });
    expect(within(section).getByText(/^Elapsed 0:0\d$/)).toBeTruthy();
    expect(within(section).getAllByRole('listitem').map((li) => li.querySelector('.plans-step-text')!.textContent)).toEqual(['Say “Friday at 3pm works for me”', 'Stay silent for 8 s', 'Hang up']);
    fireEvent.click(within(section).getByRole('button', { name: 'Step 1 done' }));
    await waitFor(() => expect(bg.requests).toEqual([{ type: 'plans/mark-step', runId: 'g1', step: 0, mark: 'done', note: '', atMs: expect.any(Number) }]));
    fireEvent.click(within(section).getByRole('button', { name: 'Step 2 went wrong' }));
    fireEvent.input(within(section).getByLabelText('What went wrong (short)'), { target: { value: 'The agent talked over me' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save mark' }));
    await waitFor(() => expect(bg.requests[1]).toMatchObject({ type: 'plans/mark-step', step: 1, mark: 'wrong', note: 'The agent talked over me' }));
  });

  it('after the call: the wrong step fails the case with its note, beside the latency figures and bounds', () => {
    const marks = [
      { step: 0, mark: 'done' as const, note: '', atMs: 4000 },
      { step: 1, mark: 'wrong' as const, note: 'The agent talked over me', atMs: 19_000 },
    ];
    let run = guided(marks);
    const execution = liveExecution({ id: 'g1-ok', telephony_data: { to_number: '+14155550188' }, latency_data: LATENCY }, 'ok');
    run = afterListed(run, [execution]).run;
    run = finish(afterRead(run, execution), Date.now());
    render(<RunResults run={run} openExecution={() => undefined} />);
    expect(screen.getByText(/^Verdict:/).textContent).toBe('Verdict: Fail. 0 passed, 1 failed, 0 in error.');
    const rows = within(screen.getByRole('table', { name: 'Expectations of Books Friday' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['latency turn p95', 'at most 2000 ms', '700 ms over 2 turns', 'Holds'],
      ['caller script step 1', 'say "Friday at 3pm works for me"', 'done at 0:04', 'Holds'],
      ['caller script step 2', 'stay silent 8 s', 'wrong at 0:19: The agent talked over me', 'Does not hold'],
    ]);
    expect(screen.getByText(/^Latency:/).textContent).toBe('Latency: first audio 1,000 ms; per turn median 650 ms, p95 700 ms, worst 700 ms (2 turns)');
    expect(screen.getAllByText('Wrong at 0:19: The agent talked over me').length).toBeGreaterThan(0);
  });
});
