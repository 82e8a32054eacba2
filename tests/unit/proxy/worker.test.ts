/**
 * The proxy's Cloudflare Workers entry (proxy/worker.ts), bundled to one ES module and run in
 * miniflare (workerd, the Workers runtime) against the real sandbox over HTTP: the same app and core
 * as on Node, with steps run on each read instead of by a timer. A call walks to done with its
 * transcript, the audit line goes to the console once, and a hostile origin is refused.
 */
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxyTransport } from '../../../lib/widget/proxy-transport';
import { mintWidgetToken } from '../../../proxy/token';
import { OWNER_KEY } from '../../../sandbox/keys';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { ALLOWED_ORIGIN, AGENT, callsPlaced, HOSTILE_ORIGIN, readUntilDone, SECRET } from '../../support/proxy-harness';
import { bundleWorker } from '../../support/worker-bundle';

let sb: Sandbox;
let mf: Miniflare;
let logged = '';
const PROXY = 'http://proxy.workers.test';

beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 60 });
  const script = await bundleWorker(join(__dirname, '../../..'));
  mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2025-09-01',
    bindings: {
      VOICE_AGENT_API_KEY: OWNER_KEY,
      VOICE_AGENT_BASE_URL: sb.url,
      VOICE_AGENT_PROXY_SECRET: SECRET,
      VOICE_AGENT_PROXY_POLICY: JSON.stringify({ origins: [ALLOWED_ORIGIN], agents: [AGENT], numbers: ['+1415'] }),
    },
    durableObjects: { WIDGET_CALLS: { className: 'WidgetCallsObject', useSQLite: true } },
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.on('data', (chunk: Buffer) => (logged += String(chunk)));
      stderr.on('data', (chunk: Buffer) => (logged += String(chunk)));
    },
  });
  await mf.ready;
}, 60_000);
afterAll(async () => {
  await mf?.dispose();
  await sb?.close();
});

/** The page's fetch, through miniflare's front door, with the page's Origin. */
const pageFetch = (origin: string): typeof fetch => (async (input: RequestInfo | URL, init?: RequestInit) =>
  mf.dispatchFetch(String(input), { ...(init as object), headers: { ...(init?.headers as Record<string, string>), Origin: origin } } as never)) as unknown as typeof fetch;

describe('the Workers entry in miniflare', () => {
  it.each(['call', 'batch'] as const)('a call via %s walks to done with its transcript; the audit line is logged once', async (via) => {
    const { token } = await mintWidgetToken(SECRET, { origin: ALLOWED_ORIGIN, agents: [AGENT], minutes: 10, who: 'worker-test' });
    const transport = createProxyTransport({ url: PROXY, token, fetch: pageFetch(ALLOWED_ORIGIN) });
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550150', variables: {}, via });
    const { view } = await readUntilDone(transport, placed.id, 20_000);
    expect(view.status).toBe('completed');
    expect(view.transcript).toEqual(expect.stringMatching(/\S/));
    const execution = await (await fetch(`${sb.url}/executions/${view.executionId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json();
    expect(execution.status).toBe('completed');
    await expect.poll(() => logged.split('\n').filter((line) => line.includes(placed.id)).length).toBe(1);
    const line = logged.split('\n').find((l) => l.includes(placed.id))!;
    expect(JSON.parse(line.slice(line.indexOf('{')))).toMatchObject({ audit: 'widget-call', placementId: placed.id, executionId: view.executionId, origin: ALLOWED_ORIGIN, who: 'worker-test', outcome: 'placed' });
  });

  it('a stolen token from a hostile origin is refused, and nothing reaches the sandbox', async () => {
    await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    const { token } = await mintWidgetToken(SECRET, { origin: ALLOWED_ORIGIN, agents: [AGENT], minutes: 10 });
    const hostile = createProxyTransport({ url: PROXY, token, fetch: pageFetch(HOSTILE_ORIGIN) });
    await expect(hostile.place({ agentId: AGENT, toNumber: '+14155550151', variables: {}, via: 'call' })).rejects.toMatchObject({ status: 403, code: 'origin-not-allowed' });
    const log = await (await fetch(`${sb.url}/__sandbox/requests`)).json();
    expect(callsPlaced(log)).toBe(0);
    expect(log).toEqual([]);
  });
});
