// The sandbox's agent-executions route as the Executions section uses it (filters, window, paging) and its wallet control.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OWNER_KEY } from '../../../sandbox/keys';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { call } from '../../../sandbox/testing';

const A = SEED.A;
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ speed: 400 });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const list = (query: string) => call(sb.url, 'GET', `/v2/agent/${A.agents.sales}/executions?${query}`, { key: OWNER_KEY });
const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00'));
const week = 7 * 86_400_000;

describe('GET /v2/agent/:id/executions filters', () => {
  it('filters by status, batch and window together', async () => {
    const to = Date.now() + 1000;
    const all = await list(`from=${iso(to - week)}&to=${iso(to)}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    const busy = await list(`status=busy&batch_id=${A.batch}&from=${iso(to - week)}&to=${iso(to)}`);
    expect(busy.body.data.map((e: { id: string }) => e.id)).toEqual([A.executions.busy]);
    expect((await list(`batch_id=${'f'.repeat(32)}`)).body.total).toBe(0);
    // The seed batch ran 26 hours ago: a window ending 2 days ago holds none of it.
    const old = await list(`from=${iso(to - week)}&to=${iso(to - 2 * 86_400_000)}`);
    expect(old.body.data.some((e: { batch_id: string }) => e.batch_id === A.batch)).toBe(false);
  });

  it('refuses a window over 7 days, reversed, or a lone from further back than 7 days', async () => {
    const now = Date.now();
    for (const q of [`from=${iso(now - week - 60_000)}&to=${iso(now)}`, `from=${iso(now)}&to=${iso(now - 1000)}`, `from=${iso(now - week - 60_000)}`]) {
      const r = await list(q);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/7 days|before/);
    }
    expect((await list(`from=${iso(now - 86_400_000)}`)).status).toBe(200);
  });
});

describe('POST /__sandbox/wallet', () => {
  it('sets the balance GET /user/me answers, until the next reset', async () => {
    const set = await call(sb.url, 'POST', '/__sandbox/wallet', { key: null, body: { account: 'A', wallet: 1.5 } });
    expect(set).toMatchObject({ status: 200, body: { account: 'A', wallet: 1.5 } });
    expect((await call(sb.url, 'GET', '/user/me', { key: OWNER_KEY })).body.wallet).toBe(1.5);
    expect((await call(sb.url, 'POST', '/__sandbox/wallet', { key: null, body: { account: 'Z', wallet: 1 } })).status).toBe(400);
    sb.reset();
    expect((await call(sb.url, 'GET', '/user/me', { key: OWNER_KEY })).body.wallet).toBe(1250.75);
  });
});
