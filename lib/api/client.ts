/**
 * Typed client of the voice agent service: one method per endpoint, named in the service's words.
 * Every answer is parsed with the schemas in `./schemas`; every request body is checked strictly
 * before anything is sent. Works against the spec's routes and the live service's (see `./routes`).
 */
import { z } from './zod';
import { ApiError } from './errors';
import { immediateCalls, type ImmediateCalls } from './immediate-calls';
import { createHttp, zodIssueText, type HttpConfig, type HttpMethod, type QueryValue } from './http';
import { bytesFile, csvFile, toFormData } from './multipart';
import { callDual, ROUTE_KEYS, RouteBook, type RouteMemoryStore } from './routes';
import { formatScheduledAt, scheduledAt as formatStart, ScheduleError } from './schedule';
import {
  actionAck,
  agent,
  agentCreateBody,
  agentCreated,
  agentList,
  agentPatchBody,
  agentReplaceBody,
  agentUpdated,
  availablePhoneNumberList,
  batch,
  batchCreated,
  batchCreateRequest,
  batchList,
  batchScheduleRequest,
  execution,
  executionListOrPage,
  executionLog,
  knowledgebase,
  knowledgebaseIngestRequest,
  knowledgebaseList,
  phoneNumber,
  phoneNumberBuyBody,
  phoneNumberList,
  phoneNumberSearchQuery,
  user,
  type ActionAck,
  type Agent,
  type AgentCreateBody,
  type AgentPatchBody,
  type AgentReplaceBody,
  type AvailablePhoneNumber,
  type Batch,
  type BatchCreateRequest,
  type Execution,
  type Knowledgebase,
  type KnowledgebaseIngestRequest,
  type PhoneNumber,
  type PhoneNumberBuyBody,
  type PhoneNumberSearchQuery,
  type User,
} from './schemas';

export interface ClientConfig extends HttpConfig {
  /** Optional persistence of which route form works per base URL (an in-memory map is always used). */
  routeMemory?: RouteMemoryStore;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export type AgentCreated = z.output<typeof agentCreated>;
export type AgentUpdated = z.output<typeof agentUpdated>;
export type BatchCreated = z.output<typeof batchCreated>;
export type ExecutionPageResult = z.output<typeof executionListOrPage>;
export type ExecutionLog = z.output<typeof executionLog>;
export type PhoneNumberBought = z.output<typeof phoneNumberBought>;

export interface AgentExecutionsQuery {
  /** From 1. */
  page_number?: number;
  /** At most 50 (live default 20). */
  page_size?: number;
  status?: string;
  batch_id?: string;
  /** ISO 8601 (UTC) or a Date. Live, `from`/`to` are in effect required and at most 7 days apart. */
  from?: string | Date;
  to?: string | Date;
}

export interface ScheduleOptions extends CallOptions {
  bypass_call_guardrails?: boolean;
}

export interface VoiceAgentClient extends ImmediateCalls {
  readonly baseUrl: string;
  // Agents
  listAgents(options?: CallOptions): Promise<Agent[]>;
  getAgent(agentId: string, options?: CallOptions): Promise<Agent>;
  getAgentV1(agentId: string, options?: CallOptions): Promise<Agent>;
  createAgent(body: AgentCreateBody, options?: CallOptions): Promise<AgentCreated>;
  createAgentV1(body: AgentCreateBody, options?: CallOptions): Promise<AgentCreated>;
  replaceAgent(agentId: string, body: AgentReplaceBody, options?: CallOptions): Promise<AgentUpdated>;
  patchAgent(agentId: string, body: AgentPatchBody, options?: CallOptions): Promise<AgentUpdated>;
  deleteAgent(agentId: string, options?: CallOptions): Promise<ActionAck>;
  listAgentExecutions(agentId: string, query?: AgentExecutionsQuery, options?: CallOptions): Promise<ExecutionPageResult>;
  listAgentExecutionsV1(agentId: string, options?: CallOptions): Promise<Execution[]>;
  // Batches
  createBatch(request: BatchCreateRequest, options?: CallOptions): Promise<BatchCreated>;
  scheduleBatch(batchId: string, scheduledAt: Date | string, options?: ScheduleOptions): Promise<ActionAck>;
  stopBatch(batchId: string, options?: CallOptions): Promise<ActionAck>;
  getBatch(batchId: string, options?: CallOptions): Promise<Batch>;
  listBatchExecutions(batchId: string, options?: CallOptions): Promise<Execution[]>;
  listAgentBatches(agentId: string, options?: CallOptions): Promise<Batch[]>;
  deleteBatch(batchId: string, options?: CallOptions): Promise<ActionAck>;
  // Executions
  getExecution(executionId: string, options?: CallOptions): Promise<Execution>;
  getExecutionLog(executionId: string, options?: CallOptions): Promise<ExecutionLog>;
  // Phone numbers
  listPhoneNumbers(options?: CallOptions): Promise<PhoneNumber[]>;
  searchPhoneNumbers(query: PhoneNumberSearchQuery, options?: CallOptions): Promise<AvailablePhoneNumber[]>;
  buyPhoneNumber(body: PhoneNumberBuyBody, options?: CallOptions): Promise<PhoneNumberBought>;
  deletePhoneNumber(phoneNumberId: string, options?: CallOptions): Promise<ActionAck>;
  // Knowledgebases
  createKnowledgebase(request: KnowledgebaseIngestRequest, options?: CallOptions): Promise<Knowledgebase>;
  getKnowledgebase(ragId: string, options?: CallOptions): Promise<Knowledgebase>;
  listKnowledgebases(options?: CallOptions): Promise<Knowledgebase[]>;
  deleteKnowledgebase(ragId: string, options?: CallOptions): Promise<ActionAck>;
  // Account
  getUser(options?: CallOptions): Promise<User>;
}

/** Action answers (`{message: "success", state}`); an empty body (204) reads as `{}`. */
const ack = actionAck.nullish().transform((a): ActionAck => a ?? {});
/** The buy answer is not documented: a phone-number record, or at least an acknowledgement. */
const phoneNumberBought = z.union([phoneNumber, actionAck]);
/** A list route that answers a bare array or a `{data: [...]}` envelope, read as the array. */
const executionArray = executionListOrPage.transform((page) => page.data);

const agentExecutionsQuery = z.strictObject({
  page_number: z.number().int().min(1, 'page_number starts at 1').optional(),
  page_size: z.number().int().min(1).max(50, 'page_size is at most 50').optional(),
  status: z.string().min(1).optional(),
  batch_id: z.string().min(1).optional(),
  from: z.union([z.string().min(1), z.date()]).optional(),
  to: z.union([z.string().min(1), z.date()]).optional(),
});

export function createClient(config: ClientConfig): VoiceAgentClient {
  const http = createHttp(config);
  const routes = new RouteBook(http.baseUrl, config.routeMemory);
  const apiKey = config.apiKey.trim();
  const secrets = apiKey ? [apiKey] : [];
  const now = config.now ?? Date.now;

  const invalid = (method: HttpMethod, path: string, message: string, cause?: unknown) =>
    new ApiError({ kind: 'invalid-request', method, path, message: `The request was not sent: ${message}`, cause, secrets });

  /** Strict check of what we are about to send; the parsed value (defaults applied) is what is sent. */
  function check<S extends z.ZodType>(schema: S, value: unknown, method: HttpMethod, path: string): z.output<S> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw invalid(method, path, `${zodIssueText(parsed.error)}.`);
    return parsed.data as z.output<S>;
  }

  /** A path segment: non-empty, not `.`/`..` (which URL parsing would fold away), percent-encoded. */
  function seg(name: string, value: unknown, method: HttpMethod, path: string): string {
    if (typeof value !== 'string' || value.trim() === '') throw invalid(method, path, `${name} is required.`);
    if (value === '.' || value === '..') throw invalid(method, path, `${name} "${value}" is not a valid id.`);
    return encodeURIComponent(value);
  }

  const get = <S extends z.ZodType>(path: string, schema: S, options?: CallOptions, query?: Record<string, QueryValue>) =>
    http.request({ method: 'GET', path, schema, query, signal: options?.signal });

  return {
    baseUrl: http.baseUrl,

    // ---- Agents ----
    listAgents: (options) => get('/v2/agent/all', agentList, options),

    async getAgent(agentId, options) {
      const id = seg('agent_id', agentId, 'GET', '/v2/agent/{agent_id}');
      return callDual(routes, {
        key: ROUTE_KEYS.agentGet,
        first: 'live',
        live: () => get(`/v2/agent/${id}`, agent, options),
        spec: () => get(`/agent/${id}`, agent, options),
      });
    },

    async getAgentV1(agentId, options) {
      const id = seg('agent_id', agentId, 'GET', '/agent/{agent_id}');
      return get(`/agent/${id}`, agent, options);
    },

    async createAgent(body, options) {
      const json = check(agentCreateBody, body, 'POST', '/v2/agent');
      const post = (path: string) => () => http.request({ method: 'POST', path, json, schema: agentCreated, signal: options?.signal });
      return callDual(routes, { key: ROUTE_KEYS.agentCreate, first: 'live', live: post('/v2/agent'), spec: post('/agent') });
    },

    async createAgentV1(body, options) {
      const json = check(agentCreateBody, body, 'POST', '/agent');
      return http.request({ method: 'POST', path: '/agent', json, schema: agentCreated, signal: options?.signal });
    },

    async replaceAgent(agentId, body, options) {
      const id = seg('agent_id', agentId, 'PUT', '/v2/agent/{agent_id}');
      const json = check(agentReplaceBody, body, 'PUT', `/v2/agent/${id}`);
      const put = (path: string) => () => http.request({ method: 'PUT', path, json, schema: agentUpdated, signal: options?.signal });
      return callDual(routes, { key: ROUTE_KEYS.agentReplace, first: 'live', live: put(`/v2/agent/${id}`), spec: put(`/agent/${id}`) });
    },

    async patchAgent(agentId, body, options) {
      const id = seg('agent_id', agentId, 'PATCH', '/v2/agent/{agent_id}');
      const json = check(agentPatchBody, body, 'PATCH', `/v2/agent/${id}`);
      const patch = (path: string) => () => http.request({ method: 'PATCH', path, json, schema: agentUpdated, signal: options?.signal });
      return callDual(routes, { key: ROUTE_KEYS.agentPatch, first: 'live', live: patch(`/v2/agent/${id}`), spec: patch(`/agent/${id}`) });
    },

    async deleteAgent(agentId, options) {
      const id = seg('agent_id', agentId, 'DELETE', '/v2/agent/{agent_id}');
      return http.request({ method: 'DELETE', path: `/v2/agent/${id}`, schema: ack, signal: options?.signal });
    },

    async listAgentExecutions(agentId, query = {}, options) {
      const id = seg('agent_id', agentId, 'GET', '/v2/agent/{agent_id}/executions');
      const q = check(agentExecutionsQuery, query, 'GET', `/v2/agent/${id}/executions`);
      const time = (value: string | Date | undefined) => (value instanceof Date ? formatScheduledAt(value) : value);
      const search: Record<string, QueryValue> = { ...q, from: time(q.from), to: time(q.to) };
      return callDual(routes, {
        key: ROUTE_KEYS.agentExecutions,
        first: 'live',
        live: () => get(`/v2/agent/${id}/executions`, executionListOrPage, options, search),
        // The deprecated route answers every execution as one bare array; it takes no query.
        spec: () => get(`/agent/${id}/executions`, executionListOrPage, options),
      });
    },

    async listAgentExecutionsV1(agentId, options) {
      const id = seg('agent_id', agentId, 'GET', '/agent/{agent_id}/executions');
      return get(`/agent/${id}/executions`, executionArray, options);
    },

    // ---- Batches ----
    async createBatch(request, options) {
      const r = check(batchCreateRequest, request, 'POST', '/batches');
      const form = toFormData({
        agent_id: r.agent_id,
        file: csvFile(r.csv, r.file_name),
        from_phone_numbers: r.from_phone_numbers,
        retry_config: r.retry_config === undefined ? undefined : JSON.stringify(r.retry_config),
        webhook_url: r.webhook_url,
      });
      return http.request({ method: 'POST', path: '/batches', form, schema: batchCreated, signal: options?.signal });
    },

    async scheduleBatch(batchId, at, options = {}) {
      const id = seg('batch_id', batchId, 'POST', '/batches/{batch_id}/schedule');
      let text: string;
      try {
        text = at instanceof Date ? formatStart(at, new Date(now())) : at;
      } catch (e) {
        if (e instanceof ScheduleError) throw invalid('POST', `/batches/${id}/schedule`, e.message, e);
        throw e;
      }
      const r = check(
        batchScheduleRequest,
        { batch_id: batchId, scheduled_at: text, bypass_call_guardrails: options.bypass_call_guardrails },
        'POST',
        `/batches/${id}/schedule`,
      );
      const bypass = r.bypass_call_guardrails === undefined ? undefined : String(r.bypass_call_guardrails);
      return callDual(routes, {
        key: ROUTE_KEYS.batchSchedule,
        first: 'spec',
        spec: () =>
          http.request({
            method: 'POST',
            path: '/batches/schedule',
            form: toFormData({ batch_id: r.batch_id, scheduled_at: r.scheduled_at, bypass_call_guardrails: bypass }),
            schema: ack,
            signal: options.signal,
          }),
        live: () =>
          http.request({
            method: 'POST',
            path: `/batches/${id}/schedule`,
            form: toFormData({ scheduled_at: r.scheduled_at, bypass_call_guardrails: bypass }),
            schema: ack,
            signal: options.signal,
          }),
      });
    },

    async stopBatch(batchId, options) {
      const id = seg('batch_id', batchId, 'POST', '/batches/{batch_id}/stop');
      return http.request({ method: 'POST', path: `/batches/${id}/stop`, schema: ack, signal: options?.signal });
    },

    async getBatch(batchId, options) {
      const id = seg('batch_id', batchId, 'GET', '/batches/{batch_id}');
      return get(`/batches/${id}`, batch, options);
    },

    async listBatchExecutions(batchId, options) {
      const id = seg('batch_id', batchId, 'GET', '/batches/{batch_id}/executions');
      return callDual(routes, {
        key: ROUTE_KEYS.batchExecutions,
        first: 'live',
        live: () => get(`/batches/${id}/executions`, executionArray, options),
        spec: () => get(`/batch/${id}/executions`, executionArray, options),
      });
    },

    async listAgentBatches(agentId, options) {
      const id = seg('agent_id', agentId, 'GET', '/batches/{agent_id}');
      return callDual(routes, {
        key: ROUTE_KEYS.agentBatches,
        first: 'spec',
        spec: () => get(`/batches/${id}`, batchList, options),
        live: () => get(`/batches/${id}/all`, batchList, options),
        // Live reads `/batches/{x}` as a batch id, so the spec form gets a resource 404 there.
        fallbackOn: (e) => e instanceof ApiError && e.kind === 'http' && (e.status === 404 || e.status === 405),
      });
    },

    async deleteBatch(batchId, options) {
      const id = seg('batch_id', batchId, 'DELETE', '/batches/{batch_id}');
      return http.request({ method: 'DELETE', path: `/batches/${id}`, schema: ack, signal: options?.signal });
    },

    // ---- Immediate calls (live only): immediate-calls.ts ----
    ...immediateCalls({ http, routes, check, seg }),

    // ---- Executions ----
    async getExecution(executionId, options) {
      const id = seg('execution_id', executionId, 'GET', '/executions/{execution_id}');
      return get(`/executions/${id}`, execution, options);
    },

    async getExecutionLog(executionId, options) {
      const id = seg('execution_id', executionId, 'GET', '/executions/{execution_id}/log');
      return get(`/executions/${id}/log`, executionLog, options);
    },

    // ---- Phone numbers ----
    async listPhoneNumbers(options) {
      return callDual(routes, {
        key: ROUTE_KEYS.phoneNumberList,
        first: 'spec',
        spec: () => http.request({ method: 'POST', path: '/phone-numbers/all', schema: phoneNumberList, signal: options?.signal }),
        live: () => get('/phone-numbers/all', phoneNumberList, options),
      });
    },

    async searchPhoneNumbers(query, options) {
      const q = check(phoneNumberSearchQuery, query, 'GET', '/phone-numbers/search');
      return get('/phone-numbers/search', availablePhoneNumberList, options, q);
    },

    async buyPhoneNumber(body, options) {
      const json = check(phoneNumberBuyBody, body, 'POST', '/phone-numbers/buy');
      return http.request({ method: 'POST', path: '/phone-numbers/buy', json, schema: phoneNumberBought, signal: options?.signal });
    },

    async deletePhoneNumber(phoneNumberId, options) {
      const id = seg('id', phoneNumberId, 'DELETE', '/phone-numbers/{id}');
      return callDual(routes, {
        key: ROUTE_KEYS.phoneNumberDelete,
        first: 'spec',
        spec: () =>
          http.request({ method: 'DELETE', path: '/phone-numbers/delete', json: { id: phoneNumberId }, schema: ack, signal: options?.signal }),
        live: () => http.request({ method: 'DELETE', path: `/phone-numbers/${id}`, schema: ack, signal: options?.signal }),
        // Live reads `/phone-numbers/delete` as the id "delete": a resource 404 there also means "other form".
        fallbackOn: (e) => e instanceof ApiError && e.kind === 'http' && (e.status === 404 || e.status === 405),
      });
    },

    // ---- Knowledgebases ----
    async createKnowledgebase(request, options) {
      const r = check(knowledgebaseIngestRequest, request, 'POST', '/knowledgebase');
      const form = toFormData({
        file: r.file ? bytesFile(r.file.bytes, r.file.name) : undefined,
        url: r.url,
        chunk_size: r.chunk_size,
        similarity_top_k: r.similarity_top_k,
        overlapping: r.overlapping,
        language_support: r.language_support,
      });
      return http.request({ method: 'POST', path: '/knowledgebase', form, schema: knowledgebase, signal: options?.signal });
    },

    async getKnowledgebase(ragId, options) {
      const id = seg('rag_id', ragId, 'GET', '/knowledgebase/{rag_id}');
      return get(`/knowledgebase/${id}`, knowledgebase, options);
    },

    listKnowledgebases: (options) => get('/knowledgebase/all', knowledgebaseList, options),

    async deleteKnowledgebase(ragId, options) {
      const id = seg('rag_id', ragId, 'DELETE', '/knowledgebase/{rag_id}');
      return http.request({ method: 'DELETE', path: `/knowledgebase/${id}`, schema: ack, signal: options?.signal });
    },

    // ---- Account ----
    getUser: (options) => get('/user/me', user, options),
  };
}
