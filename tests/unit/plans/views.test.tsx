// @vitest-environment happy-dom
// The run's views: results per case (verdicts, expected beside actual, the call opened), Stop asking first, two runs compared.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { RunCompare } from '../../../components/plans/RunCompare';
import { RunResults } from '../../../components/plans/RunResults';
import { afterListed, afterRead, finish, markAttempt, newRun, type PlanRun } from '../../../lib/plans/run-state';
import { fakeBackground, ok } from '../ui/helpers';
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
