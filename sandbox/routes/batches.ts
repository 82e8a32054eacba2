/**
 * Batches, in both forms. Common: create (multipart), read, executions (bare array), stop, delete.
 * Spec only: `POST /batches/schedule` (batch_id in the body), `GET /batches/:agent_id` (an agent's
 * batches, sharing its shape with `GET /batches/:batch_id`), `GET /batch/:batch_id/executions`.
 * Live only: `POST /batches/:batch_id/schedule`, `GET /batches/:agent_id/all`,
 * `GET /v2/batches/:batch_id/executions` (paged).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { actionAck, batch as batchSchema, batchCreated, batchList, executionList, executionPage, normalizeExecutionStatus } from '../../lib/api/schemas';
import { readFields, type Fields } from '../body';
import { EMPTY_RESULT, outcomeFor } from '../calls';
import { csvRecords } from '../csv';
import { scheduleBatch, stopBatch } from '../engine';
import { ApiError, badRequest, required, routeNotFound, unprocessable } from '../errors';
import { NEXT, route, type RouteCtx, type RouteDef } from '../router';
import type { Account, BatchRec, ExecRec } from '../store';
import { checkScheduledAt } from '../time';
import { batchWire, executionSummaryWire, executionWire } from '../wire';
import { E164, ack, getAgent, getBatch, intQuery, isHttpUrl, newestFirst, ownedFromNumbers, page, providerOf } from './util';

function fromNumbers(account: Account, fields: Fields): string[] {
  const given = [...fields.texts('from_phone_numbers'), ...fields.texts('from_phone_number')].flatMap((value) => {
    const text = value.trim();
    // Some clients send the list as one JSON array field.
    if (text.startsWith('[')) {
      try {
        const list: unknown = JSON.parse(text);
        if (Array.isArray(list)) return list.map(String);
      } catch {
        throw badRequest('from_phone_numbers must be phone numbers or a JSON array of them');
      }
    }
    return text ? [text] : [];
  });
  return ownedFromNumbers(account, given);
}

async function createBatch(ctx: RouteCtx) {
  const { account } = ctx;
  const fields = await readFields(ctx.c);
  const agentId = fields.text('agent_id')?.trim();
  if (!agentId) throw required('agent_id');
  const file = fields.file('file');
  if (!file) throw required('file');
  const agent = getAgent(account, agentId);
  const { header, records } = csvRecords(await file.text());
  if (!header.includes('contact_number')) throw badRequest('the CSV header must have a contact_number column');
  if (records.length === 0) throw badRequest('the CSV has no contacts');
  records.forEach((row, i) => {
    if (!E164.test(row.contact_number ?? '')) {
      throw unprocessable(`contact_number '${row.contact_number ?? ''}' on line ${i + 2} is not an E.164 phone number`);
    }
  });
  const from = fromNumbers(account, fields);
  let retryConfig: Record<string, unknown> | null = null;
  const retryText = fields.text('retry_config');
  if (retryText !== undefined && retryText.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(retryText);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      retryConfig = parsed as Record<string, unknown>;
    } catch {
      throw badRequest('retry_config must be a JSON object');
    }
  }
  const webhookUrl = fields.text('webhook_url')?.trim() || null;
  if (webhookUrl && !isHttpUrl(webhookUrl)) throw badRequest('webhook_url must be a valid http(s) URL');

  const now = new Date().toISOString();
  const batchId = randomBytes(16).toString('hex');
  const execs: ExecRec[] = records.map((row, i) => {
    const { contact_number, ...recipientData } = row;
    const fromNumber = from[i % from.length]!;
    return {
      id: randomUUID(),
      agent_id: agent.id,
      batch_id: batchId,
      status: 'prepared',
      outcome: outcomeFor(contact_number!, { walletEmpty: account.wallet <= 0 }),
      created_at: now,
      updated_at: now,
      to_number: contact_number!,
      from_number: fromNumber,
      provider: providerOf(account, fromNumber),
      provider_call_id: null,
      recipient_data: recipientData,
      retried: 0,
      answered_at_ms: null,
      ...EMPTY_RESULT,
    };
  });
  for (const exec of execs) account.executions.set(exec.id, exec);
  const batch: BatchRec = {
    batch_id: batchId,
    agent_id: agent.id,
    status: 'created',
    scheduled_at: null,
    created_at: now,
    updated_at: now,
    file_name: file.name || 'contacts.csv',
    valid_contacts: records.length,
    total_contacts: records.length,
    from_phone_numbers: from,
    webhook_url: webhookUrl,
    retry_config: retryConfig,
    bypass_call_guardrails: false,
    execution_ids: execs.map((e) => e.id),
  };
  account.batches.set(batchId, batch);
  return batch;
}

function parseBool(name: string, text: string | undefined): boolean | undefined {
  if (text === undefined || text === '') return undefined;
  if (/^(true|1|yes)$/i.test(text)) return true;
  if (/^(false|0|no)$/i.test(text)) return false;
  throw badRequest(`${name} must be true or false`);
}

function schedule(ctx: RouteCtx, batchId: string, fields: Fields) {
  const scheduledAt = fields.text('scheduled_at')?.trim();
  if (!scheduledAt) throw required('scheduled_at');
  const batch = getBatch(ctx.account, batchId);
  const bypass = parseBool('bypass_call_guardrails', fields.text('bypass_call_guardrails'));
  // Real clock, whatever the speed: the client must learn the real 2-minute rule.
  const at = checkScheduledAt(scheduledAt);
  if (at instanceof ApiError) throw at;
  if (batch.status !== 'created' && batch.status !== 'scheduled') {
    throw badRequest(`batch is ${batch.status} and can no longer be scheduled`);
  }
  if (bypass !== undefined) batch.bypass_call_guardrails = bypass;
  scheduleBatch(ctx.rt, ctx.account, batch, at, scheduledAt);
  return { body: ack('scheduled') };
}

const batchExecutions = (account: Account, batch: BatchRec) =>
  batch.execution_ids.map((id) => account.executions.get(id)).filter((e): e is ExecRec => !!e);

const agentBatches = (account: Account, agentId: string) =>
  [...account.batches.values()].filter((b) => b.agent_id === agentId).sort(newestFirst).map((b) => batchWire(account, b));

export const batchRoutes: RouteDef[] = [
  route('POST', '/batches', { schema: batchCreated }, async (ctx) => {
    const batch = await createBatch(ctx);
    return { status: 201, body: { batch_id: batch.batch_id, state: 'created' } };
  }),
  route('POST', '/batches/schedule', { form: 'spec', schema: actionAck }, async (ctx) => {
    const fields = await readFields(ctx.c);
    const batchId = fields.text('batch_id')?.trim();
    if (!batchId) throw required('batch_id');
    return schedule(ctx, batchId, fields);
  }),
  route('POST', '/batches/:batch_id/schedule', { form: 'live', schema: actionAck }, async (ctx) =>
    schedule(ctx, ctx.params.batch_id!, await readFields(ctx.c)),
  ),
  route('POST', '/batches/:batch_id/stop', { schema: actionAck }, ({ rt, account, params }) => {
    const batch = getBatch(account, params.batch_id!);
    if (batch.status !== 'scheduled' && batch.status !== 'running') throw new ApiError(404, 'Batch is not queued or running');
    stopBatch(rt, account, batch);
    return { body: ack('stopped') };
  }),
  // Spec: the same shape as GET /batches/:batch_id; an agent id of the account lists its batches.
  route('GET', '/batches/:agent_id', { form: 'spec', schema: batchList }, ({ account, params }) =>
    account.agents.has(params.agent_id!) ? { body: agentBatches(account, params.agent_id!) } : NEXT,
  ),
  route('GET', '/batches/:batch_id', { schema: batchSchema }, ({ rt, account, params }) => {
    const batch = account.batches.get(params.batch_id!);
    if (batch) return { body: batchWire(account, batch) };
    // Live has no "batches of an agent" at this path: answer as a missing route so a client
    // speaking the spec's form learns to fall back to /batches/{agent_id}/all.
    if (rt.options.routes === 'live' && account.agents.has(params.batch_id!)) throw routeNotFound();
    return { body: batchWire(account, getBatch(account, params.batch_id!)) };
  }),
  route('GET', '/batches/:agent_id/all', { form: 'live', schema: batchList }, ({ account, params }) => {
    getAgent(account, params.agent_id!);
    return { body: agentBatches(account, params.agent_id!) };
  }),
  route('GET', '/batches/:batch_id/executions', { schema: executionList }, ({ account, params }) => ({
    body: batchExecutions(account, getBatch(account, params.batch_id!)).map(executionSummaryWire),
  })),
  route('DELETE', '/batches/:batch_id', { schema: actionAck }, ({ rt, account, params }) => {
    const batch = getBatch(account, params.batch_id!);
    // Deleting a live batch stops its calls first; the executions stay readable.
    if (batch.status === 'scheduled' || batch.status === 'running') stopBatch(rt, account, batch);
    batch.cancelStart?.();
    account.batches.delete(batch.batch_id);
    return { body: ack('deleted') };
  }),
  route('GET', '/v2/batches/:batch_id/executions', { form: 'live', schema: executionPage }, ({ account, params, url }) => {
    const batch = getBatch(account, params.batch_id!);
    const pageNumber = intQuery(url, 'page_number', { min: 1, fallback: 1 });
    const pageSize = intQuery(url, 'page_size', { min: 1, max: 50, fallback: 20 });
    const statuses = url.searchParams.get('status')?.split(',').map((s) => normalizeExecutionStatus(s)).filter(Boolean);
    const items = batchExecutions(account, batch).filter((e) => !statuses?.length || statuses.includes(e.status));
    return { body: page(items.map(executionSummaryWire), pageNumber, pageSize) };
  }),
  route('GET', '/batch/:batch_id/executions', { form: 'spec', schema: executionList }, ({ rt, account, params }) => ({
    body: batchExecutions(account, getBatch(account, params.batch_id!)).map((e) => executionWire(rt, e)),
  })),
];
