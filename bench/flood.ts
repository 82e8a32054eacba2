/**
 * Flood bench: can a page wear the background down? A page on loopback whose 20 same-origin frames
 * rewrite their numbers as fast as they can (every cell of a 200-row table and a 40 KB raw text, on
 * every EVERY_MS), so each frame's content script rescans as often as its debounce lets it (about once a
 * second, all of it) and asks page/find again and again; the page stops by itself after FLOOD_MS or
 * MAX_TURNS turns per frame. A third row runs the same flooding page with click-to-call paused on its
 * site: what the page's own CPU costs everyone else on the machine, without any work of ours. While it runs, an
 * extension page asks the background what a person's clicks ask: Confirm (`call/dial`, which places a
 * call at the sandbox) and Stop (`call/stop` on that call), and the time to each answer is taken.
 * Beside them: the same with no flooding page, in the same run. The background's CPU is the
 * extension process's CPU time (/proc, Linux) over each phase's wall time.
 *
 *   npx tsx bench/flood.ts [--rounds 8] [--flood-ms 30000] [--every 100] [--profile worker.cpuprofile]
 *   (npm run build first; or `npm run bench -- flood`)
 *
 * Figures only: not a pass/fail test. Aim: Stop and Confirm answered in under 200 ms while flooded.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { OWNER_KEY } from '../sandbox/keys';
import { SEED } from '../sandbox/seed';
import { startSandbox } from '../sandbox/server';
import { CHROMIUM, EXTENSION_DIR, setUpThroughOptions } from '../tests/support/chromium';
import { writeGrantedOrigins } from '../scripts/chromium-grants.mjs';
import { ALL_PAGES, LOOPBACK_ORIGINS } from '../wxt.config';
import type { CpuProfile } from './lib/cost-profile';
import { buildWithSourceMaps } from './lib/mapped-build';
import { markerSource, profileWindows } from './lib/profile-windows';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) ? value : fallback;
};
const ROUNDS = arg('rounds', 8);
const FLOOD_MS = arg('flood-ms', 30_000);
/** How often each frame rewrites (ms): often enough that its finder rescans at the fastest its debounce allows, with idle time left for the finder to run. */
const EVERY_MS = arg('every', 100);
const FRAMES = 20;
const ROWS = 200;
/** Turns of rewriting per frame at most (each turn rewrites every cell and the raw text). */
const MAX_TURNS = 20_000;
const AGENT = SEED.A.agents.sales;
/** `--profile <file>`: a CPU profile of the background's service worker over the flooded phase (Chrome DevTools' format). */
const PROFILE = (() => {
  const i = process.argv.indexOf('--profile');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();

// ---- the flooding page: a top page of FRAMES frames, each rewriting its numbers until its deadline ----

function framePage(frame: number): string {
  const rows = Array.from({ length: ROWS }, (_, i) => `<tr><td>Contact ${i}</td><td class="n">(415) 555-01${String(i % 100).padStart(2, '0')}</td></tr>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Frame ${frame}</title></head><body>
<table><thead><tr><th>Name</th><th>Phone</th></tr></thead><tbody>${rows}</tbody></table><pre id="raw"></pre>
<script>
const cells = [...document.querySelectorAll('td.n')];
const raw = document.getElementById('raw');
const areas = ['212', '312', '415', '646', '702', '303'];
const until = Date.now() + ${FLOOD_MS};
let turn = 0;
// Numbers new on every turn (no text repeats within a frame's last thousands): the finder keeps the
// answers a frame had, and a flood of texts it had seen would cost the background nothing.
const fresh = (n) => String((n * 7 + ${frame} * 977) % 10000).padStart(4, '0');
function csv(t) {
  const lines = [];
  for (let i = 0; i < 600; i++) lines.push(i + ',Contact ' + i + ',(' + areas[(i + t) % areas.length] + ') 555-' + fresh(t * 600 + i) + ',2024-05-01');
  return lines.join('\\n');
}
function rewrite() {
  if (Date.now() > until || ++turn > ${MAX_TURNS}) { window.__floodDone = turn; return; }
  for (let i = 0; i < cells.length; i++) cells[i].textContent = '(' + areas[(i + turn) % areas.length] + ') 555-' + fresh(turn * 211 + i);
  raw.textContent = csv(turn);
  setTimeout(rewrite, ${EVERY_MS});
}
setTimeout(rewrite, 0);
</script></body></html>`;
}

const TOP = `<!doctype html><html><head><meta charset="utf-8"><title>Flood</title></head><body>
${Array.from({ length: FRAMES }, (_, i) => `<iframe src="/frame/${i}" width="300" height="200"></iframe>`).join('')}
</body></html>`;

function serve(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const frame = /^\/frame\/(\d+)$/.exec(path);
    const html = path === '/flood.html' ? TOP : frame ? framePage(Number(frame[1])) : null;
    if (!html) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

// ---- the browser and its extension process ----

async function launch(extensionDir: string): Promise<{ context: BrowserContext; extensionId: string; profile: string }> {
  const profile = mkdtempSync(join(tmpdir(), 'flood-bench-'));
  // The sandbox's origin and every page, as a user grants them (saving the service, turning click-to-call on).
  writeGrantedOrigins(profile, extensionDir, [...LOOPBACK_ORIGINS, ALL_PAGES]);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', `--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`,
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
      ...(PROFILE ? ['--remote-debugging-port=0'] : []),
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  return { context, extensionId, profile };
}

/** The pids of this browser's extension renderer (where the background's service worker runs). */
function extensionPids(profile: string): number[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const browser = table.find((p) => p.args.includes(`--user-data-dir=${profile}`) && !p.args.includes('--type='));
  if (!browser) return [];
  const ours = new Set([browser.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of table) if (!ours.has(p.pid) && ours.has(p.ppid)) grew = !!ours.add(p.pid);
  }
  return table.filter((p) => ours.has(p.pid) && p.args.includes('--extension-process')).map((p) => p.pid);
}

/** CPU time (ms) the processes have used so far. */
function cpuMs(pids: number[]): number {
  const tick = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // Gone (a restarted process): its time is lost to the figure.
    }
  }
  return total;
}

/**
 * Starts a CPU profile of the extension's service worker (through the DevTools port Chromium wrote in
 * the profile). `mark` runs a named function on the worker, so the profile can tell where each
 * round began and ended (./lib/profile-windows.ts).
 */
async function profileWorker(profile: string, extensionId: string): Promise<{ mark(name: string): Promise<void>; stop(): Promise<CpuProfile> }> {
  const { default: puppeteer } = await import('puppeteer-core');
  const port = readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0];
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null });
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith(`chrome-extension://${extensionId}/`));
  const session = await target.createCDPSession();
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  return {
    async mark(name) {
      await session.send('Runtime.evaluate', { expression: markerSource(name) });
    },
    async stop() {
      const { profile: cpu } = await session.send('Profiler.stop');
      await browser.disconnect();
      return cpu as CpuProfile;
    },
  };
}

/** The build again with source maps, so the worker's profile names functions and files (for `--profile`). */
async function mappedBuild(): Promise<{ dir: string; where(url: string, line: number, column: number, name: string): string }> {
  const dir = join(await buildWithSourceMaps(process.cwd()), 'chrome-mv3');
  const map = new TraceMap(readFileSync(join(dir, 'background.js.map'), 'utf8'));
  return {
    dir,
    where(url, line, column, name) {
      if (!url.endsWith('/background.js')) return `${name || '(anonymous)'} ${url.split('/').pop()}`;
      const at = originalPositionFor(map, { line: line + 1, column });
      const file = at.source?.replace(/^(?:\.\.\/)+/, '').replace(/^.*node_modules\//, '') ?? 'background.js';
      return `${at.name || name || '(anonymous)'} ${file}:${at.line ?? 0}`;
    },
  };
}

// ---- what a person's clicks ask ----

interface Round {
  confirmMs: number;
  stopMs: number;
  ok: boolean;
}

async function ask(page: Page, message: object): Promise<{ ms: number; ok: boolean; callId: string | null }> {
  return page.evaluate(async (m) => {
    const start = performance.now();
    const reply = await (globalThis as any).chrome.runtime.sendMessage(m);
    return { ms: performance.now() - start, ok: !!reply?.ok, callId: reply?.data?.callId ?? null };
  }, message);
}

async function rounds(page: Page, label: string, mark?: (name: string) => Promise<void>): Promise<Round[]> {
  const out: Round[] = [];
  const marked = async <T>(name: string, act: () => Promise<T>) => {
    await mark?.(`${name}_start`);
    const result = await act();
    await mark?.(`${name}_end`);
    return result;
  };
  for (let i = 0; i < ROUNDS; i++) {
    const dial = { type: 'call/dial', dialId: crypto.randomUUID(), agentId: AGENT, toNumber: `+1415555${String(100 + i).padStart(4, '0')}`, fromNumber: null, variables: {} };
    const confirm = await marked(`confirm${i}`, () => ask(page, dial));
    const stop = confirm.callId ? await marked(`stop${i}`, () => ask(page, { type: 'call/stop', callId: confirm.callId })) : { ms: NaN, ok: false };
    out.push({ confirmMs: confirm.ms, stopMs: stop.ms, ok: confirm.ok && stop.ok });
    await new Promise((r) => setTimeout(r, 300));
  }
  console.log(`  ${label}: ${out.filter((r) => r.ok).length}/${out.length} rounds answered ok`);
  return out;
}

/** Writes the worker's profile and prints, for each flooded Confirm and Stop, what the worker did meanwhile. */
function printWindows(cpu: CpuProfile, rs: Round[], where: Parameters<typeof profileWindows>[2]): void {
  writeFileSync(PROFILE!, JSON.stringify(cpu));
  console.log(`  (the worker's CPU profile over the flooded phase: ${PROFILE})`);
  const names = rs.flatMap((_, i) => [`confirm${i}`, `stop${i}`]);
  console.log("  the worker's time while each was answered (ms; busy = not idle; its largest functions by self time):");
  for (const w of profileWindows(cpu, names, where)) {
    const busy = w.ms - w.idleMs;
    const top = w.functions.slice(0, 5).map(([fn, ms]) => `${fn} ${Math.round(ms)}`).join(' · ');
    console.log(`    ${w.name.padEnd(9)} ${String(Math.round(w.ms)).padStart(5)}   busy ${String(Math.round(busy)).padStart(4)}  GC ${String(Math.round(w.gcMs)).padStart(3)}   ${top}`);
  }
}

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};
const max = (xs: number[]) => Math.max(...xs.filter(Number.isFinite));
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '–');

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, speed: 1 });
  const pages = await serve();
  // Profiling: a build with source maps, so the worker's functions are named by file and line.
  const mapped = PROFILE ? await mappedBuild() : null;
  const { context, extensionId, profile } = await launch(mapped?.dir ?? EXTENSION_DIR);
  try {
    await setUpThroughOptions(context, extensionId, sandbox.url, OWNER_KEY);
    const ui = await context.newPage();
    await ui.goto(`chrome-extension://${extensionId}/popup.html`);
    // Click-to-call on pages, its access already granted in the profile (as the Options switch does it).
    await ask(ui, { type: 'sites/update', on: true });
    const pids = extensionPids(profile);
    if (pids.length === 0) console.log('  (the extension process was not found: no CPU figure)');

    // Warm: the first dial compiles the background's code paths.
    await rounds(ui, 'warm-up').catch(() => []);

    let cpu0 = cpuMs(pids);
    let t0 = Date.now();
    const quiet = await rounds(ui, 'no flooding page');
    const quietCpu = (cpuMs(pids) - cpu0) / (Date.now() - t0);

    /** One phase with the flooding page open: its rounds, the background's CPU, and frames still rewriting at the end. */
    const floodPhase = async (label: string) => {
      const flood = await context.newPage();
      await flood.goto(`${pages.url}/flood.html`);
      // Until every frame's finder is at work (each frame asks page/find as soon as it scans).
      await new Promise((r) => setTimeout(r, 3_000));
      const profiler = PROFILE && label.includes('flooding') && !label.includes('paused') ? await profileWorker(profile, extensionId) : null;
      const cpuStart = cpuMs(pids);
      const start = Date.now();
      const rs = await rounds(ui, label, profiler?.mark);
      const cpu = (cpuMs(pids) - cpuStart) / (Date.now() - start);
      if (profiler) printWindows(await profiler.stop(), rs, mapped!.where);
      const turns = await flood.evaluate(() => Array.from(document.querySelectorAll('iframe')).map((f) => (f.contentWindow as any)?.__floodDone ?? null));
      await flood.close();
      return { rs, cpu, running: turns.filter((t) => t === null).length };
    };
    const flooded = await floodPhase(`${FRAMES} frames flooding`);
    await ask(ui, { type: 'sites/update', pause: '127.0.0.1' });
    const paused = await floodPhase('the same, click-to-call paused there');

    const line = (name: string, rs: Round[], cpu: number) =>
      `${name.padEnd(38)} Confirm median ${ms(median(rs.map((r) => r.confirmMs))).padStart(7)}  max ${ms(max(rs.map((r) => r.confirmMs))).padStart(8)}   ` +
      `Stop median ${ms(median(rs.map((r) => r.stopMs))).padStart(7)}  max ${ms(max(rs.map((r) => r.stopMs))).padStart(8)}   background CPU ${Number.isFinite(cpu) ? `${Math.round(cpu * 100)} %` : '–'}`;
    console.log(`\nStop and Confirm answered by the background (${ROUNDS} rounds each; sandbox on loopback; aim < 200 ms)`);
    console.log(line('no flooding page', quiet, pids.length ? quietCpu : NaN));
    console.log(line(`${FRAMES} frames flooding`, flooded.rs, pids.length ? flooded.cpu : NaN));
    console.log(line('flooding, click-to-call paused there', paused.rs, pids.length ? paused.cpu : NaN));
    const each = (rs: Round[], key: 'confirmMs' | 'stopMs') => rs.map((r) => Math.round(r[key])).join(' ');
    console.log(`  flooded, each round in turn: Confirm ${each(flooded.rs, 'confirmMs')} ms; Stop ${each(flooded.rs, 'stopMs')} ms`);
    console.log(`(frames rewrite every ${EVERY_MS} ms and stop after ${FLOOD_MS / 1000} s or ${MAX_TURNS} turns; still rewriting at the end of each phase: ${flooded.running} and ${paused.running} of ${FRAMES})`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    if (mapped) rmSync(join(mapped.dir, '..'), { recursive: true, force: true });
    pages.close();
    await sandbox.close();
  }
}

await main();
