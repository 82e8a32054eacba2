// Pin as baseline (issue 21 §4) in the background: only a finished run of the plan; its results kept with
// the plan (they outlive the runs kept), through an edit of the plan; unpinning removes them.
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { plansHandlers } from '../../../lib/background/handlers/plans';
import { planStore } from '../../../lib/background/plan-store';
import { afterListed, afterRead, finish, newRun, upsertRun, type PlanRun } from '../../../lib/plans/run-state';
import { liveExecution, plan, scheduledRun } from './fixtures';

beforeEach(() => fakeBrowser.reset());

const NOW = 1_700_000_000_000;
const ctx = { calls: null as never, openPanel: async () => undefined, now: () => NOW };
const p = plan({ cases: [{ id: 'ok', label: 'Callback', contact_number: '+14155550123' }] });

function finishedRun(id: string): PlanRun {
  const run = scheduledRun(newRun({ id, planId: 'plan-1', plan: p, baseUrl: 'http://x' }, NOW), { batchId: 'b1', scheduledAt: '2026-01-01T00:02:00+00:00', requestAt: NOW }, NOW);
  const e = liveExecution({ id: `${id}-e` }, 'ok');
  return finish(afterRead(afterListed(run, [e]).run, e), NOW + 1000);
}

describe('plans/pin-baseline', () => {
  it('pins a finished run, keeps it through an edit of the plan, and unpins', async () => {
    await plansHandlers['plans/save']({ type: 'plans/save', planId: 'plan-1', plan: p }, ctx);
    const run = finishedRun('run-1');
    await planStore.editRuns((runs) => ({ items: upsertRun(runs, run), result: undefined }));
    await plansHandlers['plans/pin-baseline']({ type: 'plans/pin-baseline', planId: 'plan-1', runId: 'run-1' }, ctx);
    const pinned = (await planStore.plans())[0]!;
    expect(pinned.baseline).toMatchObject({ runId: 'run-1', pinnedAt: NOW, result: { verdict: 'pass', cases: [{ caseId: 'ok', verdict: 'pass' }] } });

    // The run is deleted; an edit of the plan is saved: the baseline stays.
    await plansHandlers['plans/delete-run']({ type: 'plans/delete-run', runId: 'run-1' }, ctx);
    await plansHandlers['plans/save']({ type: 'plans/save', planId: 'plan-1', plan: { ...p, name: 'Renamed' } }, ctx);
    expect((await planStore.plans())[0]).toMatchObject({ plan: { name: 'Renamed' }, baseline: { runId: 'run-1' } });

    await plansHandlers['plans/pin-baseline']({ type: 'plans/pin-baseline', planId: 'plan-1', runId: null }, ctx);
    expect((await planStore.plans())[0]!.baseline).toBeUndefined();
  });

  it('refuses a run that is not a finished run of this plan', async () => {
    await plansHandlers['plans/save']({ type: 'plans/save', planId: 'plan-1', plan: p }, ctx);
    const running = scheduledRun(newRun({ id: 'run-2', planId: 'plan-1', plan: p, baseUrl: 'http://x' }, NOW), { batchId: 'b2', scheduledAt: '2026-01-01T00:02:00+00:00', requestAt: NOW }, NOW);
    await planStore.editRuns((runs) => ({ items: upsertRun(runs, running), result: undefined }));
    await expect(plansHandlers['plans/pin-baseline']({ type: 'plans/pin-baseline', planId: 'plan-1', runId: 'run-2' }, ctx)).rejects.toThrow('Only a finished run of this plan can be its baseline.');
    await expect(plansHandlers['plans/pin-baseline']({ type: 'plans/pin-baseline', planId: 'plan-1', runId: 'nope' }, ctx)).rejects.toThrow('Only a finished run');
    expect((await planStore.plans())[0]!.baseline).toBeUndefined();
  });
});
