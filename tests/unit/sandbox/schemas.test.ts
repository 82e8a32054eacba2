// Every route, in every route mode, answers bodies that parse with the lib/api schemas; every error is {error, message}.
import { afterAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../../lib/api/schemas';
import { OTHER_KEY, OWNER_KEY, READONLY_KEY } from '../../../sandbox/keys';
import { routeEnabled, type RoutesMode } from '../../../sandbox/router';
import { ROUTES } from '../../../sandbox/routes';
import { SEED, sampleAgentBody } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { batchForm, call, scheduledAtIn } from '../../../sandbox/testing';

const A = SEED.A;

interface State {
  agentId?: string;
  oldAgentId?: string;
  batchId?: string;
  recordingPath?: string;
  boughtId?: string;
  ragId?: string;
  callExecutionId?: string;
}

interface Step {
  route: string;
  path: (s: State) => string;
  body?: (s: State) => unknown;
  expect?: number;
  capture?: (body: any, s: State) => void;
  /** Runs first (e.g. slows the sandbox clock so a call stays queued for the next step). */
  before?: (base: string) => Promise<unknown>;
}

const setSpeed = (speed: number) => (base: string) => call(base, 'POST', '/__sandbox/clock', { key: null, body: { speed } });

const scheduleForm = (s: State, withBatchId: boolean) => {
  const form = new FormData();
  if (withBatchId) form.append('batch_id', s.batchId!);
  form.append('scheduled_at', scheduledAtIn(200_000));
  return form;
};

/** One request per route, in an order where later steps use what earlier ones created. */
const STEPS: Step[] = [
  { route: 'GET /v2/agent/all', path: () => '/v2/agent/all' },
  { route: 'POST /v2/agent', path: () => '/v2/agent', body: () => sampleAgentBody('Schema v2'), expect: 201, capture: (b, s) => (s.agentId = b.agent_id) },
  { route: 'GET /v2/agent/:agent_id', path: (s) => `/v2/agent/${s.agentId}` },
  { route: 'PUT /v2/agent/:agent_id', path: (s) => `/v2/agent/${s.agentId}`, body: () => sampleAgentBody('Schema v2 replaced') },
  { route: 'PATCH /v2/agent/:agent_id', path: (s) => `/v2/agent/${s.agentId}`, body: () => ({ agent_config: { agent_welcome_message: 'Hi!' }, agent_prompts: { task_1: { system_prompt: 'x' } } }) },
  { route: 'GET /v2/agent/:agent_id/executions', path: () => `/v2/agent/${A.agents.sales}/executions?page_number=1&page_size=2` },
  { route: 'POST /agent', path: () => '/agent', body: () => sampleAgentBody('Schema old'), capture: (b, s) => (s.oldAgentId = b.agent_id) },
  { route: 'GET /agent/:agent_id', path: (s) => `/agent/${s.oldAgentId}` },
  { route: 'PUT /agent/:agent_id', path: (s) => `/agent/${s.oldAgentId}`, body: () => sampleAgentBody('Schema old replaced') },
  { route: 'PATCH /agent/:agent_id', path: (s) => `/agent/${s.oldAgentId}`, body: () => ({ agent_config: { agent_name: 'Patched' } }) },
  { route: 'GET /agent/:agent_id/executions', path: () => `/agent/${A.agents.sales}/executions` },
  {
    route: 'POST /batches',
    path: () => '/batches',
    body: () => batchForm(A.agents.sales, [{ contact_number: '+14155550123', name: 'Ann' }, { contact_number: '+14155551001', name: 'Bo' }], { retry_config: '{"max_retries":1}' }),
    expect: 201,
    capture: (b, s) => (s.batchId = b.batch_id),
  },
  { route: 'POST /batches/schedule', path: () => '/batches/schedule', body: (s) => scheduleForm(s, true) },
  { route: 'POST /batches/:batch_id/schedule', path: (s) => `/batches/${s.batchId}/schedule`, body: (s) => scheduleForm(s, false) },
  { route: 'GET /batches/:agent_id', path: () => `/batches/${A.agents.sales}` },
  { route: 'GET /batches/:batch_id', path: (s) => `/batches/${s.batchId}` },
  { route: 'GET /batches/:agent_id/all', path: () => `/batches/${A.agents.sales}/all` },
  { route: 'GET /batches/:batch_id/executions', path: (s) => `/batches/${s.batchId}/executions` },
  { route: 'GET /v2/batches/:batch_id/executions', path: (s) => `/v2/batches/${s.batchId}/executions?page_size=1` },
  { route: 'GET /batch/:batch_id/executions', path: (s) => `/batch/${s.batchId}/executions` },
  { route: 'POST /batches/:batch_id/stop', path: (s) => `/batches/${s.batchId}/stop` },
  { route: 'DELETE /batches/:batch_id', path: (s) => `/batches/${s.batchId}` },
  {
    route: 'POST /call',
    path: () => '/call',
    body: () => ({ agent_id: A.agents.sales, recipient_phone_number: '+14155550123', user_data: { name: 'Ann' } }),
    // Held in queued (an hour at this speed), so the stop below finds it stoppable.
    before: setSpeed(0.001),
    capture: (b, s) => (s.callExecutionId = b.execution_id),
  },
  { route: 'POST /call/:execution_id/stop', path: (s) => `/call/${s.callExecutionId}/stop` },
  {
    route: 'GET /executions/:execution_id',
    path: () => `/executions/${A.executions.completed}`,
    before: setSpeed(50),
    capture: (b, s) => {
      const url = new URL(b.telephony_data.recording_url);
      s.recordingPath = url.pathname + url.search;
    },
  },
  { route: 'GET /executions/:execution_id/log', path: () => `/executions/${A.executions.completed}/log` },
  { route: 'GET /recordings/:file', path: (s) => s.recordingPath! },
  { route: 'POST /phone-numbers/all', path: () => '/phone-numbers/all' },
  { route: 'GET /phone-numbers/all', path: () => '/phone-numbers/all' },
  { route: 'GET /phone-numbers/search', path: () => '/phone-numbers/search?country=US&pattern=415' },
  { route: 'POST /phone-numbers/buy', path: () => '/phone-numbers/buy', body: () => ({ country: 'US', phone_number: '+14155552001' }), capture: (b, s) => (s.boughtId = b.id) },
  { route: 'DELETE /phone-numbers/delete', path: () => '/phone-numbers/delete', body: (s) => ({ id: s.boughtId }) },
  { route: 'DELETE /phone-numbers/:phone_number_id', path: () => `/phone-numbers/${A.phoneNumbers.secondary.id}` },
  {
    route: 'POST /knowledgebase',
    path: () => '/knowledgebase',
    body: () => {
      const form = new FormData();
      form.append('url', 'https://example.com/handbook');
      form.append('chunk_size', '256');
      return form;
    },
    capture: (b, s) => (s.ragId = b.rag_id),
  },
  { route: 'GET /knowledgebase/all', path: () => '/knowledgebase/all' },
  { route: 'GET /knowledgebase/:rag_id', path: (s) => `/knowledgebase/${s.ragId}` },
  { route: 'DELETE /knowledgebase/:rag_id', path: (s) => `/knowledgebase/${s.ragId}` },
  { route: 'GET /user/me', path: () => '/user/me' },
  { route: 'DELETE /v2/agent/:agent_id', path: (s) => `/v2/agent/${s.agentId}` },
];

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

describe('route table', () => {
  it('every route of the table has exactly one step here (so none escapes the schema check)', () => {
    expect(STEPS.map((s) => s.route).sort()).toEqual(ROUTES.map((r) => r.id).sort());
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
  });
});

describe.each(['both', 'spec', 'live'] as RoutesMode[])('routes=%s', (mode) => {
  it('each enabled route answers a body that parses with its schema', async () => {
    const sb = await startSandbox({ routes: mode, speed: 50 });
    sandboxes.push(sb);
    const state: State = {};
    let checked = 0;
    for (const step of STEPS) {
      const def = ROUTES.find((r) => r.id === step.route)!;
      if (!routeEnabled(def, mode)) continue;
      await step.before?.(sb.url);
      const res = await call(sb.url, def.method, step.path(state), { body: step.body?.(state) });
      expect(res.status, `${step.route} → ${JSON.stringify(res.body)}`).toBe(step.expect ?? 200);
      if (def.schema) {
        const parsed = def.schema.safeParse(res.body);
        expect(parsed.success, `${step.route}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`).toBe(true);
      } else {
        expect(res.headers.get('content-type')).toBe('audio/wav');
      }
      step.capture?.(res.body, state);
      checked++;
    }
    expect(checked).toBe(ROUTES.filter((r) => routeEnabled(r, mode)).length);
  });
});

describe('error bodies', () => {
  it('every 4xx/5xx the API sends is JSON {error: int, message: string}', async () => {
    const sb = await startSandbox({ rateLimitPerMinute: 40 });
    sandboxes.push(sb);
    const cases: Array<[number, string, string, { key?: string | null; body?: unknown }?]> = [
      [401, 'GET', '/v2/agent/all', { key: null }],
      [401, 'GET', '/v2/agent/all', { key: 'wrong' }],
      [403, 'POST', '/v2/agent', { key: READONLY_KEY, body: sampleAgentBody() }],
      [404, 'GET', `/v2/agent/${A.agents.sales}`, { key: OTHER_KEY }],
      [404, 'GET', '/does/not/exist'],
      [405, 'PUT', '/batches'],
      [400, 'POST', '/v2/agent', { body: { agent_config: {} } }],
      [400, 'POST', '/batches', { body: new FormData() }],
      [400, 'POST', `/batches/${A.batch}/schedule`, { body: { scheduled_at: 'soon' } }],
      [400, 'POST', '/v2/agent', { body: 'not json' as unknown }],
      [422, 'POST', '/phone-numbers/buy', { body: { country: 'US', phone_number: '555' } }],
      [404, 'POST', `/batches/${A.batch}/stop`],
      [500, 'POST', `/batches/${A.batch}/schedule`, { body: { scheduled_at: '2030-01-01T00:00:00Z' } }],
    ];
    for (const [status, method, path, opts] of cases) {
      const res = await call(sb.url, method, path, { key: OWNER_KEY, ...opts });
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(errorBody.safeParse(res.body).success).toBe(true);
      expect(Number.isInteger(res.body.error), `${method} ${path}`).toBe(true);
      expect(typeof res.body.message).toBe('string');
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
    }
    let last;
    for (let i = 0; i < 40; i++) last = await call(sb.url, 'GET', '/user/me');
    expect(last!.status).toBe(429);
    expect(last!.body).toEqual({ error: 429, message: expect.stringMatching(/rate limit/) });
  });
});
