/**
 * Running a plan: one batch (one row per case), scheduled by the single call's rules (the earliest
 * start the service accepts), followed with the decisions of follow.ts, then judged. A thin shell:
 * timers and requests here, every decision in follow.ts, judge.ts and stop-run.ts. Used by the command line.
 *
 * The contract (what the command line, and the placement engine that will take over these steps, keep):
 * - It resolves with a RunOutcome whenever a batch was made or the run was cancelled; it throws
 *   PlanNotStarted only when the run could not start (create or schedule refused), after making sure
 *   the batch it made dials nothing (`stop` on the error says whether the service confirmed that).
 * - `signal` aborted: the batch is stopped (stop-run.ts, waiting up to `stopWaitMs` for the service to
 *   confirm), what the service knows is read once more and judged; unfinished cases are `cancelled`.
 * - `maxWaitMs` bounds the whole run from the call, the wait for the batch's start included. At the
 *   deadline the batch is stopped like a cancel, or, with `atDeadline: 'leave-running'`, left as it is;
 *   unfinished cases are `not-finished`.
 * - `leftRunning` names the batch whenever it may still dial (left by request, or a stop the service
 *   did not confirm). Nothing is dialled by the run after it resolves, except by that batch.
 */
import type { CallOptions } from '../api/client';
import type { Batch } from '../api/schemas/batch';
import type { Execution } from '../api/schemas/execution';
import { earliestScheduledAt, formatScheduledAt } from '../api/schedule';
import { caseOf, executionsByCase, planCsv } from './batch';
import { applyFull, applyList, isDone, isOverdue, newFollowState, nextListDelay, statusCounts, type FollowState } from './follow';
import { judgeRun, type Interruption, type RunResult } from './judge';
import type { TestPlan } from './schema';
import { STOP_WAIT_MS, stopBatchConfirmed, type StopClient, type StopOutcome } from './stop-run';

/** The slice of the API client a run needs (lib/api/client.ts provides it). */
export interface PlanClient extends StopClient {
  createBatch(req: { agent_id: string; csv: string; file_name?: string; from_phone_numbers?: string[] }): Promise<{ batch_id: string }>;
  scheduleBatch(batchId: string, at: Date | string): Promise<unknown>;
  listBatchExecutions(batchId: string, options?: CallOptions): Promise<Execution[]>;
  getExecution(executionId: string, options?: CallOptions): Promise<Execution>;
  getBatch(batchId: string, options?: CallOptions): Promise<Batch>;
  /** The service clock's speed relative to ours (the sandbox may run faster). */
  timeScale?(): number;
}

export type RunEvent =
  | { type: 'batch-created'; batchId: string; calls: number }
  | { type: 'scheduled'; scheduledAt: string; startsInMs: number }
  | { type: 'statuses'; counts: Record<string, number> }
  /** A call ended; `caseId` null when no case of the plan matches it. */
  | { type: 'finished'; caseId: string | null; executionId: string; status: string }
  | { type: 'poll-failed'; message: string; retryInMs: number }
  | { type: 'deadline'; afterMs: number; leaveRunning: boolean }
  | { type: 'stopping'; batchId: string; why: Interruption }
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
  /** The stop itself (default stop-run.ts); the placement engine's stop replaces it. */
  stop?: (batchId: string, waitMs: number) => Promise<StopOutcome>;
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
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

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

const FINAL_READ_MS = 10_000;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function runPlan(plan: TestPlan, client: PlanClient, options: RunOptions = {}): Promise<RunOutcome> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const emit = options.onEvent ?? (() => {});
  const signal = options.signal;
  const startedAt = now();
  const deadlineAt = startedAt + (options.maxWaitMs ?? 60 * 60_000);
  const stopWaitMs = options.stopWaitMs ?? STOP_WAIT_MS;
  const stopBatch = options.stop ?? ((batchId: string, waitMs: number) => stopBatchConfirmed(client, batchId, { waitMs, now, sleep: (ms) => sleep(ms) }));
  const cancelled = () => !!signal?.aborted;
  const expired = () => now() >= deadlineAt;
  let requests = 0;

  const outcome = (ended: RunOutcome['ended'], batchId: string | null, state: FollowState | null, stop: StopOutcome | null, leftRunning: string | null): RunOutcome => {
    const byCase = state ? executionsByCase(plan, Object.values(state.rows)) : new Map<string, Execution>();
    const interrupted: Interruption | null = ended === 'cancelled' ? 'cancelled' : ended === 'deadline' ? 'not-finished' : null;
    const result = judgeRun(plan, byCase, { batchId, startedAt, finishedAt: now(), interrupted });
    const r = state?.requests ?? { list: 0, full: 0, batch: 0 };
    return { result, follow: state, requests: requests + r.list + r.full + r.batch, ended, batchId, stop, leftRunning };
  };
  const stop = async (batchId: string, why: Interruption): Promise<StopOutcome> => {
    emit({ type: 'stopping', batchId, why });
    const result = await stopBatch(batchId, stopWaitMs);
    requests += result.requests;
    emit({ type: 'stop-result', stop: result });
    return result;
  };

  if (cancelled()) return outcome('cancelled', null, null, null, null);
  let batchId: string;
  try {
    requests++;
    // Not aborted by the signal: a create cut off mid-flight could leave a batch whose id we never learn.
    batchId = (
      await client.createBatch({
        agent_id: plan.agent_id,
        csv: planCsv(plan),
        file_name: `${plan.name.replace(/[^\w.-]+/g, '-').slice(0, 60) || 'test-plan'}.csv`,
        ...(plan.from_number ? { from_phone_numbers: [plan.from_number] } : {}),
      })
    ).batch_id;
  } catch (error) {
    // A batch that was not made (or whose answer was lost) is never scheduled, so it dials nothing.
    if (cancelled()) return outcome('cancelled', null, null, null, null);
    throw new PlanNotStarted(message(error), null, null, { cause: error });
  }
  emit({ type: 'batch-created', batchId, calls: plan.cases.length });

  // Cancelled or out of time before scheduling: the batch never dials; remove it.
  if (cancelled() || expired()) {
    const why: Interruption = cancelled() ? 'cancelled' : 'not-finished';
    const stopped = await stop(batchId, why);
    return outcome(why === 'cancelled' ? 'cancelled' : 'deadline', batchId, null, stopped, stopped.confirmed ? null : batchId);
  }

  const requestAt = now();
  const at = earliestScheduledAt(new Date(requestAt));
  try {
    requests++;
    await client.scheduleBatch(batchId, at);
  } catch (error) {
    // The schedule may have landed with its answer lost: make sure the batch dials nothing before saying so.
    const stopped = await stop(batchId, 'cancelled');
    if (cancelled()) return outcome('cancelled', batchId, null, stopped, stopped.confirmed ? null : batchId);
    throw new PlanNotStarted(message(error), batchId, stopped, { cause: error });
  }
  let state = newFollowState(batchId, formatScheduledAt(at), requestAt, client.timeScale?.() ?? 1);
  emit({ type: 'scheduled', scheduledAt: state.scheduledAt, startsInMs: Math.max(0, (at.getTime() - requestAt) / state.timeScale) });

  let failures = 0;
  let lastCounts = '';
  let reported = new Set<string>();
  const poll = async (callOptions: CallOptions) => {
    const listed = applyList(state, await client.listBatchExecutions(state.batchId, callOptions));
    state = listed.state;
    for (const id of listed.toRead) {
      state = applyFull(state, await client.getExecution(id, callOptions));
      const done = state.finished[id];
      if (done && !reported.has(id)) {
        reported = new Set(reported).add(id);
        emit({ type: 'finished', caseId: caseOf(plan, done) ?? null, executionId: id, status: done.status });
      }
    }
  };

  while (!isDone(state)) {
    if (cancelled() || expired()) {
      const why: Interruption = cancelled() ? 'cancelled' : 'not-finished';
      const leave = why === 'not-finished' && options.atDeadline === 'leave-running';
      if (why === 'not-finished') emit({ type: 'deadline', afterMs: now() - startedAt, leaveRunning: leave });
      const stopped = leave ? null : await stop(batchId, why);
      // Read once more what the service knows: calls that ended before the stop keep their verdicts.
      await poll({ signal: AbortSignal.timeout(FINAL_READ_MS) }).catch(() => undefined);
      const left = leave || !stopped!.confirmed ? batchId : null;
      return outcome(why === 'cancelled' ? 'cancelled' : 'deadline', batchId, state, stopped, left);
    }
    await sleep(Math.min(nextListDelay(state, now()), Math.max(0, deadlineAt - now())), signal);
    if (cancelled() || expired()) continue;
    try {
      await poll({ signal });
      if (Object.keys(state.rows).length === 0 && isOverdue(state, now())) {
        // Past every expected start and still no row: did the batch end without any?
        const batch = await client.getBatch(state.batchId, { signal });
        state = { ...state, requests: { ...state.requests, batch: state.requests.batch + 1 }, ended: ['failed', 'stopped'].includes(batch.status) };
      }
      failures = 0;
    } catch (error) {
      if (cancelled()) continue;
      // Calls are placed: keep following through network trouble, backing off (the client already retried).
      failures++;
      const retryInMs = Math.min(30_000, 1_000 * 2 ** failures);
      emit({ type: 'poll-failed', message: message(error), retryInMs });
      await sleep(Math.min(retryInMs, Math.max(0, deadlineAt - now())), signal);
      continue;
    }
    const counts = statusCounts(state);
    const text = JSON.stringify(counts);
    if (text !== lastCounts) emit({ type: 'statuses', counts });
    lastCounts = text;
  }
  return outcome('finished', batchId, state, null, null);
}
