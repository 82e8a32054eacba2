/**
 * A single call: a placement of one number (lib/placement/engine.ts) — a single-call batch (one CSV
 * row, named for the call) or, with "Start calls now", `POST /call` — then its one execution followed
 * at the tracker's pace. This module says what the call asks of the service (its spec) and how it is
 * followed; every rule of placing, looking up after lost answers and stopping is the engine's.
 */
import type { Execution } from '../api/schemas/execution';
import type { PlacementClient } from '../placement/client';
import { advancePlacement, markAttempt, requestStop, retryPlacement } from '../placement/engine';
import { pollExecution, pollFailed, succeeded, writeFailed, type DescribeError, type StepResult } from '../placement/outcome';
import { newPlacementState, type PlacementSpec } from '../placement/state';
import { nextPollDelay } from '../placement/tracker';
import type { CallRecord, CallVia } from './call-record';
import { singleCallCsv } from './csv';

export { WRITE_TRIES, writeFailed, type DescribeError, type StepError } from '../placement/outcome';
export { markAttempt, requestStop };

/** The slice of the API client dialling needs (lib/api/client.ts provides it). */
export type DialClient = PlacementClient;
export type AdvanceResult = StepResult<CallRecord>;

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
  return { ...newPlacementState(input, now), ...input, via: input.via ?? 'batch', notified: false };
}

/** What the call asks the service to dial. */
export function callSpec(call: CallRecord): PlacementSpec {
  const batch = { via: 'batch' as const, csv: singleCallCsv(call.toNumber, call.variables), fileName: batchFileName(call.id), fromNumber: call.fromNumber };
  return call.via === 'call' ? { via: 'call', toNumber: call.toNumber, fromNumber: call.fromNumber, variables: call.variables, fallback: batch } : batch;
}

/**
 * Performs the call's current step once. Never throws: failures are written on the record.
 * `owned`: executions other calls own (a lookup after a lost answer never takes one of them).
 */
export async function advanceCall(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number, owned?: ReadonlySet<string>): Promise<AdvanceResult> {
  let spec: PlacementSpec;
  try {
    spec = callSpec(call);
  } catch (error) {
    // Variables the CSV cannot carry (checked when dialling; kept here for records from elsewhere).
    return { call: writeFailed(call, call.step, { message: (error as Error).message, transient: false }, now()), changed: [] };
  }
  return advancePlacement(call, spec, { client, describe, now, owned, follow: (c) => followCall(c, client, describe, now) });
}

/** Following one call: find its execution through the batch, then read it at the tracker's pace. */
function followCall(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  return call.step === 'finding-execution' ? findExecution(call, client, describe, now) : pollExecution(call, client, describe, now);
}

/** Before the first status comes from the execution itself, look it up through the batch's executions. */
async function findExecution(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  try {
    const executions: Execution[] = await client.listBatchExecutions(call.batchId!);
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

/** Stop: flag the call and perform the stop now (the shell does the two apart, to store the flag first). */
export async function stopCall(call: CallRecord, client: DialClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  return advanceCall(requestStop(call, now()), client, describe, now);
}

/** Retry after a failed step or a paused tracker: continue from where it stopped. */
export const retryCall = (call: CallRecord, now: number): CallRecord => retryPlacement(call, now);
