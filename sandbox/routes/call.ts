/**
 * Immediate calls, live form only (the spec has no such route; in `spec` mode these answer the route
 * 404, like a service without them): `POST /call` dials one number at once, `POST /call/:id/stop`
 * stops it while it is still queued or scheduled. Outcomes by dialled number are those of batch
 * rows (calls.ts), walked by the same engine.
 */
import { randomUUID } from 'node:crypto';
import { callStarted, callStartRequest, callStopped } from '../../lib/api/schemas';
import { readJsonObject } from '../body';
import { EMPTY_RESULT, outcomeFor } from '../calls';
import { startExecution, stopExecution } from '../engine';
import { ApiError, badRequest, required, unprocessable } from '../errors';
import { route, type RouteDef } from '../router';
import type { ExecRec } from '../store';
import { E164, getAgent, getExecution, ownedFromNumbers, providerOf, zodMessage } from './util';

/** The request shape of lib/api, read leniently: the live service takes more fields than the client sends. */
const startBody = callStartRequest.loose();

/** Statuses from which the live service still stops an immediate call. */
const STOPPABLE = new Set(['queued', 'scheduled']);

export const callRoutes: RouteDef[] = [
  route('POST', '/call', { form: 'live', schema: callStarted }, async ({ c, rt, account }) => {
    const raw = await readJsonObject(c);
    if (typeof raw.agent_id !== 'string' || !raw.agent_id.trim()) throw required('agent_id');
    if (typeof raw.recipient_phone_number !== 'string' || !raw.recipient_phone_number.trim()) throw required('recipient_phone_number');
    if (!E164.test(raw.recipient_phone_number)) {
      throw unprocessable(`recipient_phone_number '${raw.recipient_phone_number}' is not an E.164 phone number`);
    }
    const parsed = startBody.safeParse(raw);
    if (!parsed.success) throw badRequest(zodMessage(parsed.error));
    const body = parsed.data;
    const agent = getAgent(account, body.agent_id);
    const [fromNumber] = ownedFromNumbers(account, body.from_phone_number ? [body.from_phone_number] : []);
    const now = new Date().toISOString();
    const exec: ExecRec = {
      id: randomUUID(),
      agent_id: agent.id,
      batch_id: null,
      // Enters queued through the engine, so the change is logged and sent to the webhook like any other.
      status: 'prepared',
      outcome: outcomeFor(body.recipient_phone_number, { walletEmpty: account.wallet <= 0 }),
      created_at: now,
      updated_at: now,
      to_number: body.recipient_phone_number,
      from_number: fromNumber!,
      provider: providerOf(account, fromNumber!),
      provider_call_id: null,
      recipient_data: body.user_data ?? {},
      retried: 0,
      answered_at_ms: null,
      ...EMPTY_RESULT,
    };
    account.executions.set(exec.id, exec);
    startExecution(rt, account, exec);
    return { body: { message: 'done', status: 'queued', execution_id: exec.id } };
  }),
  route('POST', '/call/:execution_id/stop', { form: 'live', schema: callStopped }, ({ rt, account, params }) => {
    const exec = getExecution(account, params.execution_id!);
    if (!STOPPABLE.has(exec.status)) throw new ApiError(400, `Call is ${exec.status}: only a queued or scheduled call can be stopped`);
    stopExecution(rt, account, exec);
    return { body: { message: 'done', status: 'stopped', execution_id: exec.id } };
  }),
];
