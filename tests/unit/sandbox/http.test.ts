// The sandbox over HTTP: auth, route forms, error rules, limits, CORS, faults and test controls.
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorBody } from '../../../lib/api/schemas';
import { EMPTY_WALLET_KEY, OTHER_KEY, OWNER_KEY, READONLY_KEY } from '../../../sandbox/keys';
import { SEED, sampleAgentBody } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { batchForm, call, scheduledAtIn } from '../../../sandbox/testing';

const A = SEED.A;
let sb: Sandbox;
let base: string;

beforeAll(async () => {
  sb = await startSandbox({ speed: 400 });
  base = sb.url;
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

/** A route error as the client detects it: 404 with the generic message, or 405. */
const isRouteMissing = (r: { status: number; body: any }) => r.status === 405 || (r.status === 404 && r.body?.message === 'Not Found');
const expectError = (r: { status: number; body: any }, status: number, message?: RegExp | string) => {
  expect(r.status).toBe(status);
  expect(errorBody.safeParse(r.body).success).toBe(true);
  expect(typeof r.body.error).toBe('number');
  expect(typeof r.body.message).toBe('string');
  if (message) expect(r.body.message).toMatch(message);
};

async function createBatch(key = OWNER_KEY, agentId: string = A.agents.sales, rows = [{ contact_number: '+14155550123', name: 'Bob' }]) {
  const r = await call(base, 'POST', '/batches', { key, body: batchForm(agentId, rows) });
  expect(r.status).toBe(201);
  return r.body.batch_id as string;
}

describe('startSandbox', () => {
  it('answers its URL without a trailing slash and the options in effect', () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.options).toMatchObject({ host: '127.0.0.1', speed: 400, routes: 'both', rateLimitPerMinute: 1000 });
    expect(sb.options.port).toBe(Number(new URL(base).port));
  });
});

describe('auth', () => {
  it('401 when the key is missing or unknown', async () => {
    expectError(await call(base, 'GET', '/v2/agent/all', { key: null }), 401, /Missing API key/);
    expectError(await call(base, 'GET', '/v2/agent/all', { key: 'va_nope' }), 401, /Invalid API key/);
    expectError(await call(base, 'GET', '/v2/agent/all', { key: null, headers: { Authorization: 'Token x' } }), 401);
  });
  it('403 for a read-only key on a write, reads still work', async () => {
    expect((await call(base, 'GET', '/v2/agent/all', { key: READONLY_KEY })).status).toBe(200);
    expectError(await call(base, 'POST', '/v2/agent', { key: READONLY_KEY, body: sampleAgentBody() }), 403, /read-only/);
    expectError(await call(base, 'DELETE', `/v2/agent/${A.agents.sales}`, { key: READONLY_KEY }), 403);
    expectError(await call(base, 'POST', '/batches', { key: READONLY_KEY, body: batchForm(A.agents.sales, [{ contact_number: '+14155550123' }]) }), 403);
    // The spec lists numbers with a POST: a read, not a write.
    expect((await call(base, 'POST', '/phone-numbers/all', { key: READONLY_KEY })).status).toBe(200);
  });
  it("404 for another account's ids, and each account sees its own", async () => {
    expectError(await call(base, 'GET', `/v2/agent/${A.agents.sales}`, { key: OTHER_KEY }), 404, 'Agent not found');
    expectError(await call(base, 'GET', `/batches/${A.batch}`, { key: OTHER_KEY }), 404, 'Batch not found');
    expectError(await call(base, 'GET', `/executions/${A.executions.completed}`, { key: OTHER_KEY }), 404, 'Execution not found');
    const own = await call(base, 'GET', '/v2/agent/all', { key: OTHER_KEY });
    expect(own.body.map((a: { id: string }) => a.id).sort()).toEqual(Object.values(SEED.B.agents).sort());
  });
});

describe('route forms', () => {
  const specOnly = (batchId: string) => [
    ['POST', '/batches/schedule', { batch_id: batchId, scheduled_at: scheduledAtIn(180_000) }],
    ['GET', `/batches/${A.agents.sales}`],
    ['GET', `/batch/${batchId}/executions`],
    ['POST', '/phone-numbers/all'],
    ['DELETE', '/phone-numbers/delete', { id: A.phoneNumbers.secondary.id }],
  ] as const;
  const liveOnly = (batchId: string) => [
    ['POST', `/batches/${batchId}/schedule`, { scheduled_at: scheduledAtIn(180_000) }],
    ['GET', `/batches/${A.agents.sales}/all`],
    ['GET', '/phone-numbers/all'],
    ['DELETE', `/phone-numbers/${A.phoneNumbers.secondary.id}`],
    ['GET', `/v2/batches/${batchId}/executions`],
  ] as const;

  async function check(mode: 'spec' | 'live') {
    const s = await startSandbox({ routes: mode, speed: 400 });
    try {
      const batchId = (await call(s.url, 'POST', '/batches', { body: batchForm(A.agents.sales, [{ contact_number: '+14155550123' }]) })).body.batch_id;
      const [mine, theirs] = mode === 'spec' ? [specOnly(batchId), liveOnly(batchId)] : [liveOnly(batchId), specOnly(batchId)];
      for (const [method, path, body] of theirs) {
        const r = await call(s.url, method, path, { body });
        expect(isRouteMissing(r), `${mode}: ${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`).toBe(true);
        expect(errorBody.safeParse(r.body).success).toBe(true);
      }
      for (const [method, path, body] of mine) {
        const r = await call(s.url, method, path, { body });
        expect(r.status, `${mode}: ${method} ${path} → ${JSON.stringify(r.body)}`).toBe(200);
      }
    } finally {
      await s.close();
    }
  }
  it('spec mode: live-only routes are route errors, spec routes work', () => check('spec'));
  it('live mode: spec-only routes are route errors, live routes work', () => check('live'));
  it('both mode answers both forms', async () => {
    const batchId = await createBatch();
    for (const [method, path, body] of [...specOnly(batchId).slice(1, 4), ...liveOnly(batchId).slice(1, 3), liveOnly(batchId)[4]]) {
      expect((await call(base, method, path, { body })).status, `${method} ${path}`).toBe(200);
    }
  });
  it('GET /batches/:id lists an agent’s batches (spec) or reads a batch', async () => {
    const list = await call(base, 'GET', `/batches/${A.agents.sales}`);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body[0].batch_id).toBe(A.batch);
    const one = await call(base, 'GET', `/batches/${A.batch}`);
    expect(one.body).toMatchObject({ batch_id: A.batch, status: 'completed', execution_status: { completed: 1, busy: 1, 'no-answer': 1 } });
    expectError(await call(base, 'GET', '/batches/ffffffffffffffffffffffffffffffff'), 404, 'Batch not found');
  });
  it('unknown routes are a route 404 and a wrong method a 405, both JSON, before auth', async () => {
    const unknown = await call(base, 'GET', '/v3/whatever', { key: null });
    expectError(unknown, 404, /^Not Found$/);
    const wrong = await call(base, 'DELETE', `/agent/${A.agents.sales}`, { key: null });
    expectError(wrong, 405);
    expect(wrong.headers.get('allow')).toMatch(/GET/);
    // Resource 404s name the resource, so the client never mistakes them for a missing route.
    expect(isRouteMissing(await call(base, 'GET', '/v2/agent/00000000-0000-4000-8000-000000000000'))).toBe(false);
  });
});

describe('request rules', () => {
  it('missing required parameters answer 400 naming them', async () => {
    const noAgent = new FormData();
    noAgent.append('file', new Blob(['contact_number\n+14155550123\n']), 'c.csv');
    expectError(await call(base, 'POST', '/batches', { body: noAgent }), 400, 'agent_id is required');
    const noFile = new FormData();
    noFile.append('agent_id', A.agents.sales);
    expectError(await call(base, 'POST', '/batches', { body: noFile }), 400, 'file is required');
    expectError(await call(base, 'POST', '/batches/schedule', { body: { scheduled_at: scheduledAtIn(180_000) } }), 400, 'batch_id is required');
    expectError(await call(base, 'POST', `/batches/${A.batch}/schedule`, { body: {} }), 400, 'scheduled_at is required');
    expectError(await call(base, 'POST', '/v2/agent', { body: { agent_prompts: {} } }), 400, 'agent_config is required');
    expectError(await call(base, 'GET', '/phone-numbers/search'), 400, 'country is required');
  });
  it('scheduled_at: Z → 500, 90 s ahead → 400 (2-minute message), garbage → 400, +00:00 3 min ahead → 200', async () => {
    const batchId = await createBatch();
    const at = (text: string) => {
      const form = new FormData();
      form.append('scheduled_at', text);
      return call(base, 'POST', `/batches/${batchId}/schedule`, { body: form });
    };
    expectError(await at(new Date(Date.now() + 180_000).toISOString()), 500, 'internal server error');
    expectError(await at(scheduledAtIn(90_000)), 400, 'the scheduled time must be at least 2 minutes in the future');
    expectError(await at('next tuesday'), 400, /Invalid isoformat string/);
    const ok = await at(scheduledAtIn(180_000));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'success', state: 'scheduled' });
    expect((await call(base, 'GET', `/batches/${batchId}`)).body.status).toBe('scheduled');
  });
  it('the spec form of scheduling takes JSON or multipart', async () => {
    const b1 = await createBatch();
    expect((await call(base, 'POST', '/batches/schedule', { body: { batch_id: b1, scheduled_at: scheduledAtIn(200_000) } })).status).toBe(200);
    const b2 = await createBatch();
    const form = new FormData();
    form.append('batch_id', b2);
    form.append('scheduled_at', scheduledAtIn(200_000));
    expect((await call(base, 'POST', '/batches/schedule', { body: form })).status).toBe(200);
  });
  it('201 for POST /batches (32-hex id) and POST /v2/agent; deprecated POST /agent answers status', async () => {
    const batchId = await createBatch();
    expect(batchId).toMatch(/^[0-9a-f]{32}$/);
    const v2 = await call(base, 'POST', '/v2/agent', { body: sampleAgentBody('New one') });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ state: 'created' });
    const old = await call(base, 'POST', '/agent', { body: sampleAgentBody('Old style') });
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ status: 'created' });
    const read = await call(base, 'GET', `/v2/agent/${v2.body.agent_id}`);
    expect(read.body.agent_name).toBe('New one');
    expect(['seeding', 'processed']).toContain(read.body.agent_status);
    await new Promise((r) => setTimeout(r, 2000 / 400 + 30));
    expect((await call(base, 'GET', `/v2/agent/${v2.body.agent_id}`)).body.agent_status).toBe('processed');
  });
  it('422 for a from-number the account does not own and for a non-E.164 contact', async () => {
    const notOwned = batchForm(A.agents.sales, [{ contact_number: '+14155550123' }], { from_phone_numbers: SEED.B.phoneNumbers.primary.phone_number });
    expectError(await call(base, 'POST', '/batches', { body: notOwned }), 422, /not owned/);
    const badContact = batchForm(A.agents.sales, [{ contact_number: '+14155550123' }, { contact_number: '4155550123' }]);
    expectError(await call(base, 'POST', '/batches', { body: badContact }), 422, /line 3 is not an E\.164/);
    const owned = batchForm(A.agents.sales, [{ contact_number: '+14155550123' }], {
      from_phone_numbers: [A.phoneNumbers.primary.phone_number, A.phoneNumbers.secondary.phone_number],
    });
    const created = await call(base, 'POST', '/batches', { body: owned });
    expect(created.status).toBe(201);
    const batch = await call(base, 'GET', `/batches/${created.body.batch_id}`);
    expect(batch.body.from_phone_numbers).toEqual([A.phoneNumbers.primary.phone_number, A.phoneNumbers.secondary.phone_number]);
    const older = batchForm(A.agents.sales, [{ contact_number: '+14155550123' }], { from_phone_number: A.phoneNumbers.secondary.phone_number });
    expect((await call(base, 'POST', '/batches', { body: older })).status).toBe(201);
  });
  it('a CSV without contact_number, or a bad retry_config, is a 400', async () => {
    const form = new FormData();
    form.append('agent_id', A.agents.sales);
    form.append('file', new Blob(['phone,name\n+14155550123,Bob\n']), 'c.csv');
    expectError(await call(base, 'POST', '/batches', { body: form }), 400, /contact_number/);
    const retry = batchForm(A.agents.sales, [{ contact_number: '+14155550123' }], { retry_config: '{oops' });
    expectError(await call(base, 'POST', '/batches', { body: retry }), 400, /retry_config/);
  });
  it('PUT replaces the whole agent (both fields required), PATCH answers {message, state}', async () => {
    const id = A.agents.reminder;
    expectError(await call(base, 'PUT', `/v2/agent/${id}`, { body: { agent_config: { agent_name: 'x' } } }), 400, 'agent_prompts is required');
    const put = await call(base, 'PUT', `/agent/${id}`, { body: { agent_config: { agent_name: 'Bare' }, agent_prompts: { task_1: { system_prompt: 'p' } } } });
    expect(put.body).toEqual({ agent_id: id, status: 'updated' });
    const read = await call(base, 'GET', `/agent/${id}`);
    expect(read.body).toMatchObject({ agent_name: 'Bare', tasks: [], agent_welcome_message: null });
    const patch = await call(base, 'PATCH', `/v2/agent/${id}`, { body: { agent_config: { webhook_url: 'http://127.0.0.1:9/hook', agent_name: 'Patched' } } });
    expect(patch.body).toEqual({ message: 'success', state: 'updated' });
    expect((await call(base, 'GET', `/v2/agent/${id}`)).body).toMatchObject({ agent_name: 'Patched', webhook_url: 'http://127.0.0.1:9/hook' });
    expectError(await call(base, 'PATCH', `/v2/agent/${id}`, { body: { agent_config: { webhook_url: 'not a url' } } }), 400, /webhook_url/);
  });
  it('stop answers 404 "Batch is not queued or running" when nothing runs', async () => {
    expectError(await call(base, 'POST', `/batches/${A.batch}/stop`), 404, 'Batch is not queued or running');
  });
  it('v2 agent executions: envelope with paging and filters', async () => {
    const page = await call(base, 'GET', `/v2/agent/${A.agents.sales}/executions?page_size=2`);
    expect(page.body).toMatchObject({ page_number: 1, page_size: 2, total: 3, has_more: true });
    expect(page.body.data).toHaveLength(2);
    const busy = await call(base, 'GET', `/v2/agent/${A.agents.sales}/executions?status=busy`);
    expect(busy.body.data.map((e: { id: string }) => e.id)).toEqual([A.executions.busy]);
    expectError(await call(base, 'GET', `/v2/agent/${A.agents.sales}/executions?page_size=51`), 400, /page_size/);
    const from = new Date(Date.now() - 10 * 86_400_000).toISOString();
    expectError(await call(base, 'GET', `/v2/agent/${A.agents.sales}/executions?from=${from}&to=${new Date().toISOString()}`), 400, /7 days/);
    const bare = await call(base, 'GET', `/agent/${A.agents.sales}/executions`);
    expect(Array.isArray(bare.body)).toBe(true);
  });
});

describe('rate limit', () => {
  it('429 with Retry-After over the per-key limit; other keys unaffected', async () => {
    const s = await startSandbox({ rateLimitPerMinute: 3 });
    try {
      for (let i = 0; i < 3; i++) expect((await call(s.url, 'GET', '/user/me')).status).toBe(200);
      const over = await call(s.url, 'GET', '/user/me');
      expectError(over, 429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await call(s.url, 'GET', '/user/me', { key: OTHER_KEY })).status).toBe(200);
      s.reset();
      expect((await call(s.url, 'GET', '/user/me')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('CORS', () => {
  it('answers preflights from any origin and sets Allow-Origin * on every answer', async () => {
    const pre = await fetch(`${base}/batches`, {
      method: 'OPTIONS',
      headers: { Origin: 'chrome-extension://abc', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
    expect(pre.headers.get('access-control-allow-methods')).toMatch(/PATCH/);
    for (const r of [await fetch(`${base}/v2/agent/all`), await fetch(`${base}/nope`), await fetch(`${base}/v2/agent/all`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })]) {
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
    }
  });
});

describe('test controls', () => {
  const control = (method: string, path: string, body?: unknown) => call(base, method, `/__sandbox/${path}`, { key: null, body });

  it('faults: answer a status with Retry-After for the next N matching requests, then normal', async () => {
    const armed = await control('POST', 'faults', { method: 'GET', path: '^/user/me$', status: 503, count: 2, retryAfter: 7 });
    expect(armed.status).toBe(200);
    const first = await call(base, 'GET', '/user/me');
    expectError(first, 503);
    expect(first.headers.get('retry-after')).toBe('7');
    expect((await call(base, 'GET', '/user/me')).status).toBe(503);
    expect((await call(base, 'GET', '/user/me')).status).toBe(200);
    // Method filter: a POST to a matching path is untouched.
    await control('POST', 'faults', { method: 'POST', path: '^/user/me$', status: 500, count: 1 });
    expect((await call(base, 'GET', '/user/me')).status).toBe(200);
    expect((await control('GET', 'faults')).body.faults).toHaveLength(1);
    await control('DELETE', 'faults');
    expect((await control('GET', 'faults')).body.faults).toHaveLength(0);
  });
  it('faults: drop destroys the connection without an answer; delay delays; body replaces the error', async () => {
    await control('POST', 'faults', { path: '^/v2/agent/all$', drop: true, count: 1 });
    await expect(fetch(`${base}/v2/agent/all`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).rejects.toThrow();
    expect((await call(base, 'GET', '/v2/agent/all')).status).toBe(200);
    await control('POST', 'faults', { path: '^/user/me$', delayMs: 300, count: 1 });
    const t0 = Date.now();
    expect((await call(base, 'GET', '/user/me')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
    await control('POST', 'faults', { path: '^/user/me$', status: 403, body: { detail: 'Invalid token' } });
    expect(await call(base, 'GET', '/user/me')).toMatchObject({ status: 403, body: { detail: 'Invalid token' } });
    expectError(await control('POST', 'faults', { path: '(' }), 400, /regular expression/);
  });
  it('faults: dropAfter lets the route run, then loses its answer (the batch exists, the schedule took)', async () => {
    await control('POST', 'faults', { method: 'POST', path: '^/batches$', dropAfter: true, status: 503 });
    const form = batchForm(A.agents.sales, [{ contact_number: '+14155550123' }]);
    // The answer starts (so a browser does not send the request again by itself), then is cut.
    await expect(fetch(`${base}/batches`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER_KEY}` }, body: form }).then((r) => r.text())).rejects.toThrow();
    const all = (await call(base, 'GET', `/batches/${A.agents.sales}/all`)).body as { batch_id: string; status: string; file_name: string }[];
    const made = all.filter((b) => b.file_name === 'contacts.csv' && b.status === 'created');
    expect(made).toHaveLength(1);
    expect(made[0]!.status).toBe('created');
    const scheduleForm = new FormData();
    scheduleForm.append('scheduled_at', scheduledAtIn(3 * 60_000));
    await control('POST', 'faults', { method: 'POST', path: '/schedule$', dropAfter: true });
    const lost = fetch(`${base}/batches/${made[0]!.batch_id}/schedule`, { method: 'POST', headers: { Authorization: `Bearer ${OWNER_KEY}` }, body: scheduleForm });
    await expect(lost.then((r) => r.text())).rejects.toThrow();
    expect((await call(base, 'GET', `/batches/${made[0]!.batch_id}`)).body.status).toBe('scheduled');
    const log = (await control('GET', 'requests?method=POST')).body as { path: string; status: number; fault?: boolean }[];
    expect(log.map((r) => [r.path.replace(/[0-9a-f]{32}/, 'B'), r.status, r.fault])).toEqual([
      ['/batches', 0, true],
      ['/batches/B/schedule', 0, true],
    ]);
    // Used up: the next request answers normally.
    expect((await call(base, 'POST', '/batches', { body: batchForm(A.agents.sales, [{ contact_number: '+14155550123' }]) })).status).toBe(201);
  });
  it('faults: a long delay holds a request open until released; the call timers are left alone', async () => {
    await control('POST', 'faults', { path: '^/user/me$', delayMs: 120_000 });
    const held = call(base, 'GET', '/user/me');
    // Taken: the fault is no longer armed while its request waits.
    for (let i = 0; i < 200 && (await control('GET', 'faults')).body.faults.length; i++) await new Promise((r) => setTimeout(r, 5));
    expect((await control('GET', 'faults')).body.faults).toEqual([]);
    const pending = (await control('GET', 'clock')).body.pending_timers;
    expect((await control('POST', 'faults/release')).body).toEqual({ released: 1 });
    expect((await held).status).toBe(200);
    expect((await control('GET', 'clock')).body.pending_timers).toBe(pending - 1);
  });
  it('requests log counts requests since reset, with status (0 = dropped)', async () => {
    await call(base, 'GET', '/user/me');
    await call(base, 'GET', '/nope');
    await control('POST', 'faults', { path: '^/user/me$', drop: true });
    await fetch(`${base}/user/me`).catch(() => undefined);
    const log = (await control('GET', 'requests')).body;
    expect(log.map((r: { method: string; path: string; status: number }) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/user/me', 200],
      ['GET', '/nope', 404],
      ['GET', '/user/me', 0],
    ]);
    expect(log[0].at).toMatch(/^\d{4}-/);
    expect((await control('GET', 'requests?path=^/user')).body).toHaveLength(2);
    await control('POST', 'reset');
    expect((await control('GET', 'requests')).body).toHaveLength(0);
  });
  it('reset reseeds: deleted seed data comes back, created data is gone', async () => {
    await call(base, 'DELETE', `/v2/agent/${A.agents.survey}`);
    const created = await call(base, 'POST', '/v2/agent', { body: sampleAgentBody() });
    await control('POST', 'reset');
    expect((await call(base, 'GET', `/v2/agent/${A.agents.survey}`)).status).toBe(200);
    expect((await call(base, 'GET', `/v2/agent/${created.body.agent_id}`)).status).toBe(404);
  });
  it('clock: speed can change at run time', async () => {
    expect((await control('POST', 'clock', { speed: 50 })).body.speed).toBe(50);
    expect(sb.options.speed).toBe(50);
    expectError(await control('POST', 'clock', { speed: -1 }), 400);
    await control('POST', 'clock', { speed: 400 });
  });
  it('controls answer only loopback clients', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    if (!external) return; // no non-loopback interface on this machine
    const s = await startSandbox({ host: '0.0.0.0' });
    try {
      const port = s.options.port;
      const outside = await fetch(`http://${external}:${port}/__sandbox/requests`);
      expect(outside.status).toBe(404);
      expect(await outside.json()).toEqual({ error: 404, message: 'Not Found' });
      expect((await fetch(`http://127.0.0.1:${port}/__sandbox/requests`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('phone numbers and knowledgebases', () => {
  it('search, buy (E.164, 422 otherwise), list, delete by body, query and path', async () => {
    const offers = await call(base, 'GET', '/phone-numbers/search?country=US&pattern=212');
    expect(offers.body.length).toBeGreaterThan(0);
    expect(offers.body[0].phone_number).toMatch(/^\+1212/);
    expectError(await call(base, 'POST', '/phone-numbers/buy', { body: { country: 'US', phone_number: '2125550100' } }), 422);
    const bought = await call(base, 'POST', '/phone-numbers/buy', { body: { country: 'US', phone_number: offers.body[0].phone_number } });
    expect(bought.body).toMatchObject({ phone_number: offers.body[0].phone_number, rented: true });
    expect((await call(base, 'GET', '/phone-numbers/all')).body).toHaveLength(3);
    expect((await call(base, 'DELETE', `/phone-numbers/delete?phone_number=${encodeURIComponent(offers.body[0].phone_number)}`)).body).toEqual({ message: 'success', state: 'deleted' });
    expect((await call(base, 'DELETE', '/phone-numbers/delete', { body: { id: A.phoneNumbers.primary.id } })).status).toBe(200);
    expect((await call(base, 'DELETE', `/phone-numbers/${A.phoneNumbers.secondary.id}`)).status).toBe(200);
    expect((await call(base, 'POST', '/phone-numbers/all')).body).toEqual([]);
    expectError(await call(base, 'DELETE', `/phone-numbers/${A.phoneNumbers.secondary.id}`), 404, 'Phone number not found');
    expectError(await call(base, 'POST', '/phone-numbers/buy', { key: EMPTY_WALLET_KEY, body: { country: 'US', phone_number: '+12125559876' } }), 400, /balance/);
  });
  it('ingests a PDF or a URL (not both), processing → processed, or → error for a source it cannot read', async () => {
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4\n%fake\n%%EOF\n']), 'faq.pdf');
    const ingest = await call(base, 'POST', '/knowledgebase', { body: form });
    const truncated = new FormData();
    truncated.append('file', new Blob(['%PDF-1.4\n1 0 obj\n']), 'cut.pdf');
    const cut = await call(base, 'POST', '/knowledgebase', { body: truncated });
    expect(cut.body).toMatchObject({ file_name: 'cut.pdf', status: 'processing' });
    const nowhere = new FormData();
    nowhere.append('url', 'https://docs.example.invalid/faq');
    const unreachable = await call(base, 'POST', '/knowledgebase', { body: nowhere });
    expect(unreachable.body).toMatchObject({ source_type: 'url', status: 'processing' });
    expect(ingest.body).toMatchObject({ file_name: 'faq.pdf', source_type: 'pdf', status: 'processing' });
    const both = new FormData();
    both.append('file', new Blob(['%PDF-1.4\n']), 'a.pdf');
    both.append('url', 'https://example.com/doc');
    expectError(await call(base, 'POST', '/knowledgebase', { body: both }), 400, /not both/);
    const notPdf = new FormData();
    notPdf.append('file', new Blob(['hello']), 'a.pdf');
    expectError(await call(base, 'POST', '/knowledgebase', { body: notPdf }), 400, /PDF/);
    await new Promise((r) => setTimeout(r, 3000 / 400 + 50));
    expect((await call(base, 'GET', `/knowledgebase/${ingest.body.rag_id}`)).body.status).toBe('processed');
    expect((await call(base, 'GET', `/knowledgebase/${cut.body.rag_id}`)).body).toMatchObject({ status: 'error', error_message: /%%EOF/ });
    expect((await call(base, 'GET', `/knowledgebase/${unreachable.body.rag_id}`)).body).toMatchObject({ status: 'error', error_message: /could not be fetched/ });
    expect((await call(base, 'GET', '/knowledgebase/all')).body).toHaveLength(4);
    expect((await call(base, 'DELETE', `/knowledgebase/${A.knowledgebase}`)).body).toEqual({ message: 'success', state: 'deleted' });
    expectError(await call(base, 'GET', `/knowledgebase/${A.knowledgebase}`), 404, 'Knowledgebase not found');
  });
  it('GET /user/me answers the account and its wallet', async () => {
    expect((await call(base, 'GET', '/user/me')).body).toMatchObject({ id: SEED.A.userId, wallet: 1250.75, concurrency: { max: 10, current: 0 } });
    expect((await call(base, 'GET', '/user/me', { key: EMPTY_WALLET_KEY })).body.wallet).toBe(0);
  });
});
