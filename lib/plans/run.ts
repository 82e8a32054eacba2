/**
 * Running a plan: one batch (one row per case), scheduled by the single call's rules (the earliest
 * start the service accepts), followed with the decisions of follow.ts, then judged. A thin shell:
 * timers and requests here, every decision in follow.ts and judge.ts. Used by the command line.
 */
import type { Batch } from '../api/schemas/batch';
import type { Execution } from '../api/schemas/execution';
import { earliestScheduledAt, formatScheduledAt } from '../api/schedule';
import { executionsByCase, planCsv } from './batch';
import { applyFull, applyList, isDone, isOverdue, newFollowState, nextListDelay, statusCounts, type FollowState } from '../placement/follow-batch';
import { judgeRun, type RunResult } from './judge';
import type { TestPlan } from './schema';

/** The slice of the API client a run needs (lib/api/client.ts provides it). */
export interface PlanClient {
  createBatch(req: { agent_id: string; csv: string; file_name?: string; from_phone_numbers?: string[] }): Promise<{ batch_id: string }>;
  scheduleBatch(batchId: string, at: Date | string): Promise<unknown>;
  listBatchExecutions(batchId: string): Promise<Execution[]>;
  getExecution(executionId: string): Promise<Execution>;
  getBatch(batchId: string): Promise<Batch>;
  /** The service clock's speed relative to ours (the sandbox may run faster). */
  timeScale?(): number;
}

export type RunEvent =
  | { type: 'batch-created'; batchId: string; calls: number }
  | { type: 'scheduled'; scheduledAt: string; startsInMs: number }
  | { type: 'statuses'; counts: Record<string, number> }
  | { type: 'finished'; executionId: string; status: string }
  | { type: 'poll-failed'; message: string; retryInMs: number }
  | { type: 'gave-up'; afterMs: number };

export interface RunOptions {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  onEvent?: (event: RunEvent) => void;
  /** Stop following after this long (real ms) and judge what is known; unfinished cases are errors. */
  maxWaitMs?: number;
}

export interface RunOutcome {
  result: RunResult;
  follow: FollowState;
  /** Every request the run made. */
  requests: number;
}

/** Creating and scheduling are not retried here: a failure there means no call was placed (the caller reports it). */
export async function runPlan(plan: TestPlan, client: PlanClient, options: RunOptions = {}): Promise<RunOutcome> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const emit = options.onEvent ?? (() => {});
  const maxWaitMs = options.maxWaitMs ?? 60 * 60_000;
  const startedAt = now();

  const created = await client.createBatch({
    agent_id: plan.agent_id,
    csv: planCsv(plan),
    file_name: `${plan.name.replace(/[^\w.-]+/g, '-').slice(0, 60) || 'test-plan'}.csv`,
    ...(plan.from_number ? { from_phone_numbers: [plan.from_number] } : {}),
  });
  emit({ type: 'batch-created', batchId: created.batch_id, calls: plan.cases.length });
  const requestAt = now();
  const at = earliestScheduledAt(new Date(requestAt));
  await client.scheduleBatch(created.batch_id, at);
  let state = newFollowState(created.batch_id, formatScheduledAt(at), requestAt, client.timeScale?.() ?? 1);
  emit({ type: 'scheduled', scheduledAt: state.scheduledAt, startsInMs: Math.max(0, (at.getTime() - requestAt) / state.timeScale) });

  let failures = 0;
  let lastCounts = '';
  while (!isDone(state)) {
    if (now() - startedAt > maxWaitMs) {
      emit({ type: 'gave-up', afterMs: now() - startedAt });
      break;
    }
    await sleep(nextListDelay(state, now()));
    try {
      const listed = applyList(state, await client.listBatchExecutions(state.batchId));
      state = listed.state;
      for (const id of listed.toRead) {
        state = applyFull(state, await client.getExecution(id));
        const done = state.finished[id];
        if (done) emit({ type: 'finished', executionId: id, status: done.status });
      }
      if (Object.keys(state.rows).length === 0 && isOverdue(state, now())) {
        // Past every expected start and still no row: did the batch end without any?
        const batch = await client.getBatch(state.batchId);
        state = { ...state, requests: { ...state.requests, batch: state.requests.batch + 1 }, ended: ['failed', 'stopped'].includes(batch.status) };
      }
      failures = 0;
    } catch (error) {
      // Calls are placed: keep following through network trouble, backing off (the client already retried).
      failures++;
      const retryInMs = Math.min(30_000, 1_000 * 2 ** failures);
      emit({ type: 'poll-failed', message: error instanceof Error ? error.message : String(error), retryInMs });
      await sleep(retryInMs);
      continue;
    }
    const counts = statusCounts(state);
    const text = JSON.stringify(counts);
    if (text !== lastCounts) emit({ type: 'statuses', counts });
    lastCounts = text;
  }

  // Unfinished rows are judged from what the list last said (the judge calls them errors).
  const byCase = executionsByCase(plan, Object.values(state.rows));
  const result = judgeRun(plan, byCase, { batchId: state.batchId, startedAt, finishedAt: now() });
  const r = state.requests;
  return { result, follow: state, requests: 2 + r.list + r.full + r.batch };
}
