/**
 * The command line's shell around a plan's run: the same run step as the background's (run-step.ts, on
 * the placement engine — one batch named for the run, lost answers looked up before anything is sent
 * again, Stop done only when the service confirms it), driven by a Node loop instead of alarms.
 *
 * The contract the command line keeps:
 * - It resolves with a RunOutcome whenever a batch was made or the run was cancelled; it throws
 *   PlanNotStarted only when the run could not start (a create or schedule the service refused), after
 *   the engine made sure what it made dials nothing (`stop` on the error says whether the service confirmed).
 * - `signal` aborted: the run's Stop (waiting up to `stopWaitMs` for the service to confirm), what the
 *   service knows is read once more and judged; unfinished cases are `cancelled`.
 * - `maxWaitMs` bounds the whole run from the call, the wait for the batch's start included. At the
 *   deadline the batch is stopped like a cancel, or, with `atDeadline: 'leave-running'`, left as it is;
 *   unfinished cases are `not-finished`.
 * - `leftRunning` names the batch whenever it may still dial (left by request, or a stop the service
 *   did not confirm). Nothing is dialled by the run after it resolves, except by that batch.
 */
import { randomUUID } from 'node:crypto';
import { isTerminalExecutionStatus } from '../api/status-vocabulary';
import type { PlacementClient } from '../placement/client';
import { describeServiceError } from '../placement/describe';
import { statusCounts, type FollowState } from '../placement/follow-batch';
import { caseOf, repeatOf } from './batch';
import type { Interruption, RunResult } from './judge';
import { advanceRun } from './run-step';
import { afterListed, afterRead, isRunActive, judgeKnown, markAttempt, newRun, placementCalls, requestStop, type PlanRun } from './run-state';
import type { TestPlan } from './schema';

/** The slice of the API client a run needs (lib/api/client.ts provides it). */
export type PlanClient = PlacementClient;

/**
 * `stopped`: the service stopped the batch; `deleted`: it was never scheduled and is removed (or was
 * never made); `ended`: it had already finished; `unconfirmed`: the service did not confirm within the wait.
 */
export type StopState = 'stopped' | 'deleted' | 'ended' | 'unconfirmed';

export interface StopOutcome {
  batchId: string | null;
  /** The service confirmed that this batch will dial nothing more. */
  confirmed: boolean;
  state: StopState;
  /** When unconfirmed: the last problem, as text. */
  lastProblem: string | null;
}

export type RunEvent =
  /** `round`: 0 for the run's batch, 1… for a retry of the calls that never connected (retry_no_connection). */
  | { type: 'batch-created'; batchId: string; calls: number; round: number }
  | { type: 'scheduled'; scheduledAt: string; startsInMs: number }
  | { type: 'statuses'; counts: Record<string, number> }
  /** A call ended; `caseId` null when no case of the plan matches it. */
  | { type: 'finished'; caseId: string | null; executionId: string; status: string; repeat: number }
  | { type: 'poll-failed'; message: string; retryInMs: number }
  | { type: 'deadline'; afterMs: number; leaveRunning: boolean }
  | { type: 'stopping'; batchId: string | null; why: Interruption }
  | { type: 'stop-result'; stop: StopOutcome };

export interface RunOptions {
  now?: () => number;
  /** Waits `ms`; must end early when `signal` aborts (the default does). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onEvent?: (event: RunEvent) => void;
  /** The whole run's limit (real ms from the call), the wait for the start included. Default 60 min. */
  maxWaitMs?: number;
  /** At the deadline: stop the batch (default), or leave it running and name it. */
  atDeadline?: 'stop' | 'leave-running';
  /** Cancels the run: the batch is stopped and what is known is judged. */
  signal?: AbortSignal;
  /** How long a stop waits for the service's confirmation. Default 20 s. */
  stopWaitMs?: number;
  /** The run's id (its batch is named for it); a new one by default. */
  runId?: string;
}

export interface RunOutcome {
  result: RunResult;
  follow: FollowState | null;
  /** Every request the run made. */
  requests: number;
  /** `finished`: every call ended; `cancelled`: the signal; `deadline`: maxWaitMs. */
  ended: 'finished' | 'cancelled' | 'deadline';
  batchId: string | null;
  /** What the service confirmed when the run stopped its batch; null when it did not stop it. */
  stop: StopOutcome | null;
  /** The batch that may still dial (left running by request, or a stop not confirmed); else null. */
  leftRunning: string | null;
}

/** The run could not start. `stop` tells whether the service confirmed the batch made (if any) will not dial. */
export class PlanNotStarted extends Error {
  override name = 'PlanNotStarted';
  constructor(
    message: string,
    readonly batchId: string | null,
    readonly stop: StopOutcome | null,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options);
    this.status = options?.status;
  }
  /** The service's HTTP status when it refused the create or schedule. */
  readonly status?: number;
}

export const STOP_WAIT_MS = 20_000;

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** What the service confirmed of a run's stop, read from the run. */
function stopOutcome(run: PlanRun, confirmed: boolean): StopOutcome {
  if (!confirmed) return { batchId: run.batchId, confirmed: false, state: 'unconfirmed', lastProblem: run.lastError };
  // Over before its list was followed: what was made was removed (or nothing was made).
  const state: StopState = run.stopRefused ? 'ended' : !run.follow ? 'deleted' : 'stopped';
  return { batchId: run.batchId, confirmed: true, state, lastProblem: null };
}

export async function runPlan(plan: TestPlan, client: PlanClient, options: RunOptions = {}): Promise<RunOutcome> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const emit = options.onEvent ?? (() => {});
  const signal = options.signal;
  const startedAt = now();
  const deadlineAt = startedAt + (options.maxWaitMs ?? 60 * 60_000);
  const stopWaitMs = options.stopWaitMs ?? STOP_WAIT_MS;
  const describe = describeServiceError;

  // Every request the run makes is counted here, whatever step makes it (the twins' check, the stop, the last read).
  let requests = 0;
  const counted = new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const local = prop === 'timeScale' || prop === 'clockOffset' || prop === 'offersStartCall';
      return (...args: unknown[]) => {
        if (!local) requests++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  client = counted;

  let run = newRun({ id: options.runId ?? randomUUID(), planId: 'command-line', plan, baseUrl: '' }, startedAt);
  let interrupted: Interruption | null = null;
  let stopDeadline = Number.POSITIVE_INFINITY;
  let confirmed = true;
  let leftRunning: string | null = null;
  const reported = new Set<string>();
  let stopReported = false;
  let lastCounts = '';

  /** Events from what one step changed. */
  const report = (before: PlanRun, after: PlanRun, withStatuses = true) => {
    if (after.batchId && after.batchId !== before.batchId) emit({ type: 'batch-created', batchId: after.batchId, calls: placementCalls(after), round: after.retry?.round ?? 0 });
    if (after.follow && !before.follow && after.scheduledAt && !after.stopRequested) {
      const at = Date.parse(after.scheduledAt);
      const startsInMs = Number.isNaN(at) ? 0 : Math.max(0, (at - (after.scheduledRequestAt ?? now()) - after.clockOffset) / after.timeScale);
      emit({ type: 'scheduled', scheduledAt: after.scheduledAt, startsInMs });
    }
    // A placement that just became a round (a retry follows it) has its calls in `rounds`, no longer in `follow`.
    const ended = [...(after.rounds ?? []).flatMap((r) => r.executions), ...Object.values(after.follow?.finished ?? {})];
    for (const done of ended) {
      const id = done.id;
      if (reported.has(id) || !isTerminalExecutionStatus(done.status)) continue;
      reported.add(id);
      emit({ type: 'finished', caseId: caseOf(plan, done) ?? null, executionId: id, status: done.status, repeat: repeatOf(done) });
    }
    if (after.follow && withStatuses) {
      const text = JSON.stringify(statusCounts(after.follow));
      if (text !== lastCounts && text !== '{}') emit({ type: 'statuses', counts: statusCounts(after.follow) });
      lastCounts = text;
    }
    if (after.lastError && after.consecutiveFailures > before.consecutiveFailures && !after.stopRequested) {
      emit({ type: 'poll-failed', message: after.lastError, retryInMs: Math.max(0, (after.nextPollAt ?? now()) - now()) });
    }
  };

  while (isRunActive(run)) {
    if (!interrupted && (signal?.aborted || now() >= deadlineAt)) {
      interrupted = signal?.aborted ? 'cancelled' : 'not-finished';
      const leave = interrupted === 'not-finished' && options.atDeadline === 'leave-running';
      if (interrupted === 'not-finished') emit({ type: 'deadline', afterMs: now() - startedAt, leaveRunning: leave });
      if (leave) {
        leftRunning = run.batchId;
        break;
      }
      emit({ type: 'stopping', batchId: run.batchId, why: interrupted });
      run = requestStop(run, now());
      stopDeadline = now() + stopWaitMs;
    }
    if (run.nextPollAt === null && isRunActive(run)) {
      // Paused by a refusal that will not pass (the key refused, the batch gone): the run cannot go on.
      if (interrupted) {
        confirmed = false;
        leftRunning = run.batchId;
        break;
      }
      interrupted = 'not-finished';
      emit({ type: 'stopping', batchId: run.batchId, why: interrupted });
      run = requestStop(run, now());
      stopDeadline = now() + stopWaitMs;
    }
    if (interrupted && now() >= stopDeadline) {
      // The service never confirmed: the batch is named, never called stopped.
      confirmed = false;
      leftRunning = run.batchId;
      break;
    }
    const until = Math.min(interrupted ? stopDeadline : deadlineAt, run.nextPollAt ?? now());
    if (until > now()) {
      await sleep(until - now(), interrupted ? undefined : signal);
      continue;
    }
    const before = markAttempt(run);
    run = await advanceRun(before, client, describe, now);
    if (interrupted && !stopReported && (run.stopSent || !isRunActive(run))) {
      stopReported = true;
      emit({ type: 'stop-result', stop: stopOutcome(run, true) });
    }
    report(before, run, !interrupted);
  }

  if (interrupted && !stopReported && !leftRunning) emit({ type: 'stop-result', stop: stopOutcome(run, confirmed) });
  if (interrupted && !stopReported && leftRunning && !confirmed) emit({ type: 'stop-result', stop: stopOutcome(run, false) });
  if (interrupted && run.follow) {
    // Read once more what the service knows: calls that ended before the stop keep their verdicts.
    try {
      // The same folds as every poll (run-state.ts): the list, then each newly finished call read once.
      const before = run;
      const listed = afterListed(run, await client.listBatchExecutions(run.batchId!));
      run = listed.run;
      for (const id of listed.toRead) run = afterRead(run, await client.getExecution(id));
      report(before, run, false);
    } catch {
      // What was read before is judged.
    }
  }
  if (!interrupted && run.phase === 'failed') {
    throw new PlanNotStarted(run.abandoned?.message ?? run.lastError ?? 'The run could not start.', run.batchId, stopOutcome(run, true), { status: run.abandoned?.status });
  }
  const result = judgeKnown(run, { startedAt, finishedAt: now(), interrupted });
  return {
    result,
    follow: run.follow,
    requests,
    ended: interrupted === 'cancelled' ? 'cancelled' : interrupted ? 'deadline' : 'finished',
    batchId: result.batchId,
    stop: interrupted && options.atDeadline !== 'leave-running' ? stopOutcome(run, confirmed) : null,
    leftRunning: leftRunning ?? (interrupted && !confirmed ? run.batchId : null),
  };
}

