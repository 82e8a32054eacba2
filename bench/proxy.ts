/**
 * Proxy bench: what the widget proxy adds. (1) The latency it adds per request, beside the same
 * requests sent straight to the sandbox in the same run, interleaved: placing a call (the proxy's
 * POST /v1/calls runs the engine's first step: POST /call, then the first read of the execution) and reading one (the proxy answers a read
 * from memory on Node; on Workers a read runs the call's step when one is due). (2) The requests per
 * call: widget → proxy (the place, then a read every second until done, as an element would) and
 * proxy → service (counted by each sandbox's own request log), for Node and for the Workers entry in
 * miniflare, via `POST /call` and via a batch.
 *
 *   npx tsx bench/proxy.ts [--rounds 30] [--speed 1]      (or `npm run bench -- proxy`)
 *
 * At speed 1 the sandbox keeps real timings: a call is about half a minute, a batch waits its two
 * minutes first (about four minutes in all). Figures only: not a pass/fail test.
 */
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import en from '../public/_locales/en/messages.json';
import { createClient } from '../lib/api/client';
import { useCatalogues } from '../lib/i18n';
import { createProxyTransport } from '../lib/widget/proxy-transport';
import type { WidgetTransport, WidgetVia } from '../lib/widget/wire';
import { OWNER_KEY } from '../sandbox/keys';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { ALLOWED_ORIGIN, AGENT, SECRET, startHarness, type Harness } from '../tests/support/proxy-harness';
import { bundleWorker } from '../tests/support/worker-bundle';

useCatalogues(en);

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const ROUNDS = arg('rounds', 30);
const SPEED = arg('speed', 1);
/** How often the element reads a call (ms): an assumption of this bench, said in its output. */
const READ_EVERY_MS = 1_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!;
const ms = (x: number) => `${x.toFixed(1).padStart(6)} ms`;

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await work();
  return [performance.now() - start, value];
}

async function startWorker(sb: Sandbox): Promise<Miniflare> {
  const mf = new Miniflare({
    modules: true,
    script: await bundleWorker(join(import.meta.dirname, '..')),
    compatibilityDate: '2025-09-01',
    bindings: {
      VOICE_AGENT_API_KEY: OWNER_KEY,
      VOICE_AGENT_BASE_URL: sb.url,
      VOICE_AGENT_PROXY_SECRET: SECRET,
      VOICE_AGENT_PROXY_POLICY: JSON.stringify({ origins: [ALLOWED_ORIGIN], agents: [AGENT], numbers: ['+1415'], limits: { tokenRequestsPerMinute: 10_000, tokenCallsPerMinute: 1_000, requestsPerMinute: 100_000, callsPerMinute: 10_000 } }),
    },
    durableObjects: { WIDGET_CALLS: { className: 'WidgetCallsObject', useSQLite: true } },
    handleRuntimeStdio: () => {},
  });
  await mf.ready;
  return mf;
}

function workerTransport(mf: Miniflare, token: string): WidgetTransport {
  const fetchVia = (async (input: RequestInfo | URL, init?: RequestInit) =>
    mf.dispatchFetch(String(input), { ...(init as object), headers: { ...(init?.headers as Record<string, string>), Origin: ALLOWED_ORIGIN } } as never)) as unknown as typeof fetch;
  return createProxyTransport({ url: 'http://proxy.workers.test', token, fetch: fetchVia });
}

const serviceRequests = async (sb: Sandbox) =>
  ((await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as Array<{ method: string }>).filter((r) => r.method !== 'OPTIONS').length;

/** One call to done at the element's pace: widget→proxy and proxy→service requests. */
async function oneCall(transport: WidgetTransport, sb: Sandbox, via: WidgetVia, number: string, settle: () => Promise<void>) {
  await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
  let widget = 1;
  const placed = await transport.place({ agentId: AGENT, toNumber: number, variables: {}, via });
  let view = placed;
  const started = Date.now();
  while (!view.done) {
    await new Promise((r) => setTimeout(r, READ_EVERY_MS));
    view = await transport.read(placed.id);
    widget++;
  }
  await settle();
  return { widget, service: await serviceRequests(sb), status: view.status, seconds: (Date.now() - started) / 1000 };
}

async function main() {
  const policy = { tokenRequestsPerMinute: 10_000, tokenCallsPerMinute: 1_000, requestsPerMinute: 100_000, callsPerMinute: 10_000 };
  const { testPolicy } = await import('../tests/support/proxy-harness');
  const h: Harness = await startHarness({ speed: 60, policy: testPolicy({ limits: policy }) });
  const workerSandbox = await startSandbox({ port: 0, speed: 60 });
  const mf = await startWorker(workerSandbox);
  const token = await h.mint({ minutes: 60 });
  const node = h.transport(token);
  const worker = workerTransport(mf, token);
  const direct = createClient({ baseUrl: h.sb.url, apiKey: OWNER_KEY });
  const directWorker = createClient({ baseUrl: workerSandbox.url, apiKey: OWNER_KEY });

  console.log(`Proxy bench — ${ROUNDS} rounds per row, interleaved; sandbox speed 60 for latency, ${SPEED} for requests per call; Node ${process.version}, 2 cores\n`);
  const rows: Array<[string, number[], number[]]> = [];
  const place = { node: [] as number[], workers: [] as number[], direct: [] as number[], directW: [] as number[] };
  const read = { node: [] as number[], workers: [] as number[], direct: [] as number[], directW: [] as number[] };
  let last = { node: '', workers: '', exec: '', execW: '' };
  for (let i = 0; i < ROUNDS; i++) {
    const number = `+1415${String(3_000_000 + i).padStart(7, '0')}`;
    const [a, viaNode] = await timed(() => node.place({ agentId: AGENT, toNumber: number, variables: {}, via: 'call' }));
    // The engine's first step of a call is POST /call and the first read of its execution: the same two, direct.
    const [b, started] = await timed(async () => {
      const answer = await direct.startCall({ agent_id: AGENT, recipient_phone_number: number });
      await direct.getExecution(answer.execution_id);
      return answer;
    });
    const [c, viaWorker] = await timed(() => worker.place({ agentId: AGENT, toNumber: number, variables: {}, via: 'call' }));
    const [d, startedW] = await timed(async () => {
      const answer = await directWorker.startCall({ agent_id: AGENT, recipient_phone_number: number });
      await directWorker.getExecution(answer.execution_id);
      return answer;
    });
    place.node.push(a);
    place.direct.push(b);
    place.workers.push(c);
    place.directW.push(d);
    last = { node: viaNode.id, workers: viaWorker.id, exec: started.execution_id, execW: startedW.execution_id };
    read.node.push((await timed(() => node.read(last.node)))[0]);
    read.direct.push((await timed(() => direct.getExecution(last.exec)))[0]);
    read.workers.push((await timed(() => worker.read(last.workers)))[0]);
    read.directW.push((await timed(() => directWorker.getExecution(last.execW)))[0]);
  }
  rows.push(['place a call: Node proxy (POST /call + GET /executions/{id})', place.node, place.direct]);
  rows.push(['place a call: Workers proxy in miniflare', place.workers, place.directW]);
  rows.push(['read a call: Node proxy (from memory)', read.node, read.direct]);
  rows.push(['read a call: Workers proxy (a step when due)', read.workers, read.directW]);

  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`${'request'.padEnd(width)}   through proxy (median / p90)   direct to sandbox (median / p90)   added (median)`);
  for (const [name, proxied, straight] of rows) {
    console.log(`${name.padEnd(width)}   ${ms(median(proxied))} / ${ms(p90(proxied))}       ${ms(median(straight))} / ${ms(p90(straight))}           ${ms(median(proxied) - median(straight))}`);
  }

  // Requests per call, at the chosen speed.
  await h.close();
  await mf.dispose();
  await workerSandbox.close();
  const slow = await startHarness({ speed: SPEED, policy: testPolicy({ limits: policy }) });
  const slowWorkerSandbox = await startSandbox({ port: 0, speed: SPEED });
  const slowMf = await startWorker(slowWorkerSandbox);
  const slowToken = await slow.mint({ minutes: 60 });
  console.log(`\nRequests per call to done (the element reads every ${READ_EVERY_MS / 1000} s; a browser adds a CORS preflight per new URL, cached 10 min)`);
  console.log(`${'call'.padEnd(26)}  widget → proxy   proxy → service   status      time`);
  for (const via of ['call', 'batch'] as const) {
    const [n, w] = await Promise.all([
      oneCall(slow.transport(slowToken), slow.sb, via, `+1415555${via === 'call' ? '2001' : '2002'}`, () => slow.proxy.placements.idle()),
      oneCall(workerTransport(slowMf, slowToken), slowWorkerSandbox, via, `+1415555${via === 'call' ? '2003' : '2004'}`, async () => {}),
    ]);
    console.log(`${`Node, via ${via}`.padEnd(26)}  ${String(n.widget).padStart(14)}   ${String(n.service).padStart(15)}   ${String(n.status).padEnd(10)}  ${n.seconds.toFixed(0)} s`);
    console.log(`${`Workers, via ${via}`.padEnd(26)}  ${String(w.widget).padStart(14)}   ${String(w.service).padStart(15)}   ${String(w.status).padEnd(10)}  ${w.seconds.toFixed(0)} s`);
  }
  await slow.close();
  await slowMf.dispose();
  await slowWorkerSandbox.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
