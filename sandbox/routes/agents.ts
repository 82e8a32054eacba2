/**
 * Agents: the spec's deprecated `/agent` routes and the v2 routes (the live service's list,
 * read, replace, patch and delete). Bodies are validated leniently with the read schemas: the
 * service keeps keys it does not know, so a stricter sandbox would refuse what live accepts.
 */
import { randomUUID } from 'node:crypto';
import {
  actionAck,
  agent as agentSchema,
  agentConfig,
  agentCreated,
  agentList,
  agentPrompts,
  agentUpdated,
  executionList,
  executionPage,
  ingestSourceConfig,
  normalizeExecutionStatus,
  synthesizerConfig,
} from '../../lib/api/schemas';
import { readJsonObject } from '../body';
import { badRequest, required } from '../errors';
import { route, type RouteCtx, type RouteDef } from '../router';
import type { Account, AgentRec } from '../store';
import { agentWire, executionSummaryWire, executionWire } from '../wire';
import { ack, getAgent, intQuery, isHttpUrl, isObject, newestFirst, page, zodMessage } from './util';

const KNOWN_CONFIG_KEYS = new Set(['agent_name', 'agent_welcome_message', 'webhook_url', 'agent_type', 'tasks']);

interface ValidBody {
  config: Record<string, unknown>;
  prompts: Record<string, { system_prompt: string }> | undefined;
}

function validateFullBody(body: Record<string, unknown>, promptsRequired: boolean): ValidBody {
  if (body.agent_config === undefined) throw required('agent_config');
  if (!isObject(body.agent_config)) throw badRequest('agent_config must be an object');
  if (promptsRequired && body.agent_prompts === undefined) throw required('agent_prompts');
  const name = body.agent_config.agent_name;
  if (typeof name !== 'string' || !name.trim()) throw required('agent_name');
  const config = agentConfig.safeParse(body.agent_config);
  if (!config.success) throw badRequest(zodMessage(config.error, 'agent_config'));
  let prompts: ValidBody['prompts'];
  if (body.agent_prompts !== undefined) {
    const parsed = agentPrompts.safeParse(body.agent_prompts);
    if (!parsed.success) throw badRequest(zodMessage(parsed.error, 'agent_prompts'));
    prompts = Object.fromEntries(Object.entries(parsed.data).map(([k, v]) => [k, { system_prompt: v.system_prompt }]));
  }
  return { config: body.agent_config, prompts };
}

/** Builds the record from a full config; a PUT passes the old record to keep id and creation time. */
function agentFromConfig({ config, prompts }: ValidBody, previous?: AgentRec): AgentRec {
  const now = new Date().toISOString();
  const extra = Object.fromEntries(Object.entries(config).filter(([k]) => !KNOWN_CONFIG_KEYS.has(k)));
  return {
    id: previous?.id ?? randomUUID(),
    agent_name: String(config.agent_name).trim(),
    agent_type: typeof config.agent_type === 'string' ? config.agent_type : 'other',
    agent_status: previous?.agent_status ?? 'seeding',
    agent_welcome_message: typeof config.agent_welcome_message === 'string' ? config.agent_welcome_message : null,
    webhook_url: typeof config.webhook_url === 'string' ? config.webhook_url : null,
    tasks: Array.isArray(config.tasks) ? config.tasks : [],
    agent_prompts: prompts ?? {},
    ingest_source_config: null,
    extra,
    created_at: previous?.created_at ?? now,
    updated_at: now,
  };
}

async function createAgent(ctx: RouteCtx): Promise<AgentRec> {
  const body = validateFullBody(await readBody(ctx), false);
  const agent = agentFromConfig(body);
  ctx.account.agents.set(agent.id, agent);
  // Live agents show `seeding` for a moment after creation, then `processed`.
  ctx.rt.timers.after(ctx.rt.scaled(2000), () => {
    agent.agent_status = 'processed';
  });
  return agent;
}

const readBody = (ctx: RouteCtx) => readJsonObject(ctx.c);

async function replaceAgent(ctx: RouteCtx): Promise<AgentRec> {
  const previous = getAgent(ctx.account, ctx.params.agent_id!);
  const body = validateFullBody(await readBody(ctx), true);
  // A PUT replaces the whole config: anything left out is dropped (live behaviour).
  const agent = agentFromConfig(body, previous);
  ctx.account.agents.set(agent.id, agent);
  return agent;
}

async function patchAgent(ctx: RouteCtx): Promise<void> {
  const agent = getAgent(ctx.account, ctx.params.agent_id!);
  const body = await readBody(ctx);
  const cfg = body.agent_config;
  if (cfg !== undefined && !isObject(cfg)) throw badRequest('agent_config must be an object');
  if (cfg === undefined && body.agent_prompts === undefined) throw badRequest('agent_config or agent_prompts is required');
  if (cfg) {
    if (cfg.agent_name !== undefined && (typeof cfg.agent_name !== 'string' || !cfg.agent_name.trim())) {
      throw badRequest('agent_config.agent_name must be a non-empty string');
    }
    if (cfg.agent_welcome_message !== undefined && typeof cfg.agent_welcome_message !== 'string') {
      throw badRequest('agent_config.agent_welcome_message must be a string');
    }
    if (cfg.webhook_url !== undefined && cfg.webhook_url !== null && (typeof cfg.webhook_url !== 'string' || !isHttpUrl(cfg.webhook_url))) {
      throw badRequest('agent_config.webhook_url must be a URL or null');
    }
    let synthesizer: unknown;
    if (cfg.synthesizer !== undefined) {
      const parsed = synthesizerConfig.safeParse(cfg.synthesizer);
      if (!parsed.success) throw badRequest(zodMessage(parsed.error, 'agent_config.synthesizer'));
      synthesizer = cfg.synthesizer;
    }
    let ingest: Record<string, unknown> | undefined;
    if (cfg.ingest_source_config !== undefined) {
      const parsed = ingestSourceConfig.safeParse(cfg.ingest_source_config);
      if (!parsed.success) throw badRequest(zodMessage(parsed.error, 'agent_config.ingest_source_config'));
      // The source token is a secret: stored, never echoed back.
      const { source_auth_token: _secret, ...visible } = cfg.ingest_source_config as Record<string, unknown>;
      ingest = visible;
    }
    if (typeof cfg.agent_name === 'string') agent.agent_name = cfg.agent_name.trim();
    if (typeof cfg.agent_welcome_message === 'string') agent.agent_welcome_message = cfg.agent_welcome_message;
    if (cfg.webhook_url !== undefined) agent.webhook_url = (cfg.webhook_url as string | null) ?? null;
    if (synthesizer !== undefined) {
      for (const task of agent.tasks) {
        if (isObject(task) && isObject(task.tools_config)) task.tools_config.synthesizer = synthesizer;
      }
    }
    if (ingest) agent.ingest_source_config = ingest;
  }
  if (body.agent_prompts !== undefined) {
    const parsed = agentPrompts.safeParse(body.agent_prompts);
    if (!parsed.success) throw badRequest(zodMessage(parsed.error, 'agent_prompts'));
    for (const [key, value] of Object.entries(parsed.data)) agent.agent_prompts[key] = { system_prompt: value.system_prompt };
  }
  agent.updated_at = new Date().toISOString();
}

function deleteAgent(account: Account, id: string): void {
  getAgent(account, id);
  account.agents.delete(id);
  for (const phone of account.phoneNumbers.values()) if (phone.agent_id === id) phone.agent_id = null;
}

const agentExecutions = (account: Account, agentId: string) =>
  [...account.executions.values()].filter((e) => e.agent_id === agentId).sort(newestFirst);

function parseInstant(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw badRequest(`${name} must be an ISO 8601 timestamp, got '${raw}'`);
  return ms;
}

export const agentRoutes: RouteDef[] = [
  route('GET', '/v2/agent/all', { schema: agentList }, ({ account }) => ({
    body: [...account.agents.values()].sort(newestFirst).map(agentWire),
  })),
  route('POST', '/v2/agent', { schema: agentCreated }, async (ctx) => {
    const agent = await createAgent(ctx);
    return { status: 201, body: { agent_id: agent.id, state: 'created' } };
  }),
  route('GET', '/v2/agent/:agent_id', { schema: agentSchema }, ({ account, params }) => ({
    body: agentWire(getAgent(account, params.agent_id!)),
  })),
  route('PUT', '/v2/agent/:agent_id', { schema: agentUpdated }, async (ctx) => {
    const agent = await replaceAgent(ctx);
    return { body: { agent_id: agent.id, message: 'success', state: 'updated' } };
  }),
  route('PATCH', '/v2/agent/:agent_id', { schema: agentUpdated }, async (ctx) => {
    await patchAgent(ctx);
    return { body: ack('updated') };
  }),
  route('DELETE', '/v2/agent/:agent_id', { schema: actionAck }, ({ account, params }) => {
    deleteAgent(account, params.agent_id!);
    return { body: ack('deleted') };
  }),
  route('GET', '/v2/agent/:agent_id/executions', { schema: executionPage }, ({ account, params, url }) => {
    getAgent(account, params.agent_id!);
    const pageNumber = intQuery(url, 'page_number', { min: 1, fallback: 1 });
    const pageSize = intQuery(url, 'page_size', { min: 1, max: 50, fallback: 20 });
    const from = parseInstant(url, 'from');
    const to = parseInstant(url, 'to');
    // Live, the window is at most 7 days; a `from` without `to` runs to now and is held to the same rule.
    const end = to ?? (from !== undefined ? Date.now() : undefined);
    if (from !== undefined && end !== undefined) {
      if (end < from) throw badRequest('to must not be before from');
      if (end - from > 7 * 86_400_000) throw badRequest('from and to must be at most 7 days apart');
    }
    const statuses = url.searchParams.get('status')?.split(',').map((s) => normalizeExecutionStatus(s)).filter(Boolean);
    const batchId = url.searchParams.get('batch_id');
    const items = agentExecutions(account, params.agent_id!).filter((e) => {
      const at = Date.parse(e.created_at);
      return (
        (!statuses?.length || statuses.includes(e.status)) &&
        (!batchId || e.batch_id === batchId) &&
        (from === undefined || at >= from) &&
        (to === undefined || at <= to)
      );
    });
    return { body: page(items.map(executionSummaryWire), pageNumber, pageSize) };
  }),

  // Deprecated spec routes (4.1).
  route('POST', '/agent', { schema: agentCreated }, async (ctx) => {
    const agent = await createAgent(ctx);
    return { body: { agent_id: agent.id, status: 'created' } };
  }),
  route('GET', '/agent/:agent_id', { schema: agentSchema }, ({ account, params }) => ({
    body: agentWire(getAgent(account, params.agent_id!)),
  })),
  route('PUT', '/agent/:agent_id', { schema: agentUpdated }, async (ctx) => {
    const agent = await replaceAgent(ctx);
    return { body: { agent_id: agent.id, status: 'updated' } };
  }),
  route('PATCH', '/agent/:agent_id', { schema: agentUpdated }, async (ctx) => {
    await patchAgent(ctx);
    return { body: ack('updated') };
  }),
  route('GET', '/agent/:agent_id/executions', { schema: executionList }, ({ rt, account, params }) => {
    getAgent(account, params.agent_id!);
    // "Sorted by last run": most recently updated first.
    const items = agentExecutions(account, params.agent_id!).sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at));
    return { body: items.map((e) => executionWire(rt, e)) };
  }),
];
