// A plan's run as pure steps: created → scheduled → followed → judged; failures, stop, retention.
import { describe, expect, it } from 'vitest';
import {
  afterBatchChecked,
  afterListed,
  afterPoll,
  afterPollFailed,
  afterRead,
  failRun,
  finish,
  isRunActive,
  markAttempt,
  MAX_RUN_MS,
  needsBatchCheck,
  newRun,
  requestStop,
  RUNS_PER_PLAN,
  runRequests,
  upsertRun,
  type PlanRun,
} from '../../../lib/plans/run-state';
import { liveExecution, plan, scheduledRun } from './fixtures';

const p = plan({
  cases: [
    { id: 'ok', label: 'Callback', contact_number: '+14155550123', expect: { status: 'completed' } },
    { id: 'busy', label: 'Busy', contact_number: '+14155551001', expect: { status: 'busy' } },
  ],
});
const T0 = Date.parse('2026-11-23T10:00:00Z');
const started = () => newRun({ id: 'run-1', planId: 'plan-1', plan: p, baseUrl: 'http://127.0.0.1:8787' }, T0);

function scheduled(): PlanRun {
  let run = markAttempt(started());
  run = markAttempt({ ...run, step: 'scheduling', phase: 'scheduling', batchId: 'batch-1' });
  return scheduledRun(run, { batchId: 'batch-1', scheduledAt: '2026-11-23T10:02:15+00:00', requestAt: T0 + 200 }, T0 + 300);
}

const okRow = (status: string) => liveExecution({ id: 'e-ok', status, batch_id: 'batch-1' }, 'ok');
const busyRow = (status: string) => liveExecution({ id: 'e-busy', status, batch_id: 'batch-1', conversation_duration: 0, telephony_data: { to_number: '+14155551001' }, extracted_data: {} }, 'busy');

describe('a run, step by step', () => {
  it('counts the create and the schedule before they are sent, and is due at once', () => {
    const run = started();
    expect(run).toMatchObject({ phase: 'creating', nextPollAt: T0, createAttempts: 0 });
    expect(markAttempt(run).createAttempts).toBe(1);
    const created = { ...markAttempt(run), step: 'scheduling' as const, batchId: 'batch-1' };
    expect(markAttempt(created).scheduleAttempts).toBe(1);
    // Nothing else is counted: following changes nothing at the service.
    expect(markAttempt(scheduled())).toEqual(scheduled());
  });

  it('after scheduling, sleeps until just before the start rather than polling at once', () => {
    const run = scheduled();
    expect(run.phase).toBe('following');
    expect(run.follow).toMatchObject({ batchId: 'batch-1', scheduledAt: '2026-11-23T10:02:15+00:00' });
    expect(run.nextPollAt! - (T0 + 300)).toBeGreaterThanOrEqual(60_000);
  });

  it('reads each execution in full once, when the list shows it finished, then judges every case', () => {
    let run = scheduled();
    const first = afterListed(run, [okRow('in-progress'), busyRow('busy')]);
    expect(first.toRead).toEqual(['e-busy']);
    run = afterRead(first.run, busyRow('busy'));
    run = afterPoll(run, T0 + 200_000);
    expect(isRunActive(run)).toBe(true);
    expect(run.nextPollAt).toBeGreaterThan(T0 + 200_000);

    const second = afterListed(run, [okRow('completed'), busyRow('busy')]);
    expect(second.toRead).toEqual(['e-ok']);
    run = afterPoll(afterRead(second.run, okRow('completed')), T0 + 260_000);
    expect(run.phase).toBe('finished');
    expect(run.nextPollAt).toBeNull();
    expect(run.result!.verdict).toBe('pass');
    expect(run.result!.cases.map((c) => [c.caseId, c.verdict])).toEqual([
      ['ok', 'pass'],
      ['busy', 'pass'],
    ]);
    expect(run.result!.durationMs).toBe(260_000);
    expect(runRequests(run)).toBe(2 + 2 + 2);
  });

  it('backs off on failed polls and keeps the reason to show', () => {
    const run = scheduled();
    const once = afterPollFailed(run, 'Network error', T0);
    const twice = afterPollFailed(once, 'Network error', T0);
    expect(once.lastError).toBe('Network error');
    expect(twice.nextPollAt! - T0).toBeGreaterThan(once.nextPollAt! - T0);
    expect(twice.nextPollAt! - T0).toBeLessThanOrEqual(30_000);
    expect(afterPoll(afterListed(twice, [okRow('in-progress')]).run, T0).consecutiveFailures).toBe(0);
  });

  it('asks the batch when nothing was listed long after every expected start, and ends if it failed', () => {
    let run = afterListed(scheduled(), []).run;
    expect(needsBatchCheck(run, T0 + 60_000)).toBe(false);
    const late = T0 + 60 * 60_000;
    expect(needsBatchCheck(run, late)).toBe(true);
    run = afterPoll(afterBatchChecked(run, 'failed'), late);
    expect(run.phase).toBe('finished');
    expect(run.result!.cases.every((c) => c.verdict === 'error')).toBe(true);
    expect(afterBatchChecked(afterListed(scheduled(), []).run, 'scheduled').follow!.ended).toBe(false);
  });

  it('gives up after MAX_RUN_MS and judges what is known: unfinished cases are errors', () => {
    const listed = afterListed(scheduled(), [okRow('in-progress'), busyRow('busy')]);
    const run = afterPoll(afterRead(listed.run, busyRow('busy')), T0 + MAX_RUN_MS + 1);
    expect(run.phase).toBe('finished');
    expect(run.result!.cases.map((c) => c.verdict)).toEqual(['error', 'pass']);
  });

  it('a failed create or schedule ends the run with every case in error, naming the reason', () => {
    const run = failRun(markAttempt(started()), 'Agent not found', T0 + 5);
    expect(run.phase).toBe('failed');
    expect(isRunActive(run)).toBe(false);
    expect(run.result!.verdict).toBe('error');
    expect(run.result!.cases.every((c) => c.error?.includes('Agent not found'))).toBe(true);
  });

  it('Stop makes the run due at once; a finished run ignores it', () => {
    const run = requestStop(scheduled(), T0 + 10);
    expect(run).toMatchObject({ stopRequested: true, nextPollAt: T0 + 10 });
    const done = finish(scheduled(), T0 + 20);
    expect(requestStop(done, T0 + 30)).toBe(done);
  });
});

describe('upsertRun', () => {
  const finished = (i: number, planId = 'plan-1'): PlanRun => ({ ...finish(scheduled(), T0 + i), id: `r${i}`, planId, createdAt: T0 + i });

  it('replaces a run by id and adds new ones first', () => {
    const a = finished(1);
    const runs = upsertRun([a], finished(2));
    expect(runs.map((r) => r.id)).toEqual(['r2', 'r1']);
    expect(upsertRun(runs, { ...a, lastError: 'x' }).find((r) => r.id === 'r1')!.lastError).toBe('x');
  });

  it('keeps RUNS_PER_PLAN runs per plan, dropping the oldest finished ones, never an active one or another plan’s', () => {
    let runs: PlanRun[] = [{ ...scheduled(), id: 'active', createdAt: T0 - 1 }, finished(0, 'plan-2')];
    for (let i = 1; i <= RUNS_PER_PLAN + 3; i++) runs = upsertRun(runs, finished(i));
    const ofPlan = runs.filter((r) => r.planId === 'plan-1');
    expect(ofPlan).toHaveLength(RUNS_PER_PLAN);
    expect(ofPlan.some((r) => r.id === 'active')).toBe(true);
    expect(ofPlan.some((r) => r.id === 'r1')).toBe(false);
    expect(runs.some((r) => r.id === 'r0')).toBe(true);
  });
});
