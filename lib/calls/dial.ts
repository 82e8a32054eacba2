/**
 * Dialling through a single-call batch, one step at a time: create the batch (one CSV row), schedule
 * it at the earliest allowed time, find its execution, then follow the execution to a terminal status.
 * `advanceCall` performs exactly one step and returns the new record; the background shell decides
 * when to call it, one step at a time per call. A failed step is recorded on the call and retried
 * from that same step, so a retry never creates a second batch once one exists (nothing is dialled twice).
 *
 * Answers get lost after the service acted (a batch made, a schedule taken), so the steps that change
 * the service are counted before each request (`markAttempt`), and a second try looks first: for the
 * batch by its file name (which names the call), for the schedule by reading the batch.
 * A Stop is a flag on the record; the next step performs it before anything else (`stopStep`).
 */
import type { Batch } from '../api/schemas/batch';
import type { Execution } from '../api/schemas/execution';
import { serviceNow } from '../api/clock';
import { earliestScheduledAt, formatScheduledAt } from '../api/schedule';
import type { CallRecord, CallVia, DialStep } from './call-record';
import { singleCallCsv } from './csv';
import { startStep, stopStartedStep, type StartNowClient } from './start-now';
import { finishLocally, pollExecution, pollFailed, succeeded, writeFailed, type AdvanceResult, type DescribeError } from './steps';
import { nextPollDelay, stopPending } from './tracker';

export { WRITE_TRIES, writeFailed, type AdvanceResult, type DescribeError, type StepError } from './steps';

/** The slice of the API client dialling needs (lib/api/client.ts provides it). */
export interface DialClient extends StartNowClient {
  createBatch(req: { agent_id: string; csv: string; file_name?: string; from_phone_numbers?: string[] }): Promise<{ batch_id: string }>;
  scheduleBatch(batchId: string, at: Date | string): Promise<unknown>;
  listBatchExecutions(batchId: string): Promise<Execution[]>;
  getExecution(executionId: string): Promise<Execution>;
  getBatch(batchId: string): Promise<Batch>;
  stopBatch(batchId: string): Promise<unknown>;
  listAgentBatches(agentId: string): Promise<Batch[]>;
  deleteBatch(batchId: string): Promise<unknown>;
  /** The service clock's speed relative to ours (1 for the real service; the sandbox may run faster). */
  timeScale?(): number;
  /** The service clock minus ours (ms), once an answer's `Date` header has been seen. */
  clockOffset?(): number | undefined;
}

/** The CSV's file name names the call, so a batch whose creation answer was lost can be found again. */
export function batchFileName(callId: string): string {
  return `call-${callId}.csv`;
}

export interface NewCall {
  id: string;
  baseUrl: string;
  agentId: string;
  agentName: string;
  toNumber: string;
  fromNumber: string | null;
  variables: Record<string, string>;
  /** `call`: start it at once with `POST /call` where the service offers it (else the batch); default `batch`. */
  via?: CallVia;
}

export function newCallRecord(input: NewCall, now: number): CallRecord {
  return {
    ...input,
    via: input.via ?? 'batch',
    createdAt: now,
    step: input.via === 'call' ? 'starting-call' : 'creating-batch',
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
    stopSent: false,
    createAttempts: 0,
    scheduleAttempts: 0,
    startAttempts: 0,
    stopRefused: null,
    clockOffset: 0,
    serviceWait: null,
    finishedAt: null,
    notified: false,
  };
}

/**
 * The record to store before the step runs, when the step changes the service (create, schedule):
 * the attempt is counted first, so after a lost answer or a worker restart the next try knows to look.
 * Null when nothing needs storing.
 */
export function markAttempt(call: CallRecord): CallRecord | null {
  if (call.step === 'finished' || call.failure || call.trackingPaused || stopPending(call)) return null;
  if (call.step === 'starting-call') return { ...call, startAttempts: call.startAttempts + 1 };
  if (call.step === 'creating-batch') return { ...call, createAttempts: call.createAttempts + 1 };
  if (call.step === 'scheduling') return { ...call, scheduleAttempts: call.scheduleAttempts + 1 };
  return null;
}

/** A Stop pressed: stored at once (the UI shows "Stopping…"); the call's next step performs it. */
export function requestStop(call: CallRecord, now: number): CallRecord {
  if (call.step === 'finished' || call.stopRequested) return call;
  return { ...call, stopRequested: true, stopSent: false, trackingPaused: false, nextPollAt: now };
}

/** Performs the call's current step once. Never throws: failures are written on the record. */
export async function advanceCall(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  const result = await runStep(call, client, describe, now);
  // A create that was retried may have had a twin land late (held in the network past our look):
  // once the call is over, tidy again. Only after a retried create, so a plain call costs nothing.
  if (call.step !== 'finished' && result.call.step === 'finished' && result.call.batchId && result.call.createAttempts > 1) {
    await removeTwins(client, call.agentId, batchFileName(call.id), result.call.batchId);
  }
  // Keep the latest reading of the service's clock for the next schedule (each step may use a new client).
  const offset = client.clockOffset?.();
  return offset === undefined || result.call.clockOffset === offset ? result : { ...result, call: { ...result.call, clockOffset: offset } };
}

async function runStep(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  if (call.step === 'finished') return { call, changed: [] };
  if (stopPending(call)) return stopStep(call, client, describe, now);
  if (call.failure) return { call, changed: [] };
  switch (call.step) {
    case 'starting-call':
      return startStep(call, client, describe, now);
    case 'creating-batch':
      return createStep(call, client, describe, now);
    case 'scheduling':
      return scheduleStep(call, client, describe, now);
    case 'finding-execution':
      return findExecution(call, client, describe, now);
    case 'tracking':
      return pollExecution(call, client, describe, now);
  }
}

async function createStep(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  const fileName = batchFileName(call.id);
  try {
    // An earlier try may have made the batch and lost the answer: find it by its name before making another.
    let batchId: string | undefined;
    let named: Batch[] | undefined;
    if (call.createAttempts > 1) {
      named = (await client.listAgentBatches(call.agentId)).filter((b) => b.file_name === fileName);
      batchId = named.find((b) => b.status === 'created')?.batch_id;
    }
    if (!batchId) {
      const created = await client.createBatch({
        agent_id: call.agentId,
        csv: singleCallCsv(call.toNumber, call.variables),
        file_name: fileName,
        ...(call.fromNumber ? { from_phone_numbers: [call.fromNumber] } : {}),
      });
      batchId = created.batch_id;
      named = undefined;
    }
    await removeTwins(client, call.agentId, fileName, batchId, named);
    return { call: { ...succeeded(call), step: 'scheduling', batchId, nextPollAt: now() }, changed: [] };
  } catch (error) {
    return { call: writeFailed(call, 'creating-batch', describe(error), now()), changed: [] };
  }
}

/**
 * Other unscheduled batches named for this call are deleted (they would never dial, but would stay
 * `created` forever): a browser sends a POST again by itself when a reused connection closes before
 * any answer, and the service may have made the first. Best effort: the call goes on whatever happens here.
 */
async function removeTwins(client: DialClient, agentId: string, fileName: string, keep: string, known?: Batch[]): Promise<void> {
  try {
    const named = known ?? (await client.listAgentBatches(agentId)).filter((b) => b.file_name === fileName);
    for (const twin of named) {
      if (twin.batch_id !== keep && twin.status === 'created') await client.deleteBatch(twin.batch_id).catch(() => undefined);
    }
  } catch {
    // The list is only for tidying up.
  }
}

/** The batch is scheduled (by us now, or by an earlier try whose answer was lost): follow it. */
function followScheduled(call: CallRecord, client: DialClient, scheduledAt: string | null, requestAt: number, now: number): AdvanceResult {
  return {
    call: {
      ...succeeded(call),
      step: 'finding-execution',
      scheduledAt,
      scheduledRequestAt: requestAt,
      timeScale: client.timeScale?.() ?? 1,
      status: 'scheduled',
      observed: [...call.observed.filter((o) => o.status !== 'scheduled'), { status: 'scheduled', at: now }],
      nextPollAt: now,
    },
    changed: ['scheduled'],
  };
}

async function scheduleStep(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  try {
    if (call.scheduleAttempts > 1) {
      // An earlier try may have been taken and its answer lost: a batch past `created` is already under way.
      const batch = await client.getBatch(call.batchId!);
      if (batch.status !== 'created') return followScheduled(call, client, batch.scheduled_at ?? call.scheduledAt, now(), now());
    }
    // The earliest allowed time is computed at each try on the service's clock, so it is ≥ 2 min ahead there.
    const requestAt = now();
    const offset = client.clockOffset?.() ?? call.clockOffset;
    const at = formatScheduledAt(earliestScheduledAt(new Date(serviceNow(requestAt, offset))));
    await client.scheduleBatch(call.batchId!, at);
    return followScheduled({ ...call, clockOffset: offset }, client, at, requestAt, now());
  } catch (error) {
    return { call: writeFailed(call, 'scheduling', describe(error), now()), changed: [] };
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
    const next = { ...succeeded(call), polls: call.polls + 2 };
    return { call: { ...next, nextPollAt: now() + nextPollDelay(next, now()) }, changed: [] };
  } catch (error) {
    return { call: pollFailed(call, describe(error), now()), changed: [] };
  }
}

/**
 * Performs a requested Stop, on the latest record and with no other step of the call in flight:
 * a call never scheduled ends here (its batch, if any, stays `created` and never dials); otherwise
 * the batch is stopped at the service and the call is followed until the service says it is over.
 */
export async function stopStep(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  if (call.via === 'call') return stopStartedStep(call, client, describe, now);
  const neverScheduled = !call.batchId || call.step === 'creating-batch' || (call.step === 'scheduling' && call.scheduleAttempts === 0);
  if (neverScheduled) return finishLocally(call, now());
  try {
    try {
      await client.stopBatch(call.batchId!);
    } catch (error) {
      // 404 "Batch is not queued or running": never scheduled (a schedule refused or never taken), or already over.
      if (describe(error).status !== 404) throw error;
      if (call.step === 'scheduling' && (await client.getBatch(call.batchId!)).status === 'created') return finishLocally(call, now());
    }
  } catch (error) {
    // Not stopped yet: the flag stays, and the next step tries again (after a backoff, or a Retry if paused).
    return { call: pollFailed(call, describe(error), now()), changed: [] };
  }
  const step = call.step === 'scheduling' ? 'finding-execution' : call.step;
  return { call: { ...succeeded(call), step, stopSent: true, failure: null, trackingPaused: false, nextPollAt: now() }, changed: [] };
}

/** Stop: flag the call and perform the stop now (the shell does the two apart, to store the flag first). */
export async function stopCall(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  return advanceCall(requestStop(call, now()), client, describe, now);
}

/** Retry after a failed step or a paused tracker: continue from where it stopped. */
export function retryCall(call: CallRecord, now: number): CallRecord {
  if (call.step === 'finished') return call;
  return { ...call, failure: null, trackingPaused: false, consecutiveFailures: 0, failingSince: null, lastError: null, serviceWait: null, nextPollAt: now };
}
