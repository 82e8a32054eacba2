/**
 * The Workers entry keeps its calls in a Durable Object (proxy/durable-calls.ts), not in one isolate's
 * memory. In miniflare (workerd) with a real Durable Object binding and the real sandbox over HTTP:
 * - two Workers (two isolates, each with its own module memory) bound to one object: a call placed
 *   through one is read and stopped through the other, and the per-token call limit counts both;
 * - a restart (miniflare disposed, started again on the same persisted storage): the call placed
 *   before is found, its status read, Stop done, and the audit line is still written once;
 * - a call no widget reads is followed by the object's alarm (its requests to the service go on);
 * - without the binding, a plain 500 to the page and the missing binding named in the log.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxyTransport } from '../../../lib/widget/proxy-transport';
import { mintWidgetToken } from '../../../proxy/token';
import { OWNER_KEY } from '../../../sandbox/keys';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { ALLOWED_ORIGIN, AGENT, readUntilDone, SECRET } from '../../support/proxy-harness';
import { bundleWorker } from '../../support/worker-bundle';

const PROXY = 'http://proxy.workers.test';
const COMPATIBILITY_DATE = '2025-09-01';

let sb: Sandbox;
let script: string;
let logged = '';
const running: Miniflare[] = [];

const bindings = () => ({
  VOICE_AGENT_API_KEY: OWNER_KEY,
  VOICE_AGENT_BASE_URL: sb.url,
  VOICE_AGENT_PROXY_SECRET: SECRET,
  // One call a minute per token: the second call of a token through the other isolate must be refused.
  VOICE_AGENT_PROXY_POLICY: JSON.stringify({ origins: [ALLOWED_ORIGIN], agents: [AGENT], numbers: ['+1415'], limits: { tokenCallsPerMinute: 1 } }),
});

const stdio = {
  handleRuntimeStdio(stdout: Readable, stderr: Readable) {
    stdout.on('data', (chunk: Buffer) => (logged += String(chunk)));
    stderr.on('data', (chunk: Buffer) => (logged += String(chunk)));
  },
};

/** The Durable Object binding as wrangler.toml declares it (SQLite-backed); `owner` names the Worker that exports the class. */
const callsBinding = (owner?: string) => ({ WIDGET_CALLS: { className: 'WidgetCallsObject', useSQLite: true, ...(owner ? { scriptName: owner } : {}) } });

async function start(options: ConstructorParameters<typeof Miniflare>[0]): Promise<Miniflare> {
  const mf = new Miniflare({ ...options, ...stdio } as never);
  running.push(mf);
  await mf.ready;
  return mf;
}

type Fetcher = { fetch: (url: string, init: RequestInit) => Promise<{ status: number; headers: Headers; text(): Promise<string> }> };

/** A page's fetch into one Worker, with the page's Origin. */
const pageFetch = (worker: Fetcher): typeof fetch => (async (input: RequestInfo | URL, init?: RequestInit) => {
  const res = await worker.fetch(String(input), { ...(init as object), headers: { ...(init?.headers as Record<string, string>), Origin: ALLOWED_ORIGIN } });
  // Back to a web-standard Response for the transport (miniflare's own Response class is another realm's).
  return new Response(await res.text(), { status: res.status, headers: res.headers });
}) as unknown as typeof fetch;

/** Miniflare's front door (the Worker its first binding names) as a Fetcher. */
const frontDoor = (mf: Miniflare): Fetcher => ({ fetch: (url, init) => mf.dispatchFetch(url, init as never) as never });

const auditLines = (id: string) => logged.split('\n').filter((line) => line.includes('"audit":"widget-call"') && line.includes(id));

beforeAll(async () => {
  // Speed 6: a batch call waits 20 s to start and a long call (…1007) talks 20 s, ample for a restart.
  sb = await startSandbox({ port: 0, speed: 6 });
  script = await bundleWorker(join(__dirname, '../../..'));
}, 60_000);
afterAll(async () => {
  for (const mf of running) await mf.dispose().catch(() => undefined);
  await sb?.close();
});

describe('the Workers proxy keeps its calls in a Durable Object', () => {
  it('a call placed through one isolate is read and stopped through another; a token\'s call limit counts both', async () => {
    const worker = (name: string, owner?: string) => ({ name, modules: true, script, compatibilityDate: COMPATIBILITY_DATE, bindings: bindings(), durableObjects: callsBinding(owner) });
    const mf = await start({ workers: [worker('isolate-a'), worker('isolate-b', 'isolate-a')] } as never);
    const [a, b] = [(await mf.getWorker('isolate-a')) as unknown as Fetcher, (await mf.getWorker('isolate-b')) as unknown as Fetcher];
    const { token } = await mintWidgetToken(SECRET, { origin: ALLOWED_ORIGIN, agents: [AGENT], minutes: 10, who: 'two-isolates' });
    const throughA = createProxyTransport({ url: PROXY, token, fetch: pageFetch(a) });
    const throughB = createProxyTransport({ url: PROXY, token, fetch: pageFetch(b) });

    const placed = await throughA.place({ agentId: AGENT, toNumber: '+14155551007', variables: {}, via: 'batch' });
    const read = await throughB.read(placed.id);
    expect(read).toMatchObject({ id: placed.id, agentId: AGENT, toNumber: '+14155551007', stopRequested: false });

    // The token has spent its one call a minute through A: B refuses the second.
    await expect(throughB.place({ agentId: AGENT, toNumber: '+14155551202', variables: {}, via: 'call' })).rejects.toMatchObject({ status: 429, code: 'rate-limited' });

    const stopping = await throughB.stop(placed.id);
    expect(stopping.stopRequested).toBe(true);
    // Read alternately through both: each answers the same call, to its end as the service says it.
    let view = stopping;
    for (let i = 0; !view.done; i++) {
      if (i > 400) throw new Error(`call not done: ${JSON.stringify(view)}`);
      view = await (i % 2 ? throughA : throughB).read(placed.id);
      if (!view.done) await new Promise((r) => setTimeout(r, 50));
    }
    expect(view).toMatchObject({ stopRequested: true, status: 'stopped' });
    const execution = await (await fetch(`${sb.url}/executions/${view.executionId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json();
    expect(execution.status).toBe('stopped');
    await expect.poll(() => auditLines(placed.id).length).toBe(1);
  }, 60_000);

  it('after a restart on the same storage, a call placed before is found, its status read and Stop done', async () => {
    const persist = mkdtempSync(join(tmpdir(), 'proxy-do-'));
    const options = { modules: true, script, compatibilityDate: COMPATIBILITY_DATE, bindings: bindings(), durableObjects: callsBinding(), durableObjectsPersist: persist };
    const { token } = await mintWidgetToken(SECRET, { origin: ALLOWED_ORIGIN, agents: [AGENT], minutes: 10, who: 'restart' });

    const first = await start(options as never);
    const before = createProxyTransport({ url: PROXY, token, fetch: pageFetch(frontDoor(first)) });
    const placed = await before.place({ agentId: AGENT, toNumber: '+14155552007', variables: {}, via: 'batch' });
    // Until the service has made the call (its execution id known), so the audit line is out.
    for (let view = placed; !view.executionId; view = await before.read(placed.id)) {
      expect(view.done).toBe(false);
      await new Promise((r) => setTimeout(r, 50));
    }
    await expect.poll(() => auditLines(placed.id).length).toBe(1);
    await first.dispose();

    const second = await start(options as never);
    const after = createProxyTransport({ url: PROXY, token, fetch: pageFetch(frontDoor(second)) });
    const status = await after.read(placed.id);
    expect(status).toMatchObject({ id: placed.id, toNumber: '+14155552007', done: false, stopRequested: false });
    expect(status.executionId).toEqual(expect.any(String));
    const stopping = await after.stop(placed.id);
    expect(stopping.stopRequested).toBe(true);
    const { view } = await readUntilDone(after, placed.id, 20_000);
    expect(view.status).toBe('stopped');
    const execution = await (await fetch(`${sb.url}/executions/${view.executionId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json();
    expect(execution.status).toBe('stopped');
    // The call was audited before the restart: not again after it.
    expect(auditLines(placed.id)).toHaveLength(1);
  }, 60_000);

  it('a call no widget reads any more is followed by the object\'s alarm to its end', async () => {
    const mf = await start({ modules: true, script, compatibilityDate: COMPATIBILITY_DATE, bindings: bindings(), durableObjects: callsBinding() } as never);
    const { token } = await mintWidgetToken(SECRET, { origin: ALLOWED_ORIGIN, agents: [AGENT], minutes: 10, who: 'unread' });
    const transport = createProxyTransport({ url: PROXY, token, fetch: pageFetch(frontDoor(mf)) });
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155551204', variables: {}, via: 'call' });
    expect(placed.executionId).toEqual(expect.any(String));
    // No widget read from here: the object alone asks the service about the call, until it is over.
    const readsOfIt = async () =>
      ((await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string }>).filter((r) => r.method === 'GET' && r.path === `/executions/${placed.executionId}`).length;
    await expect.poll(readsOfIt, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    const execution = async () => (await (await fetch(`${sb.url}/executions/${placed.executionId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json()).status;
    await expect.poll(execution, { timeout: 30_000 }).toBe('completed');
    const { view } = await readUntilDone(transport, placed.id, 20_000);
    expect(view).toMatchObject({ status: 'completed', done: true });
    expect(auditLines(placed.id)).toHaveLength(1);
  }, 90_000);

  it('without the Durable Object binding the Worker refuses with a plain 500 and logs what is missing', async () => {
    const mf = await start({ modules: true, script, compatibilityDate: COMPATIBILITY_DATE, bindings: bindings() } as never);
    const res = await mf.dispatchFetch(`${PROXY}/v1/calls/some-id`, { headers: { Origin: ALLOWED_ORIGIN } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'The proxy is not configured.', code: 'proxy-error' });
    await expect.poll(() => logged).toContain('WIDGET_CALLS is not bound');
    expect(logged).not.toContain(OWNER_KEY);
  }, 60_000);
});
