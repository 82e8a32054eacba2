/**
 * The page-cost bench's loads (./../page-cost.ts): the page server (each shape, c2d's build and its
 * start line, the text walk), the browser with the extension, and one load of a shape as each kind,
 * measured by thread time, traced or started in a settled page.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type CDPSession, type Page, type Worker } from 'playwright-core';
import { DEFAULT_SETTINGS, type Settings } from '../../lib/settings/schema';
import { browserPath } from '../../scripts/browsers.mjs';
import { writeGrantedOrigins } from '../../scripts/chromium-grants.mjs';
import { ALL_PAGES } from '../../wxt.config';
import { scriptTasks, tasksByKind, timeFromScriptStart, type TraceEvent } from './trace-tasks';
import type { PageShape } from './page-shapes';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const C2D_BUILD = join(ROOT, 'node_modules/ringcentral-c2d/build/index.js');

/** `walk`: a bare text walk (every text node's data read once), the floor a page without numbers is held to. */
export type Kind = 'alone' | 'ours' | 'c2d' | 'walk';

export interface Run {
  /** Renderer main-thread time, ms. */
  ms: number;
  /** The same from the start of the first task its script (for the page alone, the marker) ran in. */
  fromStart: number | null;
  /** Numbers ours reported for the page (its count, not the capped list). */
  found?: number;
  doneMs?: number;
}

// ---- the page server: each shape, c2d's build and its start line, the text walk ----

const TEXT_WALK =
  'const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); let n = 0;' +
  'while (w.nextNode()) n += w.currentNode.data.length; window.__walked = n;';

export function serve(shapes: PageShape[]): Promise<{ port: number; close(): void }> {
  const byName = new Map(shapes.map((s) => [`/${s.name}.html`, s.html]));
  const c2d = readFileSync(C2D_BUILD);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const html = byName.get(path);
    if (html) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
    if (path === '/c2d.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(c2d);
    if (path === '/c2d-start.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.__c2d = new RingCentralC2D();');
    if (path === '/walk.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(TEXT_WALK);
    if (path === '/mark.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.__marked = 1;');
    res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

// ---- the browser ----

/** The site of one page load: its own renderer process. */
const siteOf = (kind: Kind, n: number) => `${kind}-${n}.test`;
/** Page loads per kind (rounds and a traced one per shape, the profile): the `ours-*` sites to switch on. */
const MAX_LOADS = 300;

export async function launch(extDir: string): Promise<{ context: BrowserContext; sw: Worker; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'page-cost-'));
  // Every page granted, as a user does when turning click-to-call on (nothing is granted at install).
  writeGrantedOrigins(dir, extDir, [ALL_PAGES]);
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: browserPath('chromium'),
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', `--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`,
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
      '--host-resolver-rules=MAP *.test 127.0.0.1',
      ...(process.env.CHROME_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
  });
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  // Click-to-call on the ours-* sites only: the page alone and c2d run without our script.
  await listSites(sw, Array.from({ length: MAX_LOADS }, (_, n) => siteOf('ours', n)));
  for (;;) {
    const registered = await sw.evaluate(async () => (await (globalThis as any).chrome.scripting.getRegisteredContentScripts()).flatMap((s: any) => s.matches ?? []));
    if (registered.some((m: string) => m.includes(siteOf('ours', 0)))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { context, sw, dir };
}

export async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
}

/**
 * Until the renderer's main thread has been all but idle (< 1 ms of tasks) for 1.6 s: longer than any
 * delay either script waits before working (c2d's queue consumes up to 1 s after it is fed; ours
 * waits at most 500 ms for an idle period).
 */
async function quiet(cdp: CDPSession): Promise<number> {
  let last = await taskMs(cdp);
  let still = 0;
  for (let i = 0; i < 600 && still < 8; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const now = await taskMs(cdp);
    still = now - last < 1 ? still + 1 : 0;
    last = now;
  }
  return last;
}

/** Our top frame's report (its count), once it has reported; null before. */
async function reported(sw: Worker, url: string): Promise<number | null> {
  return sw.evaluate(async (u) => {
    const c = (globalThis as any).chrome;
    const [tab] = (await c.tabs.query({})).filter((t: any) => t.url === u);
    if (!tab) return null;
    const key = `page.numbers.${tab.id}`;
    const stored = (await c.storage.session.get(key))[key];
    const entry = typeof stored === 'string' ? JSON.parse(stored) : null; // its JSON text (lib/background/tab-numbers.ts)
    if (!entry?.frames?.['0']) return null;
    return entry.totals?.['0'] ?? entry.frames['0'].length;
  }, url);
}

export interface Opened {
  page: Page;
  cdp: CDPSession;
  found?: number;
  /** Ours: wall time from load to its last report (every number found), ms. */
  doneMs?: number;
}

const SETTLED_MS = 3000;

/** Opens a shape as `kind` and waits until everything it started has run. */
let loads = 0;

export async function open(context: BrowserContext, sw: Worker, port: number, shape: PageShape, kind: Kind, before?: (cdp: CDPSession) => Promise<void>): Promise<Opened> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  // Thread time, not wall time: on a shared machine other processes stretch wall time at random.
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  await before?.(cdp);
  const origin = `http://${siteOf(kind, loads++ % MAX_LOADS)}:${port}`;
  const url = `${origin}/${shape.name}.html`;
  await page.goto(url, { waitUntil: 'load' });
  let found: number | undefined;
  let doneMs: number | undefined;
  if (kind === 'alone') {
    // Nothing of its own: a marker where the others' scripts start (timeFromScriptStart).
    await page.addScriptTag({ url: `${origin}/mark.js` });
  } else if (kind === 'walk') {
    await page.addScriptTag({ url: `${origin}/walk.js` });
    if (!(await page.evaluate(() => '__walked' in window))) throw new Error('the text walk did not run');
  } else if (kind === 'c2d') {
    await startC2d(page, origin);
  } else if (kind === 'ours') {
    ({ found, doneMs } = await reportSettled(sw, page));
  }
  // Every page lives as long after its script's last work: ours waits SETTLED_MS after its last
  // report, so the others wait as long (the page's own idle-time work, such as garbage collection
  // of its parse, then falls in every run alike, not only in ours).
  if (kind !== 'ours') await new Promise((r) => setTimeout(r, SETTLED_MS));
  await quiet(cdp);
  if (kind === 'ours') found = (await reported(sw, page.url())) ?? found;
  return { page, cdp, found, doneMs };
}

/** c2d's published build and its start line, as its README says, into a loaded page. */
async function startC2d(page: Page, origin: string): Promise<void> {
  await page.addScriptTag({ url: `${origin}/c2d.js` });
  await page.addScriptTag({ url: `${origin}/c2d-start.js` });
  if (!(await page.evaluate(() => '__c2d' in window))) throw new Error('c2d did not start');
}

/**
 * Our script starts at document_idle (or when its site is switched on) and asks the background first;
 * the background parses the texts it sends, so the page's thread goes quiet while answers are still
 * coming. Done when the report has not changed for SETTLED_MS (reports come at least every 2 s while
 * answers arrive).
 */
export async function reportSettled(sw: Worker, page: Page): Promise<{ found?: number; doneMs: number }> {
  let found: number | undefined;
  const start = Date.now();
  let lastChange = start;
  for (let i = 0; i < 1200; i++) {
    const n = await reported(sw, page.url());
    if (n !== null && n !== found) {
      found = n;
      lastChange = Date.now();
    }
    if (found !== undefined && Date.now() - lastChange > SETTLED_MS) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { found, doneMs: lastChange - start };
}

/** The settings the bench starts with, and the sites switched on so far. */
let listedSites: string[] = [];

export async function listSites(sw: Worker, sites: string[]): Promise<void> {
  listedSites = sites;
  const settings: Settings = { ...DEFAULT_SETTINGS, sites: { ...DEFAULT_SETTINGS.sites, on: true, mode: 'only-listed', listed: sites } };
  await sw.evaluate((s) => (globalThis as any).chrome.storage.local.set({ settings: s }), settings);
}

/**
 * The script started in a page that loaded alone and went quiet: the thread time from then until
 * quiet again, within one load. A difference of two loads carries the page's own swing (on the
 * 5,000-row pages, how many partial layouts the browser happens to run while parsing: hundreds of ms
 * from one load to the next); within one load there is nothing to subtract but the script's own work,
 * with the collection, microtasks and rendering it causes. Ours is started as a user starts it on an
 * open page, by switching its site on (the background injects it); c2d by its script tags, as in open().
 * `traceAs`: also trace the window from the script's start until quiet and hand its tasks by kind
 * (tasksByKind, the tasks the script's URL ran in counted as "script") to the caller (BREAKDOWN).
 */
export async function settledCost(context: BrowserContext, sw: Worker, port: number, shape: PageShape, kind: 'ours' | 'c2d', traceAs?: { prefix: string; kinds(kinds: Map<string, number>, tasks: number[]): void }): Promise<number> {
  // The page alone, as open() loads it (on a site of its own, left quiet).
  const { page, cdp } = await open(context, sw, port, shape, 'alone');
  const endTrace = traceAs ? await startTrace(cdp, KIND_CATEGORIES) : null;
  const before = await taskMs(cdp);
  const { hostname: host, origin } = new URL(page.url());
  if (kind === 'c2d') {
    await startC2d(page, origin);
    await new Promise((r) => setTimeout(r, SETTLED_MS));
  } else {
    const listed = listedSites;
    await listSites(sw, [...listed, host]);
    const { found } = await reportSettled(sw, page);
    if (found === undefined) throw new Error(`ours did not report on ${host} once switched on`);
    await listSites(sw, listed);
  }
  const after = await quiet(cdp);
  if (traceAs && endTrace) {
    const events = await endTrace();
    traceAs.kinds(tasksByKind(events, traceAs.prefix), scriptTasks(events, traceAs.prefix));
  }
  await page.close();
  return after - before;
}

/** Which script each kind's load starts (for the page alone, its marker): where timeFromScriptStart counts from. */
function scriptOf(kind: Kind, ourUrl: string): (url: string) => boolean {
  if (kind === 'ours') return (url) => url.startsWith(ourUrl);
  const file = { alone: '/mark.js', c2d: '/c2d.js', walk: '/walk.js' }[kind];
  return (url) => url.startsWith('http://') && url.endsWith(file);
}

/** One load of `kind`, traced (the trace's own overhead falls on every kind alike). */
export async function measure(context: BrowserContext, sw: Worker, port: number, shape: PageShape, kind: Kind, ourUrl: string): Promise<Run> {
  const { events, ms, found, doneMs } = await openTraced(context, sw, port, shape, kind, TASK_CATEGORIES);
  return { ms, found, doneMs, fromStart: timeFromScriptStart(events, scriptOf(kind, ourUrl)) };
}

/** The categories the task readers (bench/lib/trace-tasks.ts) need, with V8's (collections, compiles) for a split by kind. */
export const TASK_CATEGORIES = 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline';
export const KIND_CATEGORIES = `${TASK_CATEGORIES},v8`;

/** Starts tracing `categories` on a page's session; the function returned ends the trace and gives its events. */
export async function startTrace(cdp: CDPSession, categories: string): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  let done: () => void = () => undefined;
  const complete = new Promise<void>((r) => (done = r));
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  cdp.on('Tracing.tracingComplete', () => done());
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  return async () => {
    await cdp.send('Tracing.end');
    await complete;
    return events;
  };
}

/** Opens a shape as `kind` under a trace of `categories`: its events and main-thread time once it has gone quiet. */
export async function openTraced(context: BrowserContext, sw: Worker, port: number, shape: PageShape, kind: Kind, categories: string): Promise<Omit<Opened, 'page' | 'cdp'> & { events: TraceEvent[]; ms: number }> {
  let endTrace: () => Promise<TraceEvent[]> = async () => [];
  const { page, cdp, found, doneMs } = await open(context, sw, port, shape, kind, async (session) => {
    endTrace = await startTrace(session, categories);
  });
  const ms = await taskMs(cdp);
  const events = await endTrace();
  await page.close();
  return { events, ms, found, doneMs };
}
