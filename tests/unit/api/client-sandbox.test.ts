/**
 * The client against the real sandbox (a local HTTP server), once with only the spec's routes and
 * once with only the live service's: every method, every error mapping, retries under injected
 * faults, and a full dial (create → schedule → executions → completed).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type ClientConfig, type VoiceAgentClient } from '../../../lib/api/client';
import { ApiError, isAuthError, isRouteMissing } from '../../../lib/api/errors';
import { createHttp } from '../../../lib/api/http';
import { clearRouteMemory, rememberedRoutes } from '../../../lib/api/routes';
import { formatScheduledAt } from '../../../lib/api/schedule';
import { isTerminalExecutionStatus } from '../../../lib/api/schemas';
import { z } from '../../../lib/api/zod';
import { EMPTY_WALLET_KEY, OTHER_KEY, OWNER_KEY, READONLY_KEY } from '../../../sandbox/keys';
import { SEED, sampleAgentBody } from '../../../sandbox/seed';
import type { AgentCreateBody, AgentReplaceBody } from '../../../lib/api/schemas';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { errorOf } from './fake-fetch';

const A = SEED.A;
const AGENT_ID = A.agents.sales;
const SPEED = 300;

interface LoggedRequest {
  method: string;
  path: string;
  query?: string;
  status: number;
  fault?: boolean;
}


/** The sandbox's sample body, typed loosely there; the client checks it strictly at run time. */
const agentBody = (name: string) => sampleAgentBody(name) as AgentCreateBody & AgentReplaceBody;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(['spec', 'live'] as const)('client against the sandbox (%s routes)', (mode) => {
  let sb: Sandbox;
  /** Waits the client asked for (retries are instant here; the durations are checked instead). */
  let waits: number[];

  const client = (key: string = OWNER_KEY, extra: Partial<ClientConfig> = {}): VoiceAgentClient =>
    createClient({
      baseUrl: sb.url,
      apiKey: key,
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...extra,
    });

  async function control(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${sb.url}/__sandbox/${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.ok).toBe(true);
    return res.json();
  }
  const fault = (spec: { method?: string; path: string; status?: number; count?: number; drop?: boolean; delayMs?: number; retryAfter?: number; body?: unknown }) =>
    control('POST', 'faults', spec);
  const requests = async (pathRe?: string): Promise<LoggedRequest[]> =>
    (await control('GET', `requests${pathRe ? `?path=${encodeURIComponent(pathRe)}` : ''}`)) as LoggedRequest[];
  const lines = (log: LoggedRequest[]) => log.map((r) => `${r.method} ${r.path} ${r.status}`);

  /** A batch of one row for the seeded agent, scheduled (or not). */
  async function newBatch(c: VoiceAgentClient, contact = '+14155551234'): Promise<string> {
    const { batch_id } = await c.createBatch({ agent_id: AGENT_ID, csv: `contact_number,first_name\n${contact},Ann\n` });
    return batch_id;
  }
  const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, speed: SPEED, routes: mode });
  });
  afterAll(async () => {
    await sb?.close();
  });
  beforeEach(() => {
    sb.reset();
    clearRouteMemory(sb.url);
    waits = [];
  });

  describe('agents', () => {
    it('lists, reads (v2 and v1), creates (v2 and v1), replaces, patches and deletes', async () => {
      const c = client();
      const agents = await c.listAgents();
      expect(agents.map((a) => a.id)).toContain(AGENT_ID);
      const agent = await c.getAgent(AGENT_ID);
      expect(agent).toMatchObject({ id: AGENT_ID, agent_status: expect.any(String) });
      expect((await c.getAgentV1(AGENT_ID)).id).toBe(AGENT_ID);

      const created = await c.createAgent(agentBody('Created by the client test'));
      expect(created).toMatchObject({ agent_id: expect.any(String), state: 'created' });
      const v1 = await c.createAgentV1(agentBody('Created through v1'));
      expect(v1).toMatchObject({ agent_id: expect.any(String), status: 'created' });

      // v2 answers {agent_id, message, state}; the deprecated PUT answered {agent_id, status}.
      expect(await c.replaceAgent(created.agent_id, agentBody('Replaced'))).toMatchObject({
        state: 'updated',
      });
      expect((await c.getAgent(created.agent_id)).agent_name).toBe('Replaced');
      expect(await c.patchAgent(created.agent_id, { agent_config: { agent_name: 'Patched', webhook_url: null } })).toMatchObject({
        state: 'updated',
      });
      expect((await c.getAgent(created.agent_id)).agent_name).toBe('Patched');

      expect(await c.deleteAgent(created.agent_id)).toMatchObject({ state: 'deleted' });
      const gone = await errorOf(c.getAgent(created.agent_id));
      expect(gone.status).toBe(404);
      expect(isRouteMissing(gone)).toBe(false);
    });

    it('lists an agent\'s executions as a page (query passed) and as the deprecated array', async () => {
      const c = client();
      const page = await c.listAgentExecutions(AGENT_ID, { page_number: 1, page_size: 2 });
      expect(page).toMatchObject({ page_number: 1, page_size: 2, total: 3, has_more: true });
      expect(page.data).toHaveLength(2);
      const completed = await c.listAgentExecutions(AGENT_ID, { status: 'completed' });
      expect(completed.data.map((e) => e.id)).toEqual([A.executions.completed]);
      const all = await c.listAgentExecutionsV1(AGENT_ID);
      expect(all.map((e) => e.id).sort()).toEqual(Object.values(A.executions).sort());
      expect((await requests('/executions$')).map((r) => r.query ?? '')).toContain('page_number=1&page_size=2');
    });
  });

  describe('batches', () => {
    it('creates (multipart), reads, lists, schedules, stops and deletes', async () => {
      const c = client();
      const batchId = await newBatch(c);
      expect(batchId).toMatch(/^[0-9a-f]{32}$/);
      const batch = await c.getBatch(batchId);
      expect(batch).toMatchObject({ batch_id: batchId, status: 'created', total_contacts: 1, file_name: 'contacts.csv' });
      expect((await c.listBatchExecutions(batchId)).map((e) => e.status)).toEqual(['prepared']);
      expect((await c.listAgentBatches(AGENT_ID)).map((b) => b.batch_id)).toContain(batchId);

      expect(await c.scheduleBatch(batchId, inMinutes(30))).toMatchObject({ state: 'scheduled' });
      expect((await c.getBatch(batchId)).status).toBe('scheduled');
      expect(await c.stopBatch(batchId)).toMatchObject({ state: 'stopped' });
      expect((await c.getBatch(batchId)).status).toBe('stopped');
      const again = await errorOf(c.stopBatch(batchId));
      expect(again).toMatchObject({ status: 404, message: 'Batch is not queued or running' });
      expect(isRouteMissing(again)).toBe(false);

      expect(await c.deleteBatch(batchId)).toMatchObject({ state: 'deleted' });
      expect((await errorOf(c.getBatch(batchId))).status).toBe(404);
    });

    it('sends from numbers, retry_config and webhook_url the service accepts', async () => {
      const c = client();
      const { batch_id } = await c.createBatch({
        agent_id: AGENT_ID,
        csv: 'contact_number\n+14155551234\n+14155551001\n',
        file_name: 'two.csv',
        from_phone_numbers: [A.phoneNumbers.primary.phone_number, A.phoneNumbers.secondary.phone_number],
        retry_config: { enabled: true, max_retries: 1 },
        webhook_url: 'http://127.0.0.1:9/hook',
      });
      const batch = await c.getBatch(batch_id);
      expect(batch).toMatchObject({ file_name: 'two.csv', total_contacts: 2 });
      expect(batch.from_phone_numbers).toEqual([A.phoneNumbers.primary.phone_number, A.phoneNumbers.secondary.phone_number]);
    });

    it('speaks the right schedule form and remembers it', async () => {
      const c = client();
      const batchId = await newBatch(c);
      await c.scheduleBatch(batchId, inMinutes(30));
      await c.scheduleBatch(batchId, inMinutes(40), { bypass_call_guardrails: true });
      const log = lines(await requests('schedule'));
      if (mode === 'spec') {
        expect(log).toEqual(['POST /batches/schedule 200', 'POST /batches/schedule 200']);
      } else {
        expect(log).toEqual([
          'POST /batches/schedule 404',
          `POST /batches/${batchId}/schedule 200`,
          `POST /batches/${batchId}/schedule 200`,
        ]);
      }
      expect(rememberedRoutes(sb.url)['batch.schedule']).toBe(mode);
    });

    it("speaks the right form for an agent's batches and a batch's executions", async () => {
      const c = client();
      await c.listAgentBatches(AGENT_ID);
      await c.listAgentBatches(AGENT_ID);
      await c.listBatchExecutions(A.batch);
      const log = lines(await requests('^/batch'));
      if (mode === 'spec') {
        expect(log).toEqual([`GET /batches/${AGENT_ID} 200`, `GET /batches/${AGENT_ID} 200`, `GET /batches/${A.batch}/executions 200`]);
      } else {
        expect(log).toEqual([
          `GET /batches/${AGENT_ID} 404`,
          `GET /batches/${AGENT_ID}/all 200`,
          `GET /batches/${AGENT_ID}/all 200`,
          `GET /batches/${A.batch}/executions 200`,
        ]);
      }
    });
  });

  describe('executions', () => {
    it('reads a seeded execution and its log', async () => {
      const c = client();
      const execution = await c.getExecution(A.executions.completed);
      expect(execution).toMatchObject({ id: A.executions.completed, status: 'completed', agent_id: AGENT_ID });
      expect(execution.conversation_duration).toBeGreaterThan(0);
      expect(execution.telephony_data?.to_number).toBe(A.recipients.completed);
      const log = await c.getExecutionLog(A.executions.completed);
      expect(log.data.length).toBeGreaterThan(0);
      expect(log.data[0]).toMatchObject({ type: expect.any(String), component: expect.any(String) });
    });
  });

  describe('phone numbers', () => {
    it('lists, searches, buys and deletes, in the right forms', async () => {
      const c = client();
      const owned = await c.listPhoneNumbers();
      expect(owned.map((p) => p.phone_number).sort()).toEqual(
        [A.phoneNumbers.primary.phone_number, A.phoneNumbers.secondary.phone_number].sort(),
      );
      const offers = await c.searchPhoneNumbers({ country: 'US', pattern: '415' });
      expect(offers.length).toBeGreaterThan(0);
      const bought = await c.buyPhoneNumber({ country: 'US', phone_number: offers[0]!.phone_number });
      expect(bought).toMatchObject({ phone_number: offers[0]!.phone_number });
      const id = (bought as { id: string }).id;
      expect(await c.deletePhoneNumber(id)).toMatchObject({ state: 'deleted' });
      expect((await c.listPhoneNumbers()).map((p) => p.id)).not.toContain(id);
      // The secondary number has a 32-hex id.
      expect(await c.deletePhoneNumber(A.phoneNumbers.secondary.id)).toMatchObject({ state: 'deleted' });

      const log = lines(await requests('^/phone-numbers/(all|delete|[0-9a-f-]{32,36})$'));
      if (mode === 'spec') {
        expect(log).toEqual([
          'POST /phone-numbers/all 200',
          'DELETE /phone-numbers/delete 200',
          'POST /phone-numbers/all 200',
          'DELETE /phone-numbers/delete 200',
        ]);
      } else {
        expect(log).toEqual([
          'POST /phone-numbers/all 405',
          'GET /phone-numbers/all 200',
          'DELETE /phone-numbers/delete 404',
          `DELETE /phone-numbers/${id} 200`,
          'GET /phone-numbers/all 200',
          `DELETE /phone-numbers/${A.phoneNumbers.secondary.id} 200`,
        ]);
      }
    });
  });

  describe('knowledgebases', () => {
    it('ingests a PDF and a URL, reads, lists and deletes', async () => {
      const c = client();
      const bytes = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
      const pdf = await c.createKnowledgebase({ file: { name: 'faq.pdf', bytes }, chunk_size: 256 });
      expect(pdf).toMatchObject({ rag_id: expect.any(String), file_name: 'faq.pdf', status: 'processing' });
      const url = await c.createKnowledgebase({ url: 'https://docs.example.test/faq' });
      expect(url).toMatchObject({ source_type: 'url' });
      expect(await c.getKnowledgebase(pdf.rag_id)).toMatchObject({ rag_id: pdf.rag_id, chunk_size: 256 });
      const all = (await c.listKnowledgebases()).map((k) => k.rag_id);
      expect(all).toEqual(expect.arrayContaining([pdf.rag_id, url.rag_id, A.knowledgebase]));
      expect(await c.deleteKnowledgebase(pdf.rag_id)).toMatchObject({ state: 'deleted' });
      expect((await errorOf(c.getKnowledgebase(pdf.rag_id))).message).toBe('Knowledgebase not found');
    });
  });

  describe('account', () => {
    it('reads the user', async () => {
      expect(await client().getUser()).toMatchObject({ id: A.userId, email: 'owner@acme.test', concurrency: { max: expect.any(Number) } });
    });
  });

  describe('error mapping', () => {
    it('a bad key: 401 (spec), 403 {detail} (live)', async () => {
      const e = await errorOf(client('va_not_a_key').listAgents());
      const status = mode === 'live' ? 403 : 401;
      expect(e).toMatchObject({ kind: 'http', status, message: 'Invalid API key', code: mode === 'live' ? undefined : 401, method: 'GET', path: '/v2/agent/all' });
      expect(isAuthError(e)).toBe(true);
      expect(JSON.stringify(e)).not.toContain('va_not_a_key');
    });

    it('403: a read-only key writing', async () => {
      const c = client(READONLY_KEY);
      expect((await c.listAgents()).length).toBeGreaterThan(0);
      const e = await errorOf(c.createBatch({ agent_id: AGENT_ID, csv: 'contact_number\n+14155551234\n' }));
      expect(e).toMatchObject({ status: 403, message: 'This API key is read-only: writes are not allowed' });
      expect(isAuthError(e)).toBe(true);
    });

    it('403 in the live {detail} form reads the detail', async () => {
      await fault({ path: '^/user/me$', status: 403, body: { detail: 'Invalid token or expired' } });
      const e = await errorOf(client().getUser());
      expect(e).toMatchObject({ status: 403, message: 'Invalid token or expired', code: undefined });
    });

    it("404: another account's agent, batch and execution (resource 404s, no fallback)", async () => {
      const c = client(OTHER_KEY);
      const agent = await errorOf(c.getAgent(AGENT_ID));
      expect(agent).toMatchObject({ status: 404, message: 'Agent not found' });
      expect(isRouteMissing(agent)).toBe(false);
      expect((await errorOf(c.getBatch(A.batch))).message).toBe('Batch not found');
      expect((await errorOf(c.getExecution(A.executions.completed))).message).toBe('Execution not found');
      const batches = await errorOf(c.listAgentBatches(AGENT_ID));
      expect(batches.status).toBe(404);
      expect(isRouteMissing(batches)).toBe(false);
      expect(rememberedRoutes(sb.url)['agent.batches']).toBeUndefined();
    });

    it('400: a missing parameter names it', async () => {
      const http = createHttp({ baseUrl: sb.url, apiKey: OWNER_KEY });
      const form = new FormData();
      form.append('file', new Blob(['contact_number\n+14155551234\n'], { type: 'text/csv' }), 'c.csv');
      const e = await errorOf(http.request({ method: 'POST', path: '/batches', form, schema: z.unknown() }));
      expect(e).toMatchObject({ kind: 'http', status: 400, code: 400, message: 'agent_id is required' });
    });

    it('400 and 500 from scheduling: too early, unparseable, and the Z suffix', async () => {
      const c = client();
      const batchId = await newBatch(c);
      const early = await errorOf(c.scheduleBatch(batchId, formatScheduledAt(inMinutes(1))));
      expect(early).toMatchObject({ status: 400, message: 'the scheduled time must be at least 2 minutes in the future' });
      const garbage = await errorOf(c.scheduleBatch(batchId, 'next tuesday'));
      expect(garbage.status).toBe(400);
      expect(garbage.message).toMatch(/Invalid isoformat string/);
      const zulu = await errorOf(c.scheduleBatch(batchId, inMinutes(10).toISOString()));
      expect(zulu).toMatchObject({ status: 500, message: 'internal server error' });
      // A Date too early is refused by the client itself: nothing more reaches the service.
      const before = (await requests('schedule')).length;
      const local = await errorOf(c.scheduleBatch(batchId, inMinutes(1)));
      expect(local.kind).toBe('invalid-request');
      expect(await requests('schedule')).toHaveLength(before);
    });

    it('422: a from number the account does not own', async () => {
      const e = await errorOf(
        client().createBatch({ agent_id: AGENT_ID, csv: 'contact_number\n+14155551234\n', from_phone_numbers: ['+14155559999'] }),
      );
      expect(e).toMatchObject({ status: 422, message: 'from phone number +14155559999 is not owned by this account' });
    });

    it('invalid requests never reach the service', async () => {
      const c = client();
      await errorOf(c.createBatch({ agent_id: AGENT_ID, csv: 'phone\n+14155551234\n' }));
      await errorOf(c.buyPhoneNumber({ country: 'US', phone_number: '4155550123' }));
      await errorOf(c.createAgent({ agent_config: { agent_name: '' } }));
      expect(await requests()).toHaveLength(0);
    });
  });

  describe('retries under injected faults', () => {
    it('a GET is retried after 503s and succeeds', async () => {
      await fault({ method: 'GET', path: '^/v2/agent/all$', status: 503, count: 2 });
      expect((await client().listAgents()).length).toBeGreaterThan(0);
      expect(lines(await requests('^/v2/agent/all$'))).toEqual(['GET /v2/agent/all 503', 'GET /v2/agent/all 503', 'GET /v2/agent/all 200']);
      expect(waits).toHaveLength(2);
    });

    it('a GET honours Retry-After on 429', async () => {
      await fault({ method: 'GET', path: '^/user/me$', status: 429, retryAfter: 3, count: 1 });
      await client().getUser();
      expect(waits).toEqual([3000]);
    });

    it('a GET survives a dropped connection', async () => {
      await fault({ method: 'GET', path: `^/executions/${A.executions.completed}$`, drop: true, count: 2 });
      expect((await client().getExecution(A.executions.completed)).status).toBe('completed');
      expect((await requests('^/executions/')).map((r) => r.status)).toEqual([0, 0, 200]);
    });

    it('a GET gives up after the retry budget with the last error', async () => {
      await fault({ method: 'GET', path: '^/v2/agent/all$', status: 502, count: 10 });
      const e = await errorOf(client().listAgents());
      expect(e).toMatchObject({ status: 502, message: 'injected fault 502' });
      expect(await requests('^/v2/agent/all$')).toHaveLength(5);
    });

    it('a POST is not retried after 503 or a dropped connection', async () => {
      const c = client();
      await fault({ method: 'POST', path: '^/batches$', status: 503, count: 1 });
      expect((await errorOf(newBatch(c))).status).toBe(503);
      await fault({ method: 'POST', path: '^/batches$', drop: true, count: 1 });
      expect((await errorOf(newBatch(c))).kind).toBe('network');
      expect(await requests('^/batches$')).toHaveLength(2);
      expect(await c.listAgentBatches(AGENT_ID)).toHaveLength(1); // only the seeded batch
    });

    it('a POST is retried after 429 and creates exactly one batch', async () => {
      const c = client();
      await fault({ method: 'POST', path: '^/batches$', status: 429, retryAfter: 1, count: 1 });
      await newBatch(c);
      expect(lines(await requests('^/batches$'))).toEqual(['POST /batches 429', 'POST /batches 201']);
      expect(waits).toEqual([1000]);
      expect(await c.listAgentBatches(AGENT_ID)).toHaveLength(2);
    });

    it('the real rate limit (429 + Retry-After) is honoured', async () => {
      const limited = await startSandbox({ port: 0, speed: SPEED, routes: mode, rateLimitPerMinute: 2 });
      try {
        const c = createClient({ baseUrl: limited.url, apiKey: OWNER_KEY, sleep: async (ms) => void waits.push(ms), retry: { maxRetries: 1 } });
        await c.getUser();
        await c.getUser();
        const e = await errorOf(c.getUser());
        expect(e.status).toBe(429);
        expect(e.retryAfterMs).toBeGreaterThan(0);
        // Waited as asked when it fits a request's patience (8 s); a longer wait goes back to the caller, never shortened.
        expect(waits).toEqual(e.retryAfterMs! <= 8000 ? [e.retryAfterMs] : []);
      } finally {
        await limited.close();
      }
    });

    it('a slow answer times out; a caller abort cancels', async () => {
      await fault({ method: 'GET', path: '^/user/me$', delayMs: 2000, count: 5 });
      const c = client(OWNER_KEY, { timeoutMs: 100, retry: { maxRetries: 1 } });
      const timedOut = await errorOf(c.getUser());
      expect(timedOut).toMatchObject({ kind: 'timeout', status: 0, message: 'The service did not answer within 100 ms.' });
      expect(waits).toHaveLength(1); // a GET timeout is retried once here, then given up

      const controller = new AbortController();
      const pending = client().getUser({ signal: controller.signal });
      await sleep(50);
      controller.abort();
      expect((await errorOf(pending)).kind).toBe('aborted');
    });
  });

  it('a full dial: one-row batch → schedule ≥ 2 min ahead → its execution → completed', async () => {
    const c = client();
    const { batch_id } = await c.createBatch({ agent_id: AGENT_ID, csv: 'contact_number,first_name\n+14155551234,Ann\n' });
    const at = new Date(Date.now() + 2 * 60_000 + 15_000);
    expect(await c.scheduleBatch(batch_id, at)).toMatchObject({ state: 'scheduled' });
    const [row] = await c.listBatchExecutions(batch_id);
    expect(row).toBeDefined();
    const seen: string[] = [];
    let execution = await c.getExecution(row!.id);
    const deadline = Date.now() + 15_000;
    while (!isTerminalExecutionStatus(execution.status)) {
      if (seen.at(-1) !== execution.status) seen.push(execution.status);
      if (Date.now() > deadline) throw new Error(`still ${execution.status} after 15 s; seen ${seen.join(' → ')}`);
      await sleep(25);
      execution = await c.getExecution(row!.id);
    }
    expect(execution.status).toBe('completed');
    expect(execution.conversation_duration).toBeGreaterThan(0);
    expect(execution.telephony_data).toMatchObject({ to_number: '+14155551234' });
    expect(execution.transcript).toBeTruthy();
    expect(seen[0]).toMatch(/^(scheduled|queued|prepared)$/);
    const batch = await c.getBatch(batch_id);
    expect(batch.execution_status).toMatchObject({ completed: 1 });
  });

  it('an empty wallet ends the call balance-low', async () => {
    const c = client(EMPTY_WALLET_KEY);
    const agentId = SEED.C.agents.sales;
    const { batch_id } = await c.createBatch({ agent_id: agentId, csv: 'contact_number\n+13125551234\n' });
    await c.scheduleBatch(batch_id, new Date(Date.now() + 2 * 60_000 + 15_000));
    const [row] = await c.listBatchExecutions(batch_id);
    let execution = await c.getExecution(row!.id);
    const deadline = Date.now() + 15_000;
    while (!isTerminalExecutionStatus(execution.status) && Date.now() < deadline) {
      await sleep(25);
      execution = await c.getExecution(row!.id);
    }
    expect(execution.status).toBe('balance-low');
  });
});
