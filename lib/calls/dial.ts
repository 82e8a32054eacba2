/**
 * Dialling through a single-call batch, one step at a time: create the batch (one CSV row), schedule
 * it at the earliest allowed time, find its execution, then follow the execution to a terminal status.
 * `advanceCall` performs exactly one step and returns the new record; the background shell decides
 * when to call it. A failed step is recorded on the call and retried from that same step, so a retry
 * never creates a second batch once one exists (nothing is dialled twice).
 */
import type { Batch } from '../api/schemas/batch';
import type { Execution } from '../api/schemas/execution';
import { earliestScheduledAt, formatScheduledAt } from '../api/schedule';
import type { CallRecord, DialStep } from './call-record';
import { singleCallCsv } from './csv';
import { applyExecution, applyPollFailure, nextPollDelay } from './tracker';

/** The slice of the API client dialling needs (lib/api/client.ts provides it). */
export interface DialClient {
  createBatch(req: { agent_id: string; csv: string; file_name?: string; from_phone_numbers?: string[] }): Promise<{ batch_id: string }>;
  scheduleBatch(batchId: string, at: Date | string): Promise<unknown>;
  listBatchExecutions(batchId: string): Promise<Execution[]>;
  getExecution(executionId: string): Promise<Execution>;
  getBatch(batchId: string): Promise<Batch>;
  stopBatch(batchId: string): Promise<unknown>;
  /** The service clock's speed relative to ours (1 for the real service; the sandbox may run faster). */
  timeScale?(): number;
}

export interface NewCall {
  id: string;
  baseUrl: string;
  agentId: string;
  agentName: string;
  toNumber: string;
  fromNumber: string | null;
  variables: Record<string, string>;
}

export function newCallRecord(input: NewCall, now: number): CallRecord {
  return {
    ...input,
    createdAt: now,
    step: 'creating-batch',
    failure: null,
    trackingPaused: false,
    batchId: null,
    scheduledAt: null,
    scheduledRequestAt: null,
    timeScale: 1,
    executionId: null,
    status: null,
    observed: [],
    execution: null,
    polls: 0,
    consecutiveFailures: 0,
    failingSince: null,
    lastError: null,
    nextPollAt: now,
    stopRequested: false,
    finishedAt: null,
    notified: false,
  };
}

/** What an error says to a person, plus whether it is worth retrying automatically. */
export interface StepError {
  message: string;
  status?: number;
  /** Network trouble, 429 or 5xx: a poll may try again by itself. */
  transient: boolean;
  retryAfterMs?: number;
}
export type DescribeError = (error: unknown) => StepError;

export interface AdvanceResult {
  call: CallRecord;
  /** Statuses newly observed (for notifications and the badge). */
  changed: string[];
}

function failStep(call: CallRecord, step: DialStep, error: StepError, now: number): CallRecord {
  return {
    ...call,
    failure: { step, message: error.message, status: error.status, at: now },
    nextPollAt: null,
    lastError: error.message,
  };
}

/** Performs the call's current step once. Never throws: failures are written on the record. */
export async function advanceCall(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  if (call.step === 'finished' || call.failure) return { call, changed: [] };
  switch (call.step) {
    case 'creating-batch': {
      try {
        const created = await client.createBatch({
          agent_id: call.agentId,
          csv: singleCallCsv(call.toNumber, call.variables),
          file_name: 'single-call.csv',
          ...(call.fromNumber ? { from_phone_numbers: [call.fromNumber] } : {}),
        });
        return { call: { ...call, step: 'scheduling', batchId: created.batch_id, nextPollAt: now() }, changed: [] };
      } catch (error) {
        return { call: failStep(call, 'creating-batch', describe(error), now()), changed: [] };
      }
    }
    case 'scheduling': {
      if (call.stopRequested) return finishLocally(call, now());
      // The earliest allowed time is computed at each try, so a retry after a pause is still ≥ 2 min ahead.
      const requestAt = now();
      const at = earliestScheduledAt(new Date(requestAt));
      try {
        await client.scheduleBatch(call.batchId!, at);
        return {
          call: {
            ...call,
            step: 'finding-execution',
            scheduledAt: formatScheduledAt(at),
            scheduledRequestAt: requestAt,
            timeScale: client.timeScale?.() ?? 1,
            status: 'scheduled',
            observed: [{ status: 'scheduled', at: now() }],
            nextPollAt: now(),
          },
          changed: ['scheduled'],
        };
      } catch (error) {
        return { call: failStep(call, 'scheduling', describe(error), now()), changed: [] };
      }
    }
    case 'finding-execution':
      return findExecution(call, client, describe, now);
    case 'tracking':
      return pollExecution(call, client, describe, now);
  }
}

/** Before the first status comes from the execution itself, look it up through the batch's executions. */
async function findExecution(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  try {
    const executions = await client.listBatchExecutions(call.batchId!);
    const row = executions.find((e) => e.telephony_data?.to_number === call.toNumber) ?? executions[0];
    if (row) {
      // The list answers a trimmed record: take the id, then read the full execution.
      return pollExecution({ ...call, step: 'tracking', executionId: row.id }, client, describe, now);
    }
    // No row yet (the live service may create it at start): check the batch did not end without one.
    const batch = await client.getBatch(call.batchId!);
    if (['failed', 'stopped'].includes(batch.status)) {
      const status = batch.status === 'failed' ? 'failed' : 'stopped';
      const t = now();
      return {
        call: { ...call, step: 'finished', status, observed: [...call.observed, { status, at: t }], finishedAt: t, nextPollAt: null, polls: call.polls + 2 },
        changed: [status],
      };
    }
    const next = { ...call, polls: call.polls + 2, consecutiveFailures: 0, failingSince: null, lastError: null };
    return { call: { ...next, nextPollAt: now() + nextPollDelay(next, now()) }, changed: [] };
  } catch (error) {
    return { call: pollFailed(call, describe(error), now()), changed: [] };
  }
}

async function pollExecution(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  try {
    const execution = await client.getExecution(call.executionId!);
    const { call: next, changed } = applyExecution(call, execution, now());
    return { call: next, changed };
  } catch (error) {
    return { call: pollFailed(call, describe(error), now()), changed: [] };
  }
}

function pollFailed(call: CallRecord, error: StepError, now: number): CallRecord {
  if (!error.transient) {
    // A 4xx while following (the batch or execution vanished, the key was removed): pause with the reason.
    return { ...call, trackingPaused: true, lastError: error.message, nextPollAt: null, polls: call.polls + 1 };
  }
  return applyPollFailure(call, error, now);
}

function finishLocally(call: CallRecord, at: number): AdvanceResult {
  return {
    call: { ...call, step: 'finished', status: 'stopped', observed: [...call.observed, { status: 'stopped', at }], finishedAt: at, nextPollAt: null },
    changed: ['stopped'],
  };
}

/** Stop: stop the batch when there is one, then keep following until the service says it is terminal. */
export async function stopCall(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  if (call.step === 'finished') return { call, changed: [] };
  if (!call.batchId || call.step === 'scheduling' || call.step === 'creating-batch') {
    // Not scheduled yet: nothing can ring. The unscheduled batch is left as created (it never dials).
    return finishLocally({ ...call, failure: null, stopRequested: true }, now());
  }
  try {
    await client.stopBatch(call.batchId);
  } catch (error) {
    const described = describe(error);
    // 404 "Batch is not queued or running": it already ended; the next poll reads the final status.
    if (described.status !== 404) return { call: { ...call, lastError: described.message }, changed: [] };
  }
  return { call: { ...call, stopRequested: true, trackingPaused: false, nextPollAt: now() }, changed: [] };
}

/** Retry after a failed step or a paused tracker: continue from where it stopped. */
export function retryCall(call: CallRecord, now: number): CallRecord {
  if (call.step === 'finished') return call;
  return { ...call, failure: null, trackingPaused: false, consecutiveFailures: 0, failingSince: null, lastError: null, nextPollAt: now };
}
