// The fault proxy used by the fault e2e test and bench: it must pass everything through untouched,
// inject each kind of fault as stated (before or after the sandbox sees the request), and do so
// reproducibly from its seed.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OWNER_KEY } from '../../../sandbox/keys';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { batchForm, call } from '../../../sandbox/testing';
import { chooseFault, DEFAULT_MIX, FAULT_KINDS, seededRandom, startFaultProxy, type FaultKind, type FaultProxy } from '../../support/fault-proxy';

const AGENT = SEED.A.agents.sales;
let sb: Sandbox;
const proxies: FaultProxy[] = [];

beforeAll(async () => {
  sb = await startSandbox({ speed: 400 });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

/** Names a request by the number in its body, as the fault run does. */
const label = (_m: string, _p: string, body: Buffer) => body.toString().match(/\+1415\d{7}/)?.[0];

async function proxy(opts: { seed?: number; rate?: number; only?: FaultKind; delayMs?: [number, number] } = {}): Promise<FaultProxy> {
  const mix = opts.only ? { [opts.only]: 1 } : DEFAULT_MIX;
  const p = await startFaultProxy({ target: sb.url, seed: opts.seed ?? 1, rate: opts.rate ?? 0, mix, delayMs: opts.delayMs, label });
  proxies.push(p);
  return p;
}

/** What the sandbox itself logged (its own truth, read directly). */
async function sandboxLog(): Promise<{ method: string; path: string; status: number }[]> {
  return (await fetch(`${sb.url}/__sandbox/requests`)).json();
}

/** The sandbox's batches of the agent (the seed has some). */
async function sandboxBatches(): Promise<{ batch_id: string; file_name: string }[]> {
  return (await call(sb.url, 'GET', `/batches/${AGENT}/all`)).body;
}

/** Batches whose row calls `number`, read from the sandbox directly. */
async function batchesCalling(number: string): Promise<string[]> {
  const found: string[] = [];
  for (const batch of await sandboxBatches()) {
    const rows: { telephony_data?: { to_number?: string } }[] = (await call(sb.url, 'GET', `/batches/${batch.batch_id}/executions`)).body;
    if (rows.some((r) => r.telephony_data?.to_number === number)) found.push(batch.batch_id);
  }
  return found;
}
const NUMBER = '+14155550199';

/** A network-level failure (no HTTP answer at all), as the extension's fetch would see it. */
async function expectDropped(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toThrow(/fetch failed|socket|ECONNRESET|other side closed/i);
}

describe('chooseFault', () => {
  it('hits about the given share of requests, with every kind of the mix', () => {
    const random = seededRandom(42);
    const picks = Array.from({ length: 20_000 }, () => chooseFault(random, 0.2));
    const hits = picks.filter((p) => p !== null);
    expect(hits.length / picks.length).toBeGreaterThan(0.18);
    expect(hits.length / picks.length).toBeLessThan(0.22);
    for (const kind of FAULT_KINDS) expect(hits.filter((h) => h.kind === kind).length).toBeGreaterThan(hits.length / FAULT_KINDS.length / 2);
    // Delays are seconds; Retry-After is whole seconds.
    for (const h of hits.filter((h) => h.kind === 'delay')) expect(h.delayMs).toBeGreaterThanOrEqual(1000);
    for (const h of hits.filter((h) => h.kind === 'status-429')) expect([1, 2]).toContain(h.retryAfterSeconds);
  });

  it('is the same sequence for the same seed, another for another seed; rate 0 never faults', () => {
    const run = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 200 }, () => chooseFault(random, 0.2)?.kind ?? null);
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    const random = seededRandom(7);
    expect(Array.from({ length: 500 }, () => chooseFault(random, 0)).every((c) => c === null)).toBe(true);
  });

  it('draws the same amount per request whatever the rate, so a later request keeps its fate', () => {
    const a = seededRandom(3);
    const b = seededRandom(3);
    chooseFault(a, 0);
    chooseFault(b, 1);
    expect(chooseFault(a, 0.5)).toEqual(chooseFault(b, 0.5));
  });
});

describe('the proxy', () => {
  it('passes a multipart batch through: the CSV file and its name reach the sandbox', async () => {
    const p = await proxy();
    // A named file with a quoted field (comma and quotes inside), as the extension sends it.
    const form = batchForm(AGENT, [{ contact_number: NUMBER }]);
    form.set('file', new Blob([`contact_number,name\n${NUMBER},"Ada, ""the first"""\n`], { type: 'text/csv' }), 'call-abc.csv');
    const created = await call(p.url, 'POST', '/batches', { body: form });
    expect(created.status).toBe(201);
    expect(await batchesCalling(NUMBER)).toEqual([created.body.batch_id]);
    expect((await sandboxBatches()).find((b) => b.batch_id === created.body.batch_id)?.file_name).toBe('call-abc.csv');
    const [row] = (await call(sb.url, 'GET', `/batches/${created.body.batch_id}/executions`)).body;
    const full = (await call(p.url, 'GET', `/executions/${row.id}`)).body;
    expect(full.context_details.recipient_data).toEqual({ name: 'Ada, "the first"' });
    expect(full.telephony_data.to_number).toBe(NUMBER);
  });

  it('passes status, headers and query through: auth errors, X-Sandbox-Speed, the sandbox’s own 429 with Retry-After', async () => {
    const limited = await startSandbox({ speed: 400, rateLimitPerMinute: 1 });
    const p = await startFaultProxy({ target: limited.url, seed: 1, rate: 0 });
    proxies.push(p);
    try {
      const unauthorised = await call(p.url, 'GET', '/v2/agent/all', { key: null });
      expect(unauthorised.status).toBe(401);
      expect(unauthorised.body.message).toMatch(/Missing API key/);
      const first = await call(p.url, 'GET', '/v2/agent/all?x=1');
      expect(first.status).toBe(200);
      expect(first.headers.get('x-sandbox-speed')).toBe('400');
      expect(first.headers.get('access-control-allow-origin')).toBe('*');
      const second = await call(p.url, 'GET', '/v2/agent/all');
      expect(second.status).toBe(429);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
      const seen = (await (await fetch(`${limited.url}/__sandbox/requests`)).json()) as { path: string; query?: string; status: number }[];
      expect(seen.map((r) => [r.path, r.query, r.status])).toEqual([
        ['/v2/agent/all', undefined, 401],
        ['/v2/agent/all', 'x=1', 200],
        ['/v2/agent/all', undefined, 429],
      ]);
      expect(p.log).toEqual([]);
      expect(p.requests).toBe(3);
    } finally {
      await limited.close();
    }
  });

  it('a 429 fault answers Retry-After without reaching the sandbox', async () => {
    const p = await proxy({ rate: 1, only: 'status-429' });
    const res = await call(p.url, 'POST', '/batches', { body: batchForm(AGENT, [{ contact_number: NUMBER }]) });
    expect(res.status).toBe(429);
    expect(['1', '2']).toContain(res.headers.get('retry-after'));
    expect(res.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    expect(res.body).toMatchObject({ error: 429, message: expect.any(String) });
    expect(await sandboxLog()).toEqual([]);
    expect(await batchesCalling(NUMBER)).toEqual([]);
    expect(p.log).toMatchObject([{ kind: 'status-429', method: 'POST', path: '/batches', request: 1, retryAfterSeconds: Number(res.headers.get('retry-after')) }]);
  });

  it.each(['status-502', 'status-503', 'status-504'] as const)('a %s fault answers that status without reaching the sandbox', async (kind) => {
    const p = await proxy({ rate: 1, only: kind });
    const res = await call(p.url, 'GET', '/v2/agent/all');
    expect(res.status).toBe(Number(kind.slice(-3)));
    expect(res.body).toMatchObject({ error: res.status });
    expect(await sandboxLog()).toEqual([]);
    expect(p.countByKind()[kind]).toBe(1);
  });

  it('a dropped request never reaches the sandbox: no batch is created', async () => {
    const p = await proxy({ rate: 1, only: 'drop-request' });
    await expectDropped(call(p.url, 'POST', '/batches', { body: batchForm(AGENT, [{ contact_number: NUMBER }]) }));
    expect(await sandboxLog()).toEqual([]);
    expect(await batchesCalling(NUMBER)).toEqual([]);
    expect(p.log).toMatchObject([{ kind: 'drop-request', method: 'POST', path: '/batches' }]);
  });

  it('a dropped answer comes after the sandbox processed the request: the batch exists, the client heard nothing', async () => {
    const p = await proxy({ rate: 1, only: 'drop-answer' });
    await expectDropped(call(p.url, 'POST', '/batches', { body: batchForm(AGENT, [{ contact_number: NUMBER }]) }));
    expect((await sandboxLog()).map((r) => [r.method, r.path, r.status])).toEqual([['POST', '/batches', 201]]);
    expect(await batchesCalling(NUMBER)).toHaveLength(1);
    expect(p.log).toMatchObject([{ kind: 'drop-answer', method: 'POST', path: '/batches', label: NUMBER }]);
  });

  it('a delay holds the request for the chosen time, then the sandbox answers normally', async () => {
    const p = await proxy({ rate: 1, only: 'delay', delayMs: [300, 300] });
    const started = Date.now();
    const res = await call(p.url, 'GET', `/v2/agent/${AGENT}`);
    // A lower bound only: the proxy cannot answer before the delay it chose.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(AGENT);
    expect(p.log).toMatchObject([{ kind: 'delay', delayMs: 300, method: 'GET', path: `/v2/agent/${AGENT}` }]);
  });

  it('never faults the sandbox’s test controls, and does not count them as service requests', async () => {
    const p = await proxy({ rate: 1, only: 'drop-request' });
    expect((await fetch(`${p.url}/__sandbox/requests`)).status).toBe(200);
    expect((await fetch(`${p.url}/__sandbox/clock`)).status).toBe(200);
    expect(p.log).toEqual([]);
    expect(p.requests).toBe(0);
  });

  it('the same seed and the same requests give the same faults, whatever the timing', async () => {
    const run = async (seed: number) => {
      sb.reset();
      const p = await proxy({ seed, rate: 0.5, delayMs: [1, 5] });
      for (let i = 0; i < 30; i++) await call(p.url, 'GET', `/v2/agent/${AGENT}?i=${i}`).catch(() => undefined);
      return p.log.map((f) => [f.request, f.kind, f.path]);
    };
    const first = await run(11);
    expect(first.length).toBeGreaterThan(5);
    expect(await run(11)).toEqual(first);
    expect(await run(12)).not.toEqual(first);
  });
});
