/**
 * Finder bench, in real Chromium: this project's scanner (lib/phone/scan.ts, run the way the content
 * script runs it: libphonenumber's warm-up steps as tasks of their own, then 8-text-node chunks in
 * slices of ≤ 8 ms, each slice its own task) vs ringcentral-c2d's LibPhoneNumberMatcher (what its
 * RangeObserver runs on document.body: one synchronous call) vs a bare TreeWalker over the text (the
 * floor: reading the text, no detection). All three run on the same pages in the same browser run,
 * each run on a fresh load in its own browser context: every figure is a first run (cold code), as a
 * content script's first scan of a site is.
 *
 * Pages: a generated 5,000-row CRM list view, and every fixture page (tests/fixtures/pages) with
 * precision/recall against expected.json's occurrences. Also prints the content script's gzipped size.
 *
 *   npx tsx bench/finder.ts            (build first for the size line: npm run build)
 *   ROWS=20000 REPS=5 npx tsx bench/finder.ts
 *
 * Figures only: not a pass/fail test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { build, type Rollup } from 'vite';
import { libphonenumberRegExpMemo } from '../lib/phone/libphonenumber-plugin';
import { browserPath } from '../scripts/browsers.mjs';
import { crmTable } from './lib/crm-table';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAGES_DIR = join(ROOT, 'tests/fixtures/pages');
const ROWS = Number(process.env.ROWS ?? 5000);
const REPS = Math.max(1, Number(process.env.REPS ?? 5));
const CHROMIUM = browserPath('chromium');

type Expected = Record<string, { defaultCountry: string; occurrences: Record<string, number> }>;

async function bundle(entry: string, name: string, shipped = false): Promise<string> {
  const result = await build({
    configFile: false,
    // Ours as the extension build bundles it (with its libphonenumber-js RegExp memo); c2d as published.
    plugins: shipped ? [libphonenumberRegExpMemo()] : [],
    logLevel: 'silent',
    root: ROOT,
    define: { 'process.env.NODE_ENV': '"production"' },
    build: { write: false, minify: true, lib: { entry: join(ROOT, entry), formats: ['iife'], name, fileName: name } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs.flatMap((o) => o.output).map((c) => (c.type === 'chunk' ? c.code : '')).join('\n');
}

// ---- in-page runners (serialised into the page) ----

interface RunResult {
  /** Main-thread time spent (ms). */
  work: number;
  /** From start to done, yields included (ms). */
  wall: number;
  /** Longest single task this run caused (ms). */
  maxTask: number;
  /** Tasks over 50 ms seen by PerformanceObserver('longtask') during the run. */
  longTasks: number;
  found: string[];
  textNodes?: number;
}

async function runInPage(page: Page, method: 'ours' | 'c2d' | 'walk', country: string): Promise<RunResult> {
  return page.evaluate(
    async ({ method, country }) => {
      const w = window as any;
      const longTasks: number[] = [];
      const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
      observer.observe({ type: 'longtask' });
      const yieldTask = () => new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      });
      await yieldTask();
      let result: { work: number; wall: number; maxTask: number; found: string[]; textNodes?: number; chars?: number };
      const t0 = performance.now();
      if (method === 'ours') {
        let work = 0;
        let maxTask = 0;
        // As lib/page/click-to-call.ts: libphonenumber's warm-up steps, each its own task, then the scan.
        for (const step of w.Ours.warmUpSteps(country)) {
          const start = performance.now();
          step();
          const task = performance.now() - start;
          work += task;
          maxTask = Math.max(maxTask, task);
          await yieldTask();
        }
        const scanner = w.Ours.createScanner({ defaultCountry: country, chunkSize: 8 }); // it parses here (1–3 ms a text); the content script's scanner does not, and takes CHUNK
        scanner.scanRoot(document);
        for (;;) {
          const start = performance.now();
          let more: boolean;
          do more = scanner.runChunk();
          while (more && performance.now() - start < 8);
          const task = performance.now() - start;
          work += task;
          maxTask = Math.max(maxTask, task);
          if (!more) break;
          await yieldTask();
        }
        result = { work, wall: performance.now() - t0, maxTask, found: scanner.matches().map((m: { e164: string }) => m.e164) };
      } else if (method === 'c2d') {
        const matcher = new w.C2D.LibPhoneNumberMatcher({ countryCode: country });
        const models = matcher.match({ node: document.body, validate: true }) ?? [];
        const t = performance.now() - t0;
        result = { work: t, wall: t, maxTask: t, found: models.map((m: { context: { phoneNumber: string } }) => m.context.phoneNumber) };
      } else {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        let n = 0;
        let chars = 0;
        while (walker.nextNode()) {
          n++;
          chars += (walker.currentNode as Text).data.length;
        }
        const t = performance.now() - t0;
        result = { work: t, wall: t, maxTask: t, found: [], textNodes: n, chars };
      }
      await yieldTask();
      await new Promise((r) => setTimeout(r, 50)); // let the long-task entries arrive
      observer.disconnect();
      return { ...result, longTasks: longTasks.length };
    },
    { method, country },
  );
}

function precisionRecall(found: string[], occurrences: Record<string, number>): { tp: number; fp: number; fn: number } {
  const counts = new Map<string, number>();
  for (const e of found) counts.set(e, (counts.get(e) ?? 0) + 1);
  let tp = 0;
  for (const [e164, n] of Object.entries(occurrences)) tp += Math.min(n, counts.get(e164) ?? 0);
  const expectedTotal = Object.values(occurrences).reduce((a, b) => a + b, 0);
  return { tp, fp: found.length - tp, fn: expectedTotal - tp };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => x.toFixed(1).padStart(7);
const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : 'n/a');

async function main() {
  const [ours, c2d] = await Promise.all([bundle('bench/finder.ours-entry.ts', 'Ours', true), bundle('bench/finder.c2d-entry.ts', 'C2D')]);
  const expected = JSON.parse(readFileSync(join(PAGES_DIR, 'expected.json'), 'utf8')) as Expected;
  const table = crmTable(ROWS);
  const tableName = `crm-table-${ROWS}.html`;

  const server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    if (name === tableName) return void res.writeHead(200, { 'content-type': 'text/html' }).end(table.html);
    if (/^[\w-]+\.html$/.test(name) && existsSync(join(PAGES_DIR, name))) {
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(readFileSync(join(PAGES_DIR, name)));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const pages: { name: string; country: string; occurrences: Record<string, number> | null }[] = [
    { name: tableName, country: 'US', occurrences: table.occurrences },
    ...Object.entries(expected)
      .filter(([name]) => name.endsWith('.html'))
      .map(([name, e]) => ({ name, country: e.defaultCountry, occurrences: e.occurrences })),
  ];

  console.log(`Chromium ${browser.version()} · ${REPS} runs per method and page (median) · ours: 8-node chunks in ≤ 8 ms slices\n`);
  const header = `${'page'.padEnd(24)} ${'nodes'.padStart(6)} │ ${'ours ms'.padStart(7)} ${'max task'.padStart(8)} ${'>50ms'.padStart(5)} │ ${'c2d ms'.padStart(7)} ${'>50ms'.padStart(5)} │ ${'walk ms'.padStart(7)} │ ${'ours vs c2d'.padStart(11)}`;
  console.log(header);
  console.log('─'.repeat(header.length));
  const totals = { ours: { tp: 0, fp: 0, fn: 0 }, c2d: { tp: 0, fp: 0, fn: 0 } };
  const tableScores: Record<string, { tp: number; fp: number; fn: number }> = {};

  for (const p of pages) {
    const runs: Record<'ours' | 'c2d' | 'walk', RunResult[]> = { ours: [], c2d: [], walk: [] };
    for (let rep = 0; rep < REPS; rep++) {
      // The methods take turns in a rotating order, each on a fresh load in its own browser context
      // (its own renderer process): no method pays for another's garbage or warmed-up code.
      const order = (['ours', 'c2d', 'walk'] as const).map((_, i, all) => all[(i + rep) % all.length]!);
      for (const method of order) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(`${base}/${p.name}`, { waitUntil: 'load' });
        await page.waitForTimeout(500); // spa.html renders its rows after 20 ms; the new renderer settles
        // tsx keeps function names with a `__name` helper that the page lacks.
        await page.addScriptTag({ content: 'window.__name = (f) => f;' });
        if (method !== 'walk') await page.addScriptTag({ content: method === 'ours' ? ours : c2d });
        runs[method].push(await runInPage(page, method, p.country));
        await context.close();
      }
    }
    const o = runs.ours;
    const c = runs.c2d;
    const oursMs = median(o.map((r) => r.work));
    const c2dMs = median(c.map((r) => r.work));
    console.log(
      `${p.name.padEnd(24)} ${String(runs.walk[0]!.textNodes).padStart(6)} │ ${ms(oursMs)} ${ms(Math.max(...o.map((r) => r.maxTask))).padStart(8)} ${String(Math.max(...o.map((r) => r.longTasks))).padStart(5)} │ ` +
        `${ms(c2dMs)} ${String(Math.max(...c.map((r) => r.longTasks))).padStart(5)} │ ${ms(median(runs.walk.map((r) => r.work)))} │ ${ratio(c2dMs / oursMs).padStart(11)}`,
    );
    if (p.occurrences) {
      const so = precisionRecall(o[0]!.found, p.occurrences);
      const sc = precisionRecall(c[0]!.found, p.occurrences);
      if (p.name === tableName) {
        tableScores.ours = so;
        tableScores.c2d = sc;
      } else {
        for (const k of ['tp', 'fp', 'fn'] as const) {
          totals.ours[k] += so[k];
          totals.c2d[k] += sc[k];
        }
      }
    }
  }

  console.log(
    '\nnodes: text nodes under <body>. ms: main-thread time (median). max task: longest slice the scanner ran as one task\n' +
      '(the first includes libphonenumber’s one-time warm-up). >50ms: PerformanceObserver long tasks during the run (the most in\n' +
      'any run; c2d matches document.body in one call, as its RangeObserver does). ours vs c2d: c2d ms / ours ms.',
  );
  const pr = (s: { tp: number; fp: number; fn: number }) =>
    `precision ${(s.tp / Math.max(1, s.tp + s.fp)).toFixed(3)}  recall ${(s.tp / Math.max(1, s.tp + s.fn)).toFixed(3)}  (tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`;
  console.log('\nPrecision/recall over the fixtures (occurrences in expected.json; per-page default country):');
  console.log(`  ours: ${pr(totals.ours)}`);
  console.log(`  c2d:  ${pr(totals.c2d)}`);
  console.log(`On ${tableName} (phone + mobile columns; the Account Number column is not phones):`);
  console.log(`  ours: ${pr(tableScores.ours!)}`);
  console.log(`  c2d:  ${pr(tableScores.c2d!)}`);
  console.log('  walk: TreeWalker over text nodes only (no detection): the cost floor.');

  // The content script is two files: the first stage on every page, the finder where a number may be.
  const files = ['content-scripts/content.js', 'finder.js'].map((file) => join(ROOT, '.output/chrome-mv3', file));
  if (files.every((file) => existsSync(file))) {
    let total = 0;
    for (const file of files) {
      const raw = readFileSync(file);
      const gz = gzipSync(raw, { level: 9 }).length / 1024;
      total += gz;
      console.log(`${file === files[0] ? '\n' : ''}${file.slice(ROOT.length + 1)}: ${(raw.length / 1024).toFixed(1)} KB, ${gz.toFixed(1)} KB gzipped`);
    }
    console.log(`Content script, both stages: ${total.toFixed(1)} KB gzipped (budget 50 KB)`);
  } else {
    console.log('\nContent script size: build first (npm run build).');
  }
  console.log(`Bundles loaded into the page: ours ${(gzipSync(ours).length / 1024).toFixed(1)} KB gz, c2d matcher ${(gzipSync(c2d).length / 1024).toFixed(1)} KB gz`);

  await browser.close();
  server.closeAllConnections();
  server.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
