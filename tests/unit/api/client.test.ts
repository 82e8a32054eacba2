import { beforeEach, describe, expect, it } from 'vitest';
import { createClient, type ClientConfig } from '../../../lib/api/client';
import { ApiError } from '../../../lib/api/errors';
import { clearRouteMemory, rememberedRoutes, type RouteForms, type RouteMemoryStore } from '../../../lib/api/routes';
import { fakeClock, fakeFetch, json, type RecordedCall, errorOf } from './fake-fetch';

const BASE = 'https://api.example.test';
const AGENT = '3c90c3cc-0d44-4b50-8888-8dd25736052a';
const BATCH = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const EXEC = 'a1b2c3d4-0d44-4b50-8888-8dd25736052a';

const execRow = { id: EXEC, status: 'completed', conversation_duration: 12 };
const batchRow = { batch_id: BATCH, status: 'scheduled', execution_status: { queued: 1 } };
const phoneRow = { id: 'pn1', phone_number: '+14155550123' };
const ack = { message: 'success', state: 'ok' };
const routeMissing = () => json({ error: 404, message: 'Not Found' }, 404);

/**
 * A tiny stand-in router: `spec` knows only the spec's forms, `live` only the live service's.
 * Anything else answers a route 404 (or 405 where a path exists with another method).
 */
function router(mode: 'spec' | 'live') {
  return (call: RecordedCall): Response => {
    const p = call.url.pathname;
    const m = call.method;
    const key = `${m} ${p}`;
    const both: Record<string, () => Response> = {
      [`GET /v2/agent/all`]: () => json([{ id: AGENT, agent_name: 'A' }]),
      [`GET /batches/${BATCH}/executions`]: () => json([execRow]),
      [`GET /batches/${BATCH}`]: () => json(batchRow),
    };
    const spec: Record<string, () => Response> = {
      [`GET /agent/${AGENT}`]: () => json({ id: AGENT, agent_name: 'A' }),
      [`GET /agent/${AGENT}/executions`]: () => json([execRow]),
      [`POST /batches/schedule`]: () => json(ack),
      [`GET /batches/${AGENT}`]: () => json([batchRow]),
      [`GET /batch/${BATCH}/executions`]: () => json([execRow]),
      [`POST /phone-numbers/all`]: () => json([phoneRow]),
      [`DELETE /phone-numbers/delete`]: () => json(ack),
      [`POST /agent`]: () => json({ agent_id: AGENT, status: 'created' }),
      [`PUT /agent/${AGENT}`]: () => json({ agent_id: AGENT, status: 'updated' }),
      [`PATCH /agent/${AGENT}`]: () => json({ message: 'success', state: 'updated' }),
    };
    const live: Record<string, () => Response> = {
      [`GET /v2/agent/${AGENT}`]: () => json({ id: AGENT, agent_name: 'A' }),
      [`GET /v2/agent/${AGENT}/executions`]: () =>
        json({ page_number: 1, page_size: 20, total: 1, has_more: false, data: [execRow] }),
      [`POST /batches/${BATCH}/schedule`]: () => json({ message: 'success', state: 'scheduled' }),
      [`GET /batches/${AGENT}/all`]: () => json([batchRow]),
      [`GET /phone-numbers/all`]: () => json([phoneRow]),
      [`DELETE /phone-numbers/pn1`]: () => json(ack),
      [`POST /v2/agent`]: () => json({ agent_id: AGENT, state: 'created' }, 201),
      [`PUT /v2/agent/${AGENT}`]: () => json({ agent_id: AGENT, message: 'success', state: 'updated' }),
      [`PATCH /v2/agent/${AGENT}`]: () => json({ message: 'success', state: 'updated' }),
    };
    const table = { ...both, ...(mode === 'spec' ? spec : live) };
    const hit = table[key];
    if (hit) return hit();
    // Live reads /batches/{x} and /phone-numbers/{x} as resource ids.
    if (mode === 'live' && m === 'GET' && /^\/batches\/[^/]+$/.test(p)) return json({ error: 404, message: 'Batch not found' }, 404);
    if (mode === 'live' && m === 'DELETE' && /^\/phone-numbers\/[^/]+$/.test(p))
      return json({ error: 404, message: 'Phone number not found' }, 404);
    if (mode === 'live' && p === '/phone-numbers/all') return json({ detail: 'Method Not Allowed' }, 405);
    return routeMissing();
  };
}

function setup(fetchFallback: (call: RecordedCall) => Response, config: Partial<ClientConfig> = {}) {
  const fake = fakeFetch([], fetchFallback);
  const clock = fakeClock();
  const client = createClient({
    baseUrl: BASE,
    apiKey: 'key-123',
    fetch: fake.fetch,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0,
    ...config,
  });
  return { client, fake, clock };
}

const targets = (calls: RecordedCall[]) => calls.map((c) => `${c.method} ${c.url.pathname}`);


beforeEach(() => clearRouteMemory());

describe('route fallback and memory', () => {
  const cases: {
    name: string;
    call: (c: ReturnType<typeof createClient>) => Promise<unknown>;
    spec: string[];
    live: string[];
    key: string;
    /** The form remembered after the call ('live' names the v2 and plural forms). */
    learned: { spec: 'spec' | 'live'; live: 'spec' | 'live' };
  }[] = [
    {
      name: 'scheduleBatch',
      call: (c) => c.scheduleBatch(BATCH, '2026-11-21T12:10:00+00:00'),
      spec: ['POST /batches/schedule'],
      live: ['POST /batches/schedule', `POST /batches/${BATCH}/schedule`],
      key: 'batch.schedule',
      learned: { spec: 'spec', live: 'live' },
    },
    {
      name: 'listAgentBatches',
      call: (c) => c.listAgentBatches(AGENT),
      spec: [`GET /batches/${AGENT}`],
      live: [`GET /batches/${AGENT}`, `GET /batches/${AGENT}/all`],
      key: 'agent.batches',
      learned: { spec: 'spec', live: 'live' },
    },
    {
      name: 'listBatchExecutions (the plural form, in both, goes first)',
      call: (c) => c.listBatchExecutions(BATCH),
      spec: [`GET /batches/${BATCH}/executions`],
      live: [`GET /batches/${BATCH}/executions`],
      key: 'batch.executions',
      learned: { spec: 'live', live: 'live' },
    },
    {
      name: 'listPhoneNumbers',
      call: (c) => c.listPhoneNumbers(),
      spec: ['POST /phone-numbers/all'],
      live: ['POST /phone-numbers/all', 'GET /phone-numbers/all'],
      key: 'phone-numbers.list',
      learned: { spec: 'spec', live: 'live' },
    },
    {
      name: 'deletePhoneNumber',
      call: (c) => c.deletePhoneNumber('pn1'),
      spec: ['DELETE /phone-numbers/delete'],
      live: ['DELETE /phone-numbers/delete', 'DELETE /phone-numbers/pn1'],
      key: 'phone-numbers.delete',
      learned: { spec: 'spec', live: 'live' },
    },
    {
      name: 'getAgent (v2 first, deprecated /agent when missing)',
      call: (c) => c.getAgent(AGENT),
      spec: [`GET /v2/agent/${AGENT}`, `GET /agent/${AGENT}`],
      live: [`GET /v2/agent/${AGENT}`],
      key: 'agent.get',
      learned: { spec: 'spec', live: 'live' },
    },
    {
      name: 'listAgentExecutions (v2 envelope first, deprecated bare array when missing)',
      call: (c) => c.listAgentExecutions(AGENT),
      spec: [`GET /v2/agent/${AGENT}/executions`, `GET /agent/${AGENT}/executions`],
      live: [`GET /v2/agent/${AGENT}/executions`],
      key: 'agent.executions',
      learned: { spec: 'spec', live: 'live' },
    },
    {
      name: 'createAgent (v2 first, deprecated /agent when missing)',
      call: (c) => c.createAgent({ agent_config: { agent_name: 'A' } }),
      spec: ['POST /v2/agent', 'POST /agent'],
      live: ['POST /v2/agent'],
      key: 'agent.create',
      learned: { spec: 'spec', live: 'live' },
    },
    {
      name: 'replaceAgent (v2 first, deprecated /agent when missing)',
      call: (c) => c.replaceAgent(AGENT, { agent_config: { agent_name: 'A' }, agent_prompts: {} }),
      spec: [`PUT /v2/agent/${AGENT}`, `PUT /agent/${AGENT}`],
      live: [`PUT /v2/agent/${AGENT}`],
      key: 'agent.replace',
      learned: { spec: 'spec', live: 'live' },
    },
    {
      name: 'patchAgent (v2 first, deprecated /agent when missing)',
      call: (c) => c.patchAgent(AGENT, { agent_config: { agent_name: 'A' } }),
      spec: [`PATCH /v2/agent/${AGENT}`, `PATCH /agent/${AGENT}`],
      live: [`PATCH /v2/agent/${AGENT}`],
      key: 'agent.patch',
      learned: { spec: 'spec', live: 'live' },
    },
  ];

  describe.each(['spec', 'live'] as const)('against a %s server', (mode) => {
    it.each(cases)('$name: falls back once, then goes straight to the form that worked', async (c) => {
      const { client, fake } = setup(router(mode));
      await c.call(client);
      expect(targets(fake.calls)).toEqual(c[mode]);
      expect(rememberedRoutes(BASE)[c.key]).toBe(c.learned[mode]);
      fake.calls.length = 0;
      await c.call(client);
      expect(targets(fake.calls)).toEqual([c[mode].at(-1)]);
    });
  });

  it('listBatchExecutions falls back to the singular /batch/ form when the plural one is missing', async () => {
    const { client, fake } = setup((call) =>
      call.url.pathname === `/batch/${BATCH}/executions` ? json([execRow]) : routeMissing(),
    );
    expect(await client.listBatchExecutions(BATCH)).toHaveLength(1);
    expect(targets(fake.calls)).toEqual([`GET /batches/${BATCH}/executions`, `GET /batch/${BATCH}/executions`]);
  });

  it('remembers per base URL', async () => {
    const live = setup(router('live'), { baseUrl: 'https://live.example.test' });
    const spec = setup(router('spec'), { baseUrl: 'https://spec.example.test/' });
    await live.client.listPhoneNumbers();
    await spec.client.listPhoneNumbers();
    expect(rememberedRoutes('https://live.example.test')['phone-numbers.list']).toBe('live');
    expect(rememberedRoutes('https://spec.example.test')['phone-numbers.list']).toBe('spec');
    // A new client for the same base URL benefits from what was learned.
    const again = setup(router('live'), { baseUrl: 'https://live.example.test' });
    await again.client.listPhoneNumbers();
    expect(targets(again.fake.calls)).toEqual(['GET /phone-numbers/all']);
  });

  it('loads from and saves to a routeMemory store', async () => {
    const saved: [string, RouteForms][] = [];
    const store: RouteMemoryStore = {
      get: async (baseUrl) => (baseUrl === BASE ? { 'batch.schedule': 'live' } : undefined),
      set: (baseUrl, forms) => {
        saved.push([baseUrl, forms]);
      },
    };
    const { client, fake } = setup(router('live'), { routeMemory: store });
    await client.scheduleBatch(BATCH, '2026-11-21T12:10:00+00:00');
    expect(targets(fake.calls)).toEqual([`POST /batches/${BATCH}/schedule`]);
    await client.listPhoneNumbers();
    expect(saved.at(-1)).toEqual([BASE, { 'batch.schedule': 'live', 'phone-numbers.list': 'live' }]);
  });

  it('a broken store costs only a round trip', async () => {
    const store: RouteMemoryStore = {
      get: () => {
        throw new Error('storage gone');
      },
      set: () => Promise.reject(new Error('storage gone')),
    };
    const { client } = setup(router('live'), { routeMemory: store });
    await expect(client.listPhoneNumbers()).resolves.toHaveLength(1);
  });

  it('a remembered form that has gone missing falls back to the other one and relearns', async () => {
    let mode: 'spec' | 'live' = 'live';
    const { client, fake } = setup((call) => router(mode)(call));
    await client.listPhoneNumbers();
    expect(rememberedRoutes(BASE)['phone-numbers.list']).toBe('live');
    mode = 'spec';
    fake.calls.length = 0;
    await client.listPhoneNumbers();
    expect(targets(fake.calls)).toEqual(['GET /phone-numbers/all', 'POST /phone-numbers/all']);
    expect(rememberedRoutes(BASE)['phone-numbers.list']).toBe('spec');
  });

  it('a resource 404 does not trigger a fallback on ordinary routes', async () => {
    const { client, fake } = setup(() => json({ error: 404, message: 'Agent not found' }, 404));
    const e = await errorOf(client.getAgent(AGENT));
    expect(e).toMatchObject({ status: 404, message: 'Agent not found' });
    expect(fake.calls).toHaveLength(1);
  });

  it('when both forms fail, the telling error is thrown (not the route 404)', async () => {
    // Spec server, unknown agent: spec form says "Agent not found", the live form is missing.
    const { client } = setup((call) =>
      call.url.pathname === `/batches/${AGENT}` ? json({ error: 404, message: 'Agent not found' }, 404) : routeMissing(),
    );
    const e = await errorOf(client.listAgentBatches(AGENT));
    expect(e.message).toBe('Agent not found');
    expect(rememberedRoutes(BASE)['agent.batches']).toBeUndefined();
  });

  it('an auth error is never a reason to fall back', async () => {
    const { client, fake } = setup(() => json({ detail: 'Invalid token' }, 403));
    const e = await errorOf(client.scheduleBatch(BATCH, '2026-11-21T12:10:00+00:00'));
    expect(e).toMatchObject({ status: 403, message: 'Invalid token' });
    expect(fake.calls).toHaveLength(1);
  });
});

describe('endpoints', () => {
  function answering(body: unknown, status = 200) {
    return setup(() => json(body, status));
  }

  it('agents: methods, paths and bodies', async () => {
    const created = { agent_id: AGENT, state: 'created' };
    const a = answering({ id: AGENT, agent_name: 'Ann', status: 'updated', ...created });
    const body = { agent_config: { agent_name: 'Ann' }, agent_prompts: { task_1: { system_prompt: 'Be kind.' } } };
    await a.client.listAgents().catch(() => undefined);
    await a.client.getAgentV1(AGENT);
    await a.client.createAgent(body);
    await a.client.createAgentV1(body);
    await a.client.replaceAgent(AGENT, { agent_config: { agent_name: 'Ann' }, agent_prompts: {} });
    await a.client.patchAgent(AGENT, { agent_config: { webhook_url: null } });
    await a.client.deleteAgent(AGENT);
    expect(targets(a.fake.calls)).toEqual([
      'GET /v2/agent/all',
      `GET /agent/${AGENT}`,
      'POST /v2/agent',
      'POST /agent',
      `PUT /v2/agent/${AGENT}`,
      `PATCH /v2/agent/${AGENT}`,
      `DELETE /v2/agent/${AGENT}`,
    ]);
    expect(await a.fake.calls[2]!.request.json()).toEqual(body);
    expect(await a.fake.calls[5]!.request.json()).toEqual({ agent_config: { webhook_url: null } });
  });

  it('createAgent reads the 201 {agent_id, state}', async () => {
    const { client } = setup(() => json({ agent_id: AGENT, state: 'created' }, 201));
    expect(await client.createAgent({ agent_config: { agent_name: 'Ann' } })).toEqual({ agent_id: AGENT, state: 'created' });
  });

  it('listAgentExecutions sends its query (dates as +00:00) and reads the envelope', async () => {
    const { client, fake } = answering({ page_number: 2, page_size: 10, total: 11, has_more: false, data: [execRow] });
    const page = await client.listAgentExecutions(AGENT, {
      page_number: 2,
      page_size: 10,
      status: 'completed',
      batch_id: BATCH,
      from: new Date('2026-11-20T00:00:00Z'),
      to: '2026-11-21T00:00:00+00:00',
    });
    expect(page).toMatchObject({ page_number: 2, total: 11, data: [{ id: EXEC, conversation_duration: 12 }] });
    const q = fake.calls[0]!.url.searchParams;
    expect(Object.fromEntries(q)).toEqual({
      page_number: '2',
      page_size: '10',
      status: 'completed',
      batch_id: BATCH,
      from: '2026-11-20T00:00:00+00:00',
      to: '2026-11-21T00:00:00+00:00',
    });
  });

  it('listAgentExecutions reads a bare array as the same page shape; V1 answers the array', async () => {
    const { client } = answering([execRow, { ...execRow, id: 'e2' }]);
    expect(await client.listAgentExecutions(AGENT)).toMatchObject({ page_number: 1, total: 2, has_more: false });
    expect(await client.listAgentExecutionsV1(AGENT)).toHaveLength(2);
  });

  it('batches: create is multipart with a CSV file, repeated from numbers and retry_config as JSON', async () => {
    const { client, fake } = setup(() => json({ batch_id: BATCH, state: 'created' }, 201));
    const csv = 'contact_number,first_name\n+14155550123,Ann\n';
    const out = await client.createBatch({
      agent_id: AGENT,
      csv,
      from_phone_numbers: ['+14155550100', '+14155550101'],
      retry_config: { enabled: true, max_retries: 2 },
      webhook_url: 'https://hooks.example.test/x',
    });
    expect(out).toEqual({ batch_id: BATCH, state: 'created' });
    const call = fake.calls[0]!;
    expect(`${call.method} ${call.url.pathname}`).toBe('POST /batches');
    expect(call.headers.get('content-type')).toBeNull();
    expect(call.request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await call.request.formData();
    expect(form.get('agent_id')).toBe(AGENT);
    expect(form.getAll('from_phone_numbers')).toEqual(['+14155550100', '+14155550101']);
    expect(JSON.parse(String(form.get('retry_config')))).toEqual({ enabled: true, max_retries: 2 });
    expect(form.get('webhook_url')).toBe('https://hooks.example.test/x');
    const file = form.get('file') as File;
    expect(file.name).toBe('contacts.csv');
    expect(file.type).toMatch(/^text\/csv/);
    expect(await file.text()).toBe(csv);
  });

  it('batches: other methods', async () => {
    const { client, fake } = setup((call) =>
      call.method === 'GET' && call.url.pathname === `/batches/${BATCH}`
        ? json(batchRow)
        : call.url.pathname.endsWith('/executions')
          ? json([execRow])
          : json({ message: 'success', state: 'done' }),
    );
    expect(await client.stopBatch(BATCH)).toEqual({ message: 'success', state: 'done' });
    expect(await client.getBatch(BATCH)).toMatchObject({ batch_id: BATCH, status: 'scheduled' });
    expect(await client.deleteBatch(BATCH)).toMatchObject({ state: 'done' });
    expect(targets(fake.calls)).toEqual([`POST /batches/${BATCH}/stop`, `GET /batches/${BATCH}`, `DELETE /batches/${BATCH}`]);
  });

  it('scheduleBatch: a Date is formatted with +00:00; the spec form carries batch_id; guardrail flag as text', async () => {
    const { client, fake, clock } = setup(router('spec'));
    const at = new Date(clock.now() + 5 * 60_000);
    await client.scheduleBatch(BATCH, at, { bypass_call_guardrails: true });
    const form = await fake.calls[0]!.request.formData();
    expect(fake.calls[0]!.headers.get('content-type')).toBeNull();
    expect(form.get('batch_id')).toBe(BATCH);
    expect(form.get('scheduled_at')).toBe('2026-11-21T12:05:00+00:00');
    expect(form.get('bypass_call_guardrails')).toBe('true');
  });

  it('scheduleBatch: the live form carries only scheduled_at', async () => {
    const { client, fake } = setup(router('live'));
    await client.scheduleBatch(BATCH, '2026-11-21T12:10:00+00:00');
    const form = await fake.calls[1]!.request.formData();
    expect([...form.keys()]).toEqual(['scheduled_at']);
  });

  it('scheduleBatch: a Date less than 2 minutes ahead is refused before any request; a string is sent as given', async () => {
    const { client, fake, clock } = setup(router('live'));
    const e = await errorOf(client.scheduleBatch(BATCH, new Date(clock.now() + 60_000)));
    expect(e).toMatchObject({ kind: 'invalid-request', status: 0 });
    expect(e.message).toBe('The request was not sent: The scheduled time must be at least 2 minutes in the future.');
    expect(fake.calls).toHaveLength(0);
    await client.scheduleBatch(BATCH, '2026-11-21T12:00:30Z');
    expect((await fake.calls.at(-1)!.request.formData()).get('scheduled_at')).toBe('2026-11-21T12:00:30Z');
  });

  it('executions', async () => {
    const { client, fake } = setup((call) =>
      call.url.pathname.endsWith('/log')
        ? json({ data: [{ type: 'request', component: 'llm', data: 'hi' }] })
        : json({ ...execRow, telephony_data: { duration: '42', hangup_code: 16 } }),
    );
    const e = await client.getExecution(EXEC);
    expect(e.telephony_data).toMatchObject({ duration: 42, hangup_provider_code: 16 });
    expect((await client.getExecutionLog(EXEC)).data[0]).toMatchObject({ component: 'llm' });
    expect(targets(fake.calls)).toEqual([`GET /executions/${EXEC}`, `GET /executions/${EXEC}/log`]);
  });

  it('phone numbers: search query and buy body', async () => {
    const { client, fake } = setup((call) =>
      call.url.pathname === '/phone-numbers/search'
        ? json([{ phone_number: '+14155550199', price: '1.15' }])
        : json({ id: 'pn9', phone_number: '+14155550199' }),
    );
    const found = await client.searchPhoneNumbers({ country: 'US', pattern: '415' });
    expect(found[0]).toMatchObject({ phone_number: '+14155550199', price: 1.15 });
    expect(fake.calls[0]!.target).toBe('/phone-numbers/search?country=US&pattern=415');
    expect(await client.buyPhoneNumber({ country: 'US', phone_number: '+14155550199' })).toMatchObject({ id: 'pn9' });
    expect(await fake.calls[1]!.request.json()).toEqual({ country: 'US', phone_number: '+14155550199' });
    expect(fake.calls[1]!.method).toBe('POST');
  });

  it('phone numbers: the spec delete sends {id} as JSON', async () => {
    const { client, fake } = setup(router('spec'));
    await client.deletePhoneNumber('pn1');
    expect(await fake.calls[0]!.request.json()).toEqual({ id: 'pn1' });
  });

  it('knowledgebases: multipart ingest with a PDF or a URL; read, list, delete', async () => {
    const record = { rag_id: 'rag1', file_name: 'a.pdf', status: 'processing' };
    const { client, fake } = setup((call) =>
      call.url.pathname === '/knowledgebase/all' ? json([record]) : call.method === 'DELETE' ? json(ack) : json(record),
    );
    const bytes = new TextEncoder().encode('%PDF-1.4 tiny');
    await client.createKnowledgebase({ file: { name: 'a.pdf', bytes }, chunk_size: 512 });
    const form = await fake.calls[0]!.request.formData();
    expect(fake.calls[0]!.headers.get('content-type')).toBeNull();
    const file = form.get('file') as File;
    expect(file.name).toBe('a.pdf');
    expect(file.type).toBe('application/pdf');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);
    expect(form.get('chunk_size')).toBe('512');
    expect(form.has('url')).toBe(false);
    await client.createKnowledgebase({ url: 'https://docs.example.test/faq' });
    expect((await fake.calls[1]!.request.formData()).get('url')).toBe('https://docs.example.test/faq');
    await client.getKnowledgebase('rag1');
    await client.listKnowledgebases();
    await client.deleteKnowledgebase('rag1');
    expect(targets(fake.calls).slice(2)).toEqual(['GET /knowledgebase/rag1', 'GET /knowledgebase/all', 'DELETE /knowledgebase/rag1']);
  });

  it('account', async () => {
    const { client, fake } = answering({ id: 'u1', wallet: '1000', concurrency: { max: 2, current: 0 } });
    expect(await client.getUser()).toMatchObject({ id: 'u1', wallet: 1000 });
    expect(targets(fake.calls)).toEqual(['GET /user/me']);
  });

  it('an empty 204 action answer reads as {}', async () => {
    const { client } = setup(() => new Response(null, { status: 204 }));
    expect(await client.deleteBatch(BATCH)).toEqual({});
  });

  it('path parameters are percent-encoded; empty, "." and ".." ids are refused unsent', async () => {
    const { client, fake } = answering({ id: 'x/y', status: 'queued' });
    await client.getExecution('x/y?z#w');
    expect(fake.calls[0]!.url.pathname).toBe('/executions/x%2Fy%3Fz%23w');
    for (const id of ['', '  ', '.', '..']) {
      const e = await errorOf(client.getExecution(id));
      expect(e.kind).toBe('invalid-request');
    }
    expect(fake.calls).toHaveLength(1);
  });

  it('every method accepts a signal', async () => {
    const { client, fake } = answering([]);
    const e = await errorOf(client.listAgents({ signal: AbortSignal.abort() }));
    expect(e.kind).toBe('aborted');
    expect(fake.calls).toHaveLength(0);
  });
});

describe('strict request validation (nothing is sent)', () => {
  const { client, fake } = setup(() => json({}));
  const refused: [string, () => Promise<unknown>, RegExp][] = [
    ['createAgent without agent_name', () => client.createAgent({ agent_config: {} } as never), /agent_config\.agent_name: /],
    ['createAgent with an unknown key', () => client.createAgent({ agent_config: { agent_name: 'a', colour: 'red' } } as never), /agent_config: Unrecognized key: "colour"/],
    ['replaceAgent without agent_prompts', () => client.replaceAgent(AGENT, { agent_config: {} } as never), /agent_prompts: /],
    ['patchAgent with a bad webhook', () => client.patchAgent(AGENT, { agent_config: { webhook_url: 'not a url' } }), /agent_config\.webhook_url: /],
    ['patchAgent with a bad prompt key', () => client.patchAgent(AGENT, { agent_prompts: { prompt: { system_prompt: 'x' } } }), /prompt keys look like task_1/],
    ['createBatch without contact_number', () => client.createBatch({ agent_id: AGENT, csv: 'phone\n+1415\n' }), /csv: the CSV header needs a contact_number column/],
    ['createBatch with an empty CSV', () => client.createBatch({ agent_id: AGENT, csv: '' }), /csv: the CSV is empty/],
    ['createBatch with a non-E.164 from number', () => client.createBatch({ agent_id: AGENT, csv: 'contact_number\n', from_phone_numbers: ['4155550123'] }), /from_phone_numbers\[0\]: must be an E\.164/],
    ['scheduleBatch with an empty time', () => client.scheduleBatch(BATCH, ''), /scheduled_at: /],
    ['scheduleBatch with an invalid Date', () => client.scheduleBatch(BATCH, new Date('nope')), /not a valid date/],
    ['searchPhoneNumbers with a lowercase country', () => client.searchPhoneNumbers({ country: 'us' }), /country: country must be a two-letter code/],
    ['buyPhoneNumber with a local number', () => client.buyPhoneNumber({ country: 'US', phone_number: '415 555 0123' }), /phone_number: must be an E\.164/],
    ['createKnowledgebase with both file and url', () => client.createKnowledgebase({ url: 'https://x.test', file: { name: 'a.pdf', bytes: new Uint8Array(1) } }), /give either a PDF file or a URL/],
    ['createKnowledgebase with neither', () => client.createKnowledgebase({}), /give either a PDF file or a URL/],
    ['listAgentExecutions with page_size 100', () => client.listAgentExecutions(AGENT, { page_size: 100 }), /page_size: page_size is at most 50/],
  ];

  it.each(refused)('%s', async (_, call, message) => {
    const e = await errorOf(call());
    expect(e.kind).toBe('invalid-request');
    expect(e.status).toBe(0);
    expect(e.message).toMatch(/^The request was not sent: /);
    expect(e.message).toMatch(message);
    expect(fake.calls).toHaveLength(0);
  });
});
