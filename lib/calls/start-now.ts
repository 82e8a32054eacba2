/**
 * Dialling at once with the live `POST /call`, where the service offers it (the "Start calls now"
 * setting): one request places the call and answers its execution id, then the tracker follows that
 * execution directly (no batch steps). Where the route is missing (404/405: the client remembers it
 * per base URL) the call goes out as the single-call batch instead (dial.ts), and says so (`via`).
 *
 * The same guarantees as the batch: a try is counted before `POST /call` is sent, so after a lost
 * answer the next try looks first. The service has no name to find a call by, so it looks for what
 * only this call could have made: an execution of this agent, to this number, in no batch, created
 * since the call was stored (on the service's clock, with a margin), the earliest of them.
 * Stop: `POST /call/{id}/stop`, which the live service honours only while the call is queued or
 * scheduled; a refusal is kept on the record (`stopRefused`) and the call is followed to its end.
 */
import { isRouteMissing } from '../api/errors';
import type { Execution } from '../api/schemas/execution';
import type { CallRecord } from './call-record';
import { finishLocally, pollExecution, pollFailed, succeeded, writeFailed, type AdvanceResult, type DescribeError } from './steps';

/** The slice of the API client an immediate call needs (lib/api/client.ts provides it). */
export interface StartNowClient {
  startCall(request: {
    agent_id: string;
    recipient_phone_number: string;
    from_phone_number?: string;
    user_data?: Record<string, string>;
  }): Promise<{ execution_id: string }>;
  stopCall(executionId: string): Promise<unknown>;
  /** False once the service is known to lack `POST /call` (remembered per base URL). */
  offersStartCall?(): Promise<boolean | undefined>;
  listAgentExecutions(agentId: string, query?: { from?: string | Date; to?: string | Date; page_size?: number }): Promise<{ data: Execution[] }>;
  getExecution(executionId: string): Promise<Execution>;
  clockOffset?(): number | undefined;
}

/** Clocks disagree and the service stamps a call when it takes it: look this much around the call's own times. */
export const LOOKUP_MARGIN_MS = 2 * 60_000;

/** The call goes out as a single-call batch after all (the service has no `POST /call`). */
export function toBatch(call: CallRecord, now: number): AdvanceResult {
  return { call: { ...succeeded(call), via: 'batch', step: 'creating-batch', failure: null, nextPollAt: now }, changed: [] };
}

/**
 * The execution an earlier `POST /call` of this call made, if any: this agent, this number, no batch,
 * created since the call was stored. The earliest wins (a later one would be another call's).
 */
export async function findStarted(call: CallRecord, client: StartNowClient, now: number): Promise<Execution | undefined> {
  const offset = client.clockOffset?.() ?? call.clockOffset;
  const since = call.createdAt + offset - LOOKUP_MARGIN_MS;
  const page = await client.listAgentExecutions(call.agentId, {
    from: new Date(since),
    to: new Date(now + offset + LOOKUP_MARGIN_MS),
    page_size: 50,
  });
  const created = (e: Execution) => (e.created_at ? Date.parse(e.created_at) : Number.NaN);
  return page.data
    .filter((e) => !e.batch_id && e.telephony_data?.to_number === call.toNumber && created(e) >= since)
    .sort((a, b) => created(a) - created(b))[0];
}

/** `POST /call` (after looking for an earlier try's call), then the first read of its execution. */
export async function startStep(call: CallRecord, client: StartNowClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  try {
    if ((await client.offersStartCall?.()) === false) return toBatch(call, now());
    let executionId: string | undefined;
    if (call.startAttempts > 1) executionId = (await findStarted(call, client, now()))?.id;
    if (!executionId) {
      const started = await client.startCall({
        agent_id: call.agentId,
        recipient_phone_number: call.toNumber,
        ...(call.fromNumber ? { from_phone_number: call.fromNumber } : {}),
        ...(Object.keys(call.variables).length ? { user_data: call.variables } : {}),
      });
      executionId = started.execution_id;
    }
    return pollExecution({ ...succeeded(call), step: 'tracking', executionId, nextPollAt: now() }, client, describe, now);
  } catch (error) {
    // A service without the route made no call: place the batch instead.
    if (isRouteMissing(error)) return toBatch(call, now());
    return { call: writeFailed(call, 'starting-call', describe(error), now()), changed: [] };
  }
}

/**
 * A Stop of an immediate call. Never sent: ends here. Sent with no answer: look for the call first.
 * Then `POST /call/{id}/stop` and follow the execution until the service says it is over.
 */
export async function stopStartedStep(call: CallRecord, client: StartNowClient, describe: DescribeError, now: () => number): Promise<AdvanceResult> {
  let executionId = call.executionId;
  if (!executionId) {
    if (call.startAttempts === 0) return finishLocally(call, now());
    try {
      executionId = (await findStarted(call, client, now()))?.id ?? null;
    } catch (error) {
      return { call: pollFailed(call, describe(error), now()), changed: [] };
    }
    if (!executionId) return finishLocally(call, now());
  }
  const following: CallRecord = { ...call, step: 'tracking', executionId };
  let stopRefused: string | null = null;
  try {
    await client.stopCall(executionId);
  } catch (error) {
    const described = describe(error);
    // Not stopped yet for a passing reason: the flag stays and the next step tries again.
    if (described.transient) return { call: pollFailed(following, described, now()), changed: [] };
    // The service will not stop it (under way, or already over): say why, and follow it to its end.
    stopRefused = described.message;
  }
  return {
    call: { ...succeeded(following), stopSent: true, stopRefused, failure: null, trackingPaused: false, nextPollAt: now() },
    changed: [],
  };
}
