/**
 * A placement by the live `POST /call` (the "Start calls now" setting): one request places the call and
 * answers its execution id, then the execution is followed directly. Where the route is missing
 * (404/405: remembered per base URL) the placement goes out as a batch instead, and says so (`via`).
 *
 * The request carries the placement's id in `user_data` (PLACEMENT_ID_VARIABLE), which the service
 * keeps as `context_details.recipient_data`. A try is counted before it is sent, so after a lost answer
 * the next try looks first: among this agent's executions to this number, in no batch, made since the
 * placement was stored, and owned by no other record, the one whose full record carries this id is
 * ours. One that does not say (a service that drops `user_data`) is never adopted: the placement stops
 * with the reason instead of guessing, and nothing is sent again.
 * Stop: `POST /call/{id}/stop`, which the live service honours only while the call is queued or
 * scheduled; a refusal is kept (`stopRefused`) and the call is followed to its end.
 */
import { isRouteMissing } from '../api/errors';
import type { Execution } from '../api/schemas/execution';
import { t } from '../i18n';
import type { PlacementClient } from './client';
import { finishLocally, pollExecution, stopNotConfirmed, succeeded, writeFailed, type StepEnv, type StepResult } from './outcome';
import { rowVariables } from './row-variables';
import { PLACEMENT_ID_VARIABLE, type PlacementState, type PlacementSpec } from './state';

type CallSpec = Extract<PlacementSpec, { via: 'call' }>;

/** Clocks disagree and the service stamps a call when it takes it: look this much around the placement's own times. */
export const LOOKUP_MARGIN_MS = 2 * 60_000;

/**
 * Pages of the agent's executions a lookup reads at most (50 each, newest first). Past them it cannot
 * say the call is not there, so it says it cannot tell rather than send again (why: an agent busy with
 * a plan run makes hundreds of calls in the lookup's window, and one page missed ours).
 */
export const LOOKUP_MAX_PAGES = 10;

/** What a lookup after a lost answer found: our execution, or none; `unsure` when a candidate could not be told apart. */
export interface StartedLookup {
  execution?: Execution;
  unsure: boolean;
}

/** The placement goes out as a batch after all (the service has no `POST /call`). */
export function toBatch<P extends PlacementState>(call: P, now: number): StepResult<P> {
  return { call: { ...succeeded(call), via: 'batch', step: 'creating-batch', failure: null, nextPollAt: now }, changed: [] };
}

/**
 * The execution an earlier `POST /call` of this placement made, if any: by the placement's id in the
 * execution's own record. Executions another record owns are never candidates.
 */
export async function findStarted(
  call: PlacementState,
  spec: CallSpec,
  client: PlacementClient,
  now: number,
  owned: ReadonlySet<string> = new Set(),
): Promise<StartedLookup> {
  const offset = client.clockOffset?.() ?? call.clockOffset;
  // In the service's time: since our record was made, its clock moved `timeScale` times as far as ours
  // (the sandbox may run fast; read as our time, the window would start after the call it looks for).
  const serviceNow = now + offset;
  const since = serviceNow - (now - call.createdAt) * (client.timeScale?.() ?? 1) - LOOKUP_MARGIN_MS;
  const listed: Execution[] = [];
  let unsure = false;
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await client.listAgentExecutions(call.agentId, {
      from: new Date(since),
      to: new Date(serviceNow + LOOKUP_MARGIN_MS),
      page_size: 50,
      page_number: pageNumber,
    });
    listed.push(...page.data);
    if (!page.has_more || page.data.length === 0) break;
    if (pageNumber >= LOOKUP_MAX_PAGES) {
      unsure = true;
      break;
    }
  }
  const created = (e: Execution) => (e.created_at ? Date.parse(e.created_at) : Number.NaN);
  const candidates = listed
    .filter((e) => !e.batch_id && !owned.has(e.id) && e.telephony_data?.to_number === spec.toNumber && !(created(e) < since))
    .sort((a, b) => created(a) - created(b));
  for (const candidate of candidates) {
    // The list answers a trimmed record: the id travels in the full one.
    const full = await client.getExecution(candidate.id);
    const tagged = rowVariables(full)[PLACEMENT_ID_VARIABLE];
    if (tagged === call.id) return { execution: full, unsure: false };
    if (tagged === undefined) unsure = true;
  }
  return { unsure };
}

/** The lookup could not tell which call is this placement's: nothing is sent again, and the user is told why. */
function cannotTell<P extends PlacementState>(call: P, now: number): StepResult<P> {
  const message = t('calls_lostAnswerUnsure');
  return {
    call: { ...call, failure: { step: 'starting-call', message, at: now }, lastError: message, nextPollAt: null, serviceWait: null },
    changed: [],
  };
}

/** `POST /call` (after looking for an earlier try's call), then the first read of its execution. */
export async function startStep<P extends PlacementState>(call: P, spec: CallSpec, { client, describe, now, owned }: StepEnv): Promise<StepResult<P>> {
  try {
    if ((await client.offersStartCall?.()) === false) return toBatch(call, now());
    let executionId: string | undefined;
    if (call.startAttempts > 1) {
      const lookup = await findStarted(call, spec, client, now(), owned);
      if (!lookup.execution && lookup.unsure) return cannotTell(call, now());
      executionId = lookup.execution?.id;
    }
    if (!executionId) {
      const started = await client.startCall({
        agent_id: call.agentId,
        recipient_phone_number: spec.toNumber,
        ...(spec.fromNumber ? { from_phone_number: spec.fromNumber } : {}),
        user_data: { ...spec.variables, [PLACEMENT_ID_VARIABLE]: call.id },
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
 * A Stop of an immediate call. Never sent: ends here. Sent with no answer: look for the call first
 * (by its id; a lookup that cannot tell says so and keeps the stop pending for a Retry).
 * Then `POST /call/{id}/stop` and follow the execution until the service says it is over.
 */
export async function stopStartedStep<P extends PlacementState>(call: P, spec: CallSpec, { client, describe, now, owned }: StepEnv): Promise<StepResult<P>> {
  let executionId = call.executionId;
  if (!executionId) {
    if (call.startAttempts === 0) return finishLocally(call, now());
    let lookup: StartedLookup;
    try {
      lookup = await findStarted(call, spec, client, now(), owned);
    } catch (error) {
      return { call: stopNotConfirmed(call, describe(error), now()), changed: [] };
    }
    if (!lookup.execution && lookup.unsure) {
      const message = t('calls_lostAnswerUnsure');
      return { call: { ...call, trackingPaused: true, lastError: message, nextPollAt: null }, changed: [] };
    }
    if (!lookup.execution) return finishLocally(call, now());
    executionId = lookup.execution.id;
  }
  const following: P = { ...call, step: 'tracking', executionId };
  let stopRefused: string | null = null;
  try {
    await client.stopCall(executionId);
  } catch (error) {
    const described = describe(error);
    // Not stopped yet for a passing reason: the flag stays and the next step tries again.
    if (described.transient) return { call: stopNotConfirmed(following, described, now()), changed: [] };
    // The service will not stop it (under way, or already over): say why, and follow it to its end.
    stopRefused = described.message;
  }
  return {
    call: { ...succeeded(following), stopSent: true, stopRefused, failure: null, trackingPaused: false, nextPollAt: now() },
    changed: [],
  };
}
