/**
 * A plan's run in the extension, as pure steps of (run, answer, clock): created → scheduled →
 * followed (follow.ts decides the pace) → judged. The background's shell (lib/background/plan-runs.ts)
 * makes the requests and stores each new state, so a run survives a closed panel and a restarted
 * worker. A create or schedule is counted before it is sent: a second try looks first.
 */
import type { Execution } from '../api/schemas/execution';
import { executionsByCase } from './batch';
import { applyFull, applyList, isDone, isOverdue, newFollowState, nextListDelay, type FollowState } from '../placement/follow-batch';
import { judgeRun, type RunResult } from './judge';
import type { TestPlan } from './schema';

export type RunPhase = 'creating' | 'scheduling' | 'following' | 'finished' | 'failed';

/** The follow state, with the service clock's offset from ours (ms) when the batch was scheduled. */
export type RunFollow = FollowState & { clockOffset?: number };

export interface PlanRun {
  id: string;
  /** The stored plan this run is of (lib/plans/store.ts), and the plan as it was when the run began. */
  planId: string;
  plan: TestPlan;
  /** The service the run was placed at: it is followed with that service's key only. */
  baseUrl: string;
  phase: RunPhase;
  createdAt: number;
  createAttempts: number;
  scheduleAttempts: number;
  batchId: string | null;
  follow: RunFollow | null;
  /** When the next step is due (our clock); null once the run has ended. */
  nextPollAt: number | null;
  /** Polls that failed in a row (network trouble): the next one waits longer. */
  failures: number;
  stopRequested: boolean;
  /** The last problem, as a person reads it (a failed poll, or why the run failed). */
  lastError: string | null;
  result: RunResult | null;
  finishedAt: number | null;
}

/** A run is followed for at most this long; then what is known is judged (unfinished cases are errors). */
export const MAX_RUN_MS = 3 * 60 * 60_000;
/** Runs kept per plan (the oldest finished ones go first). */
export const RUNS_PER_PLAN = 20;

/** The batch's file name carries the run id, so a lost create answer can be found again. */
export const runFileName = (runId: string) => `test-plan-${runId}.csv`;

export function newRun(input: { id: string; planId: string; plan: TestPlan; baseUrl: string }, now: number): PlanRun {
  return {
    ...input,
    phase: 'creating',
    createdAt: now,
    createAttempts: 0,
    scheduleAttempts: 0,
    batchId: null,
    follow: null,
    nextPollAt: now,
    failures: 0,
    stopRequested: false,
    lastError: null,
    result: null,
    finishedAt: null,
  };
}

export const isRunActive = (run: PlanRun) => run.phase !== 'finished' && run.phase !== 'failed';

/** Counts a create or schedule before it is sent (stored first): a later try knows it may have happened. */
export function markAttempt(run: PlanRun): PlanRun {
  if (run.phase === 'creating') return { ...run, createAttempts: run.createAttempts + 1 };
  if (run.phase === 'scheduling') return { ...run, scheduleAttempts: run.scheduleAttempts + 1 };
  return run;
}

export function afterCreated(run: PlanRun, batchId: string, now: number): PlanRun {
  return { ...run, phase: 'scheduling', batchId, nextPollAt: now, lastError: null };
}

export function afterScheduled(run: PlanRun, s: { scheduledAt: string; requestAt: number; timeScale: number; clockOffset: number }, now: number): PlanRun {
  const follow: RunFollow = { ...newFollowState(run.batchId!, s.scheduledAt, s.requestAt, s.timeScale), clockOffset: s.clockOffset };
  return { ...run, phase: 'following', follow, failures: 0, lastError: null, nextPollAt: now + nextListDelay(follow, now) };
}

/** Folds the batch's execution list in; answers the executions to read in full now. */
export function afterListed(run: PlanRun, executions: readonly Execution[]): { run: PlanRun; toRead: string[] } {
  const listed = applyList(run.follow!, executions);
  return { run: { ...run, follow: listed.state }, toRead: listed.toRead };
}

export function afterRead(run: PlanRun, execution: Execution): PlanRun {
  return { ...run, follow: applyFull(run.follow!, execution) };
}

/** Past every expected start with no row yet: the shell asks the batch whether it ended. */
export const needsBatchCheck = (run: PlanRun, now: number) =>
  !!run.follow && Object.keys(run.follow.rows).length === 0 && isOverdue(run.follow, now);

export function afterBatchChecked(run: PlanRun, batchStatus: string): PlanRun {
  const f = run.follow!;
  return { ...run, follow: { ...f, ended: ['failed', 'stopped'].includes(batchStatus), requests: { ...f.requests, batch: f.requests.batch + 1 } } };
}

/** After a successful poll: judge when every execution is in (or the run is too old), else plan the next poll. */
export function afterPoll(run: PlanRun, now: number): PlanRun {
  if (isDone(run.follow!) || now - run.createdAt > MAX_RUN_MS) return finish(run, now);
  return { ...run, failures: 0, lastError: null, nextPollAt: now + nextListDelay(run.follow!, now) };
}

/** Calls are placed: keep following through network trouble, backing off. */
export function afterPollFailed(run: PlanRun, message: string, now: number): PlanRun {
  const failures = run.failures + 1;
  return { ...run, failures, lastError: message, nextPollAt: now + Math.min(30_000, 1_000 * 2 ** failures) };
}

/** The batch could not be made or scheduled: no call was placed; every case is an error with the reason. */
export function failRun(run: PlanRun, message: string, now: number): PlanRun {
  const result = judgeRun(run.plan, new Map(), { batchId: run.batchId, startedAt: run.createdAt, finishedAt: now });
  const cases = result.cases.map((c) => ({ ...c, error: `The run's batch was not placed: ${message}` }));
  return { ...run, phase: 'failed', lastError: message, nextPollAt: null, finishedAt: now, result: { ...result, cases } };
}

/** Judges what is known: unfinished rows (a stopped batch, a run given up) are errors. */
export function finish(run: PlanRun, now: number): PlanRun {
  const rows = Object.values(run.follow?.rows ?? {});
  const result = judgeRun(run.plan, executionsByCase(run.plan, rows), { batchId: run.batchId, startedAt: run.createdAt, finishedAt: now });
  return { ...run, phase: 'finished', nextPollAt: null, finishedAt: now, result };
}

export function requestStop(run: PlanRun, now: number): PlanRun {
  return isRunActive(run) ? { ...run, stopRequested: true, nextPollAt: now } : run;
}

/** Requests the run made so far (create and schedule counted as tried). */
export function runRequests(run: PlanRun): number {
  const r = run.follow?.requests;
  return run.createAttempts + run.scheduleAttempts + (r ? r.list + r.full + r.batch : 0);
}

/**
 * Keeps a run over the stored list: replaces the one of its id (or adds it first), then drops the
 * oldest finished runs of its plan past RUNS_PER_PLAN. Active runs are never dropped.
 */
export function upsertRun(runs: readonly PlanRun[], run: PlanRun): PlanRun[] {
  const next = runs.some((r) => r.id === run.id) ? runs.map((r) => (r.id === run.id ? run : r)) : [run, ...runs];
  const ofPlan = next.filter((r) => r.planId === run.planId).sort((a, b) => b.createdAt - a.createdAt);
  const drop = new Set(ofPlan.filter((r) => !isRunActive(r)).slice(Math.max(0, RUNS_PER_PLAN - ofPlan.filter(isRunActive).length)).map((r) => r.id));
  return next.filter((r) => !drop.has(r.id));
}
