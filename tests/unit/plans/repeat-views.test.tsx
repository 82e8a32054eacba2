// @vitest-environment happy-dom
// The side panel's results of a repeat run (issue 21): passes of N, flaky, causes with counts, blocking vs
// advisory, the run against the pinned baseline, and Pin as baseline asking the background.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { RunResults } from '../../../components/plans/RunResults';
import type { Execution } from '../../../lib/api/schemas/execution';
import { afterListed, afterRead, finish, markAttempt, newRun, type PlanRun } from '../../../lib/plans/run-state';
import { fakeBackground, ok } from '../ui/helpers';
import { liveExecution, plan, scheduledRun } from './fixtures';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const p = plan({
  repeat: 3,
  cases: [
    { id: 'ok', label: 'Callback', contact_number: '+14155550123', expect: { extracted: { interested: { equals: true } } } },
    { id: 'busy', label: 'Busy line', contact_number: '+14155551001', gate: 'advisory', expect: { status: 'completed' } },
  ],
});
const tagged = (id: string, caseId: string, repeat: number, over: Record<string, unknown>): Execution =>
  liveExecution({ id, ...over, context_details: { recipient_data: { test_case_id: caseId, test_repeat: String(repeat) } } });
const busyCall = { status: 'busy', conversation_duration: 0, transcript: null, extracted_data: null, telephony_data: { to_number: '+14155551001', hangup_by: 'Carrier', hangup_code: 3010 } };

function finished(id: string, interested: boolean[]): PlanRun {
  const createdAt = Date.UTC(2026, 10, 23, 10);
  const executions = [
    ...interested.map((yes, i) => tagged(`${id}-ok-${i + 1}`, 'ok', i + 1, { extracted_data: { interested: yes } })),
    ...[1, 2, 3].map((r) => tagged(`${id}-busy-${r}`, 'busy', r, busyCall)),
  ];
  const run = markAttempt(newRun({ id, planId: 'plan-1', plan: p, baseUrl: 'http://x' }, createdAt));
  let placed = afterListed(scheduledRun(run, { batchId: 'batch-1', scheduledAt: new Date(createdAt + 135_000).toISOString(), requestAt: createdAt }, createdAt), executions).run;
  for (const e of executions) placed = afterRead(placed, e);
  return finish(placed, createdAt + 90_000);
}

describe('RunResults of a repeat run', () => {
  it('shows passes of N with flaky, the cause and count of each failure, blocking vs advisory, and the flips against the baseline', async () => {
    const baselineRun = finished('base', [true, true, true]);
    const run = finished('now', [true, false, true]);
    const bg = fakeBackground((r) => (r.type === 'plans/pin-baseline' ? ok(null) : undefined));
    render(<RunResults run={run} openExecution={() => undefined} baseline={{ runId: 'base', pinnedAt: Date.UTC(2026, 10, 22), result: baselineRun.result! }} />);

    const rows = within(screen.getByRole('table', { name: 'Verdict per case' })).getAllByRole('row');
    const head = within(rows[0]!).getAllByRole('columnheader').map((c) => c.textContent);
    expect(head).toContain('Passes');
    const cells = (i: number) => within(rows[i]!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells(1).slice(0, 2)).toEqual(['Fail', '2 of 3 (67%) flaky']);
    expect(cells(2).slice(0, 2)).toEqual(['Fail (advisory)', '0 of 3 (0%)']);
    expect(screen.getByText(/^Blocking cases/).textContent).toBe(
      'Blocking cases (the verdict follows these): 0 passed, 1 failed, 0 in error. Advisory cases: 0 passed, 1 failed, 0 in error.',
    );
    expect(screen.getByText(/^Calls:/).textContent).toBe('Calls: 2 of 6 passed.');
    const reasons = screen.getByRole('list', { name: 'Why calls of Busy line did not pass' });
    expect(within(reasons).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '3× No connection: status: expected completed, got busy',
    ]);
    expect(screen.getAllByText('Cause: No connection').length).toBe(1);
    expect(screen.getByText(/^Passed 2 of 3 calls/).textContent).toBe('Passed 2 of 3 calls (67%); it needs 100%. flaky. Shown below: its worst call (#2).');

    // Callback passed every call in the baseline and 2 of 3 now: flaky, not a regression; the busy line was already failing.
    expect(screen.getByText('No regressions (pass → fail).')).toBeTruthy();
    expect(screen.getByText(/^Flaky/).textContent).toBe('Flaky (passed before, mixed now; not a regression): Callback 100% → 67%');
    expect(screen.getByText(/^Already failing/).textContent).toBe('Already failing in the baseline: Busy line 0% → 0% (advisory)');

    fireEvent.click(screen.getByRole('button', { name: 'Pin as baseline' }));
    await waitFor(() => expect(bg.requests).toContainEqual({ type: 'plans/pin-baseline', planId: 'plan-1', runId: 'now' }));
  });

  it('a run that lost every call of a blocking case it passed in the baseline: a regression', () => {
    const baselineRun = finished('base', [true, true, true]);
    render(<RunResults run={finished('now', [false, false, false])} openExecution={() => undefined} baseline={{ runId: 'base', pinnedAt: 0, result: baselineRun.result! }} />);
    expect(screen.getByText(/^Regressions/).textContent).toBe('Regressions (pass → fail): Callback 100% → 0%');
  });

  it('a case still passing, less often than in the baseline: its pass rate is shown going down', () => {
    const lenient = { ...p, min_pass_rate: 0.6 };
    const run = (id: string, interested: boolean[]) => {
      const r = finished(id, interested);
      return finish({ ...r, plan: lenient, step: 'tracking', phase: 'following', result: null }, r.finishedAt!);
    };
    render(<RunResults run={run('now', [true, false, true])} openExecution={() => undefined} baseline={{ runId: 'base', pinnedAt: 0, result: run('base', [true, true, true]).result! }} />);
    expect(screen.getByText(/^Pass rate down/).textContent).toBe('Pass rate down: Callback 100% → 67%');
  });
});
