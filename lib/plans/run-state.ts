/**
 * A plan's run, as pure steps of (run, answer, clock): placed by the placement engine (one batch, a row
 * per call: every repeat of every case), its list followed (lib/placement/follow-batch.ts decides the
 * pace), then judged — or, with `retry_no_connection`, the calls that never connected placed again as
 * a further placement through the same engine (a round), and judged once that is over. The
 * shells — the background (lib/background/plan-runs.ts) and the command line (run.ts) — make the
 * requests through run-step.ts and keep each new state.
 */
import type { Execution } from '../api/schemas/execution';
import { markAttempt as markPlacementAttempt, requestStop as requestPlacementStop } from '../placement/engine';
import { applyFull, applyList, isDone, isOverdue, newFollowState, nextListDelay, type FollowState } from '../placement/follow-batch';
import { newPlacementState, type BatchSpec, type PlacementState } from '../placement/state';
import { callKey, executionsByCall, planCalls, planCsv, type CallKey } from './batch';
import type { GuidedRun } from './guided';
import { judgeCase, judgeRun, type RunResult, type RunTiming } from './judge';
import type { TestPlan } from './schema';
import { neverConnected } from './triage';

export type RunPhase = 'creating' | 'scheduling' | 'following' | 'finished' | 'failed';

/** The follow state, with the service clock's offset from ours (ms) when the batch was scheduled. */
export type RunFollow = FollowState & { clockOffset?: number };

/**
 * A plan's run: a placement of N rows (its engine fields, lib/placement/state.ts: the batch, the
 * attempts, the stop and its confirmation) plus the plan, how its batch is followed, and the verdicts.
 */
export type PlanRun = PlacementState & {
  /** The stored plan this run is of (lib/plans/store.ts), and the plan as it was when the run began. */
  planId: string;
  plan: TestPlan;
  /** The service the run was placed at: it is followed with that service's key only. */
  baseUrl: string;
  /** What the panel shows: derived from the placement's step after every step. */
  phase: RunPhase;
  follow: RunFollow | null;
  /** Why the run could not be placed (a create or schedule the service refused): it ends `failed` with it, once cleaned up. */
  abandoned: { message: string; status?: number } | null;
  result: RunResult | null;
  /** A guided run (one case, to the tester's phone): its caller script's marks (lib/plans/guided.ts). */
  guided?: GuidedRun | null;
  /**
   * `retry_no_connection`: this placement places again the calls of the earlier ones that never
   * connected (round 1, 2, …); null for the run's first placement. Older stored runs lack both fields.
   */
  retry?: { round: number; calls: CallKey[] } | null;
  /** The run's earlier placements, once over: their batch, the executions they ended with, their requests. */
  rounds?: PlacementRound[];
};

export interface PlacementRound {
  round: number;
  batchId: string | null;
  calls: number;
  executions: Execution[];
  requests: number;
}

/** A run is followed for at most this long; then what is known is judged (unfinished cases are errors). */
export const MAX_RUN_MS = 3 * 60 * 60_000;
/** Runs kept per plan (the oldest finished ones go first). */
export const RUNS_PER_PLAN = 20;

/** The batch's file name carries the run id (and the retry's round), so a lost create answer can be found again. */
export const runFileName = (runId: string, round = 0) => (round ? `test-plan-${runId}-retry-${round}.csv` : `test-plan-${runId}.csv`);

/** What a run asks the service to dial: one batch, a row per call (every repeat of every case), named for the run; a retry's rows only. */
export const runSpec = (run: Pick<PlanRun, 'id' | 'plan' | 'retry'>): BatchSpec => ({
  via: 'batch',
  csv: planCsv(run.plan, run.retry?.calls ?? planCalls(run.plan)),
  fileName: runFileName(run.id, run.retry?.round ?? 0),
  fromNumber: run.plan.from_number ?? null,
});

/** The calls the current placement dials. */
export const placementCalls = (run: Pick<PlanRun, 'plan' | 'retry'>) => run.retry?.calls.length ?? planCalls(run.plan).length;

export function newRun(input: { id: string; planId: string; plan: TestPlan; baseUrl: string; guided?: GuidedRun | null }, now: number): PlanRun {
  return { ...newPlacementState({ id: input.id, agentId: input.plan.agent_id }, now), ...input, phase: 'creating', follow: null, abandoned: null, result: null };
}

/** The phase the panel shows, from the placement's step (a finished run that never followed a batch placed nothing). */
export function runPhase(run: Pick<PlanRun, 'step' | 'follow'>): RunPhase {
  if (run.step === 'creating-batch' || run.step === 'starting-call') return 'creating';
  if (run.step === 'scheduling') return 'scheduling';
  if (run.step !== 'finished') return 'following';
  return run.follow ? 'finished' : 'failed';
}

export const isRunActive = (run: Pick<PlanRun, 'phase'>) => run.phase !== 'finished' && run.phase !== 'failed';

/** Counts a create or schedule before it is sent (stored first): a later try knows it may have happened. */
export const markAttempt = (run: PlanRun): PlanRun => markPlacementAttempt(run) ?? run;

/** The batch is scheduled (by this run, or by an earlier try whose answer was lost): its list is followed from now. */
export function withFollow(run: PlanRun, now: number): PlanRun {
  if (run.follow || !run.batchId || (run.step !== 'finding-execution' && run.step !== 'tracking')) return run;
  const follow: RunFollow = { ...newFollowState(run.batchId, run.scheduledAt ?? '', run.scheduledRequestAt ?? now, run.timeScale), clockOffset: run.clockOffset };
  const pendingStop = run.stopRequested && !run.stopSent;
  return { ...run, follow, nextPollAt: pendingStop ? run.nextPollAt : now + nextListDelay(follow, now) };
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

/** After a successful poll: judge when every execution is in, the stop is confirmed, or the run is too old; else plan the next poll. */
export function afterPoll(run: PlanRun, now: number): PlanRun {
  if (isDone(run.follow!) || (run.stopRequested && run.stopSent) || now - run.createdAt > MAX_RUN_MS) return finish(run, now);
  return { ...run, consecutiveFailures: 0, failingSince: null, lastError: null, serviceWait: null, nextPollAt: now + nextListDelay(run.follow!, now) };
}

/** Calls are placed: keep following through network trouble, backing off. */
export function afterPollFailed(run: PlanRun, message: string, now: number): PlanRun {
  const failures = run.consecutiveFailures + 1;
  return { ...run, consecutiveFailures: failures, lastError: message, nextPollAt: now + Math.min(30_000, 1_000 * 2 ** failures) };
}

/** Nothing of the run dials (never placed, or what was made is confirmed removed): every case is an error with the reason. */
export function failRun(run: PlanRun, message: string, now: number): PlanRun {
  // A retry that could not be placed: the earlier placements' calls keep their verdicts; the retry says why.
  if (run.rounds?.length) return finish({ ...run, follow: null }, now, message);
  const result = judgeRun(run.plan, new Map(), { batchId: run.batchId, startedAt: run.createdAt, finishedAt: now });
  const cases = result.cases.map((c) => ({ ...c, error: `The run's batch was not placed: ${message}`, errorCheck: { kind: 'batchNotPlaced' as const, message } }));
  return { ...run, step: 'finished', phase: 'failed', lastError: message, nextPollAt: null, finishedAt: now, result: { ...result, cases } };
}

/** Every execution the run's placements followed: the earlier rounds', then the current one's. */
export const knownExecutions = (run: Pick<PlanRun, 'rounds' | 'follow'>): Execution[] => [
  ...(run.rounds ?? []).flatMap((r) => r.executions),
  ...Object.values(run.follow?.rows ?? {}),
];

/**
 * The verdicts of what is known, over every placement of the run: each call's last try is judged; its
 * earlier tries that never connected are listed beside it. `problem`: why a retry was not placed.
 */
export function judgeKnown(run: PlanRun, timing: Omit<RunTiming, 'batchId' | 'retriedFrom' | 'retries'>, problem: string | null = null): RunResult {
  const all = knownExecutions(run);
  const latest = executionsByCall(run.plan, all);
  const retriedFrom = new Map<string, Array<{ executionId: string; status: string; batchId: string | null }>>();
  const rounds = run.rounds ?? [];
  for (const round of rounds) {
    for (const [key, e] of executionsByCall(run.plan, round.executions)) {
      if (latest.get(key)?.id === e.id) continue;
      retriedFrom.set(key, [...(retriedFrom.get(key) ?? []), { executionId: e.id, status: e.status, batchId: round.batchId }]);
    }
  }
  const retries = [...rounds.filter((r) => r.round > 0).map((r) => ({ round: r.round, batchId: r.batchId, calls: r.calls }))];
  if (run.retry) retries.push({ round: run.retry.round, batchId: run.batchId, calls: run.retry.calls.length, ...(problem ? { problem } : {}) });
  const firstBatch = rounds.find((r) => r.round === 0)?.batchId ?? run.batchId;
  return judgeRun(run.plan, latest, { ...timing, batchId: firstBatch, retriedFrom, retries });
}

/** The calls whose last try never connected and did not pass: what a retry places again. */
export function unconnectedCalls(run: PlanRun): CallKey[] {
  const latest = executionsByCall(run.plan, knownExecutions(run));
  const byId = new Map(run.plan.cases.map((c) => [c.id, c]));
  return planCalls(run.plan).filter((k) => {
    const e = latest.get(callKey(k.caseId, k.repeat));
    return !!e && neverConnected(e) && judgeCase(byId.get(k.caseId)!, e).verdict !== 'pass';
  });
}

/**
 * The placement's batch is over: a retry of the calls that never connected when the plan asks for one
 * (a new placement through the same engine, named for its round), else the verdicts.
 */
export function finish(run: PlanRun, now: number, problem: string | null = null): PlanRun {
  const round = run.retry?.round ?? 0;
  if (!problem && !run.stopRequested && round < (run.plan.retry_no_connection ?? 0) && now - run.createdAt <= MAX_RUN_MS) {
    const calls = unconnectedCalls(run);
    if (calls.length) return startRetry(run, calls, now);
  }
  // A run the user stopped: its unfinished cases say "cancelled", not "call never happened".
  const interrupted = run.stopRequested ? ('cancelled' as const) : null;
  const result = judgeKnown(run, { startedAt: run.createdAt, finishedAt: now, interrupted }, problem);
  return { ...run, step: 'finished', phase: 'finished', nextPollAt: null, finishedAt: now, result };
}

/** The current placement is kept as a round; a new one (the engine's fields afresh) places `calls`. */
function startRetry(run: PlanRun, calls: CallKey[], now: number): PlanRun {
  const round: PlacementRound = {
    round: run.retry?.round ?? 0,
    batchId: run.batchId,
    calls: placementCalls(run),
    executions: Object.values(run.follow?.rows ?? {}),
    requests: runRequests(run) - (run.rounds ?? []).reduce((n, r) => n + r.requests, 0),
  };
  const fresh = newPlacementState({ id: run.id, agentId: run.plan.agent_id }, now);
  return {
    ...run,
    ...fresh,
    // The run's age (MAX_RUN_MS) and the service's clock carry over.
    createdAt: run.createdAt,
    timeScale: run.timeScale,
    clockOffset: run.clockOffset,
    phase: 'creating',
    follow: null,
    abandoned: null,
    result: null,
    retry: { round: round.round + 1, calls },
    rounds: [...(run.rounds ?? []), round],
  };
}

/** Stop: stored at once ("Stopping…"); the next step performs it, and the run ends only once the service confirms it. */
export function requestStop(run: PlanRun, now: number): PlanRun {
  return isRunActive(run) ? { ...requestPlacementStop(run, now), nextPollAt: now } : run;
}

/** Requests the run made so far (create and schedule counted as tried). */
export function runRequests(run: PlanRun): number {
  const r = run.follow?.requests;
  const earlier = (run.rounds ?? []).reduce((n, round) => n + round.requests, 0);
  return earlier + run.createAttempts + run.scheduleAttempts + (r ? r.list + r.full + r.batch : 0);
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
