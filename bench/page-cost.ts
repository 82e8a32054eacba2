/**
 * Page-cost bench: what the WHOLE content script costs a page, against ringcentral-c2d on the same
 * pages, in one Chromium run with the production extension loaded (.output/chrome-mv3).
 *
 * Cost = the renderer's main-thread time (CDP Performance.getMetrics TaskDuration, thread time) once the page is
 * quiet, minus the same page alone: script compile, warm-up, the scan, messages and overlay set-up all
 * count. Every page load gets a site of its own (`<kind>-<n>.test`, resolved to the bench's server), so
 * it gets a renderer of its own and no figure carries another load's tasks; the site rules switch
 * click-to-call on for the `ours-*` sites only. c2d is its published browser build (build/index.js) started as its
 * README says (`new RingCentralC2D()`), injected after load. ROUNDS rounds, the kinds taking turns in
 * each; a figure is the median over rounds of that round's load minus that round's page alone. One
 * more round under a trace gives each script's longest main-thread task.
 *
 * Beside them, what the background spends parsing the texts the page sent it (replayed in Node:
 * bench/lib/background-cost.ts), which the page's figures do not include.
 *
 * Then a CPU profile of our content script on the first (largest) page, from a build with source maps,
 * split into walk, candidate search, parse + validation, messages and overlay bookkeeping.
 *
 *   npx tsx bench/page-cost.ts          (npm run build first; or `npm run bench -- page-cost`)
 *   ROWS=5000 ROUNDS=5 npx tsx bench/page-cost.ts
 *   SHAPES=look PROFILE_ONLY=1 npx tsx bench/page-cost.ts   (where the time goes on one shape)
 *   SHAPES=crm AGAINST=/tmp/base/chrome-mv3 npx tsx bench/page-cost.ts   (a change's effect: this build
 *     against another, both started in a settled page, loads taking turns in one run)
 *   SHAPES=crm FINDS=1 npx tsx bench/page-cost.ts   (the page/find requests one settled run sends)
 *   SHAPES=crm ALLOC=old npx tsx bench/page-cost.ts   (what outlived the young generation, by where it was made)
 *   CHROME_ARGS="--js-flags=…" …   (extra Chromium switches, for experiments)
 *
 * Figures only: not a pass/fail test. Pages: bench/lib/page-shapes.ts (generated, seeded).
 */
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, CDPSession, Worker } from 'playwright-core';
import { verdict, type Measured } from './lib/aims';
import { backgroundCost } from './lib/background-cost';
import { buildWithSourceMaps } from './lib/mapped-build';
import { splitProfile, STAGES, type CpuProfile } from './lib/cost-profile';
import { longestTask, scriptTaskTime, tasksByKind } from './lib/trace-tasks';
import { KIND_CATEGORIES, launch, measure, open, openTraced, serve, settledCost, type Kind, type Run } from './lib/page-loads';
import { pageShapes, type PageShape } from './lib/page-shapes';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = Number(process.env.ROWS ?? 5000);
const ROUNDS = Math.max(1, Number(process.env.ROUNDS ?? 5));
const BUILD = join(ROOT, '.output/chrome-mv3');
const CONTENT = 'content-scripts/content.js';
/** The finder, injected by the background into a frame whose first stage saw a possible number. */
const FINDER = 'finder.js';
const OUR_FILES = [CONTENT, FINDER];
/** Only the shapes whose names start with one of these (comma-separated), e.g. SHAPES=report,article. */
const SHAPES = process.env.SHAPES?.split(',').filter(Boolean) ?? [];
/** PROFILE_ONLY=1: only the CPU profile (of the first shape picked). */
const PROFILE_ONLY = !!process.env.PROFILE_ONLY;
/** BREAKDOWN=1: only traced loads, alone and ours, with the page's main-thread time by kind of task (where a load difference goes). */
const BREAKDOWN = !!process.env.BREAKDOWN;
/** ALLOC=1: only where our content script allocates on the first shape picked (what its garbage collection collects); ALLOC=old: only what outlived the young generation. */
const ALLOC = process.env.ALLOC || '';
/** FINDS=1: only ours started in a settled page, with the page/find requests its frame sent (how many, how many texts, how many different). */
const FINDS = !!process.env.FINDS;
/** AGAINST=<another chrome-mv3 build>: only ours started in a settled page, this build against that one (see against()). */
const AGAINST = process.env.AGAINST;

/**
 * A change's effect: this build and another (AGAINST), each loaded in a browser of its own, ours
 * started in a settled page (settledCost), the two builds' loads taking turns round by round. Two
 * bench runs a while apart differ by more than most changes do (the machine's load drifts); within
 * one run the drift falls on both alike.
 */
async function against(context: BrowserContext, sw: Worker, port: number, shapes: PageShape[], otherBuild: string): Promise<void> {
  if (!existsSync(join(otherBuild, CONTENT))) throw new Error(`AGAINST: no build at ${otherBuild}`);
  const other = await launch(otherBuild);
  try {
    console.log(`This build (${BUILD}) against ${otherBuild}: ours started in a settled page, thread time until quiet (ms)`);
    for (const shape of shapes) {
      const mine: number[] = [];
      const theirs: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const turns = round % 2 ? [() => theirs, () => mine] : [() => mine, () => theirs];
        for (const which of turns) {
          const list = which();
          list.push(list === mine ? await settledCost(context, sw, port, shape, 'ours') : await settledCost(other.context, other.sw, port, shape, 'ours'));
        }
      }
      const [a, b] = [median(mine), median(theirs)];
      console.log(`${shape.name.padEnd(20)} this ${f1(a)}  other ${f1(b)}  this/other ${(a / b).toFixed(2)}  │ this ${mine.map(Math.round).join(' ')}; other ${theirs.map(Math.round).join(' ')}`);
    }
  } finally {
    await other.context.close();
    rmSync(other.dir, { recursive: true, force: true });
  }
}

/**
 * What ours asks the background for a page (FINDS): the page/find requests of one settled run, their
 * texts, and how many of those texts were different. Asking the same text twice costs the page a
 * message's worth of serialising and the background a parse; its answer could have served both.
 */
async function finds(context: BrowserContext, sw: Worker, port: number, shape: PageShape): Promise<void> {
  await sw.evaluate(() => {
    const g = globalThis as any;
    g.__finds = { requests: 0, texts: [] as string[] };
    if (g.__findsListening) return;
    g.__findsListening = true;
    // A second listener sees every message and answers none (returns undefined): the extension's own handler answers.
    g.chrome.runtime.onMessage.addListener((message: any) => {
      if (message?.type !== 'page/find' || !g.__finds) return;
      g.__finds.requests++;
      g.__finds.texts.push(...JSON.parse(message.batch).texts);
    });
  });
  const ms = await settledCost(context, sw, port, shape, 'ours');
  const { requests, texts } = await sw.evaluate(() => (globalThis as any).__finds as { requests: number; texts: string[] });
  console.log(`${shape.name.padEnd(20)} ${f1(ms)} ms │ ${requests} requests, ${texts.length} texts, ${new Set(texts).size} different`);
}

// ---- the longest task, from a trace ----

/** From one traced load: the longest task the script ran in, and all the thread time of those tasks (ms). */
async function traced(context: BrowserContext, sw: Worker, port: number, shape: PageShape, kind: Kind, prefix: string): Promise<{ longest: number; inTasks: number; kinds: Map<string, number> }> {
  const { events } = await openTraced(context, sw, port, shape, kind, KIND_CATEGORIES);
  return { longest: longestTask(events, prefix), inTasks: scriptTaskTime(events, prefix), kinds: tasksByKind(events, prefix) };
}

/** Traced loads of a shape, alone and with ours, taking turns: the mean main-thread time of each kind of task. */
async function breakdown(context: BrowserContext, sw: Worker, port: number, shape: PageShape, ourUrl: string): Promise<void> {
  const sums = { alone: new Map<string, number>(), ours: new Map<string, number>() };
  /** Each load's total and its largest kinds: a mean hides the load that cost twice the others. */
  const loads: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 ? (['ours', 'alone'] as const) : (['alone', 'ours'] as const)) {
      const { kinds } = await traced(context, sw, port, shape, kind, ourUrl);
      for (const [k, ms] of kinds) sums[kind].set(k, (sums[kind].get(k) ?? 0) + ms / ROUNDS);
      const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 5);
      loads.push(`  round ${round + 1} ${kind.padEnd(5)} ${f1([...kinds.values()].reduce((a, b) => a + b, 0))}: ${top.map(([k, ms]) => `${k} ${Math.round(ms)}`).join(', ')}`);
    }
  }
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${shape.name}: main-thread thread time by task kind, mean of ${ROUNDS} traced loads each`);
  console.log(`${'task kind'.padEnd(28)} ${'alone'.padStart(8)} ${'ours'.padStart(8)} ${'diff'.padStart(8)}`);
  const keys = [...new Set([...sums.alone.keys(), ...sums.ours.keys()])].sort((a, b) => Math.abs((sums.ours.get(b) ?? 0) - (sums.alone.get(b) ?? 0)) - Math.abs((sums.ours.get(a) ?? 0) - (sums.alone.get(a) ?? 0)));
  for (const k of keys.slice(0, 14)) {
    const a = sums.alone.get(k) ?? 0;
    const o = sums.ours.get(k) ?? 0;
    console.log(`${k.padEnd(28)} ${f1(a)} ${f1(o)} ${f1(o - a)}`);
  }
  console.log(`${'all'.padEnd(28)} ${f1(total(sums.alone))} ${f1(total(sums.ours))} ${f1(total(sums.ours) - total(sums.alone))}`);
  console.log(`Each load (ms, its largest kinds):\n${loads.join('\n')}`);
  // Ours started in a settled page: what its window holds besides its own tasks (the continuations of
  // its answers run as microtask checkpoints, and a major collection may fall in it or not).
  const settled: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let kinds = new Map<string, number>();
    let tasks: number[] = [];
    const ms = await settledCost(context, sw, port, shape, 'ours', { prefix: ourUrl, kinds: (k, t) => ((kinds = k), (tasks = t)) });
    const top = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 6);
    // How the work was cut: many short tasks each pay a task's own overhead (and the per-task memos start afresh).
    const cut = `${tasks.length} script tasks, median ${f1(tasks.length ? median(tasks) : 0)} ms, longest ${f1(Math.max(0, ...tasks))} ms`;
    settled.push(`  round ${round + 1} ${f1(ms)}: ${top.map(([k, t]) => `${k} ${Math.round(t)}`).join(', ')} │ ${cut}`);
  }
  console.log(`Ours started in a settled page (ms until quiet, its window's largest kinds of task):\n${settled.join('\n')}`);
}

// ---- the CPU profile split ----

/** One load of `shape` with ours, from a build with source maps (so each frame maps back to its module and function), under `profiled`. */
async function withMappedBuild<T>(shape: PageShape, port: number, profiled: (cdp: CDPSession) => Promise<void>, done: (cdp: CDPSession, mapped: (url: string, line: number, column: number) => { source: string; name: string; line: number } | null) => Promise<T>): Promise<T> {
  const outDir = await buildWithSourceMaps(ROOT);
  try {
    const extDir = join(outDir, 'chrome-mv3');
    const maps = new Map(OUR_FILES.map((file) => [file, new TraceMap(readFileSync(join(extDir, `${file}.map`), 'utf8'))]));
    const mapOf = (url: string) => [...maps].find(([file]) => url.endsWith(file))?.[1];
    const mapped = (url: string, line: number, column: number) => {
      const map = mapOf(url);
      const at = map ? originalPositionFor(map, { line: line + 1, column }) : null;
      return at?.source ? { source: at.source, name: at.name ?? '', line: at.line ?? 0 } : null;
    };
    const { context, sw, dir } = await launch(extDir);
    try {
      const { page, cdp } = await open(context, sw, port, shape, 'ours', profiled);
      const result = await done(cdp, mapped);
      await page.close();
      await context.close();
      return result;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function profileSplit(shape: PageShape, port: number): Promise<ReturnType<typeof splitProfile>> {
  return withMappedBuild(
    shape,
    port,
    async (session) => {
      await session.send('Profiler.enable');
      await session.send('Profiler.setSamplingInterval', { interval: 100 });
      await session.send('Profiler.start');
    },
    async (cdp, mapped) => splitProfile((await cdp.send('Profiler.stop')).profile as CpuProfile, (url) => OUR_FILES.some((file) => url.endsWith(file)), mapped),
  );
}

interface AllocNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: AllocNode[];
}

/** Where our content script allocates (sampled, collected objects included), by function: bytes. */
async function allocations(shape: PageShape, port: number): Promise<Array<[string, number]>> {
  return withMappedBuild(
    shape,
    port,
    async (session) => {
      await session.send('HeapProfiler.enable');
      // ALLOC=old: only what outlived the young generation (kept, or promoted and collected later by a
      // major collection, whose marking of a large page's DOM is what such garbage costs).
      await session.send('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: ALLOC !== 'old' } as never);
    },
    async (cdp, mapped) => {
      const { profile } = (await cdp.send('HeapProfiler.stopSampling')) as unknown as { profile: { head: AllocNode } };
      const bytes = new Map<string, number>();
      const visit = (node: AllocNode) => {
        const { url, lineNumber, columnNumber, functionName } = node.callFrame;
        const at = OUR_FILES.some((file) => url.endsWith(file)) ? mapped(url, lineNumber, columnNumber) : null;
        if (at && node.selfSize > 0) {
          const key = `${at.source.replace(/^.*?(lib\/)/, '$1')}:${at.line} ${at.name || functionName}`;
          bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
        }
        node.children.forEach(visit);
      };
      visit(profile.head);
      return [...bytes].sort((a, b) => b[1] - a[1]);
    },
  );
}

// ---- the run ----

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f1 = (x: number) => x.toFixed(1).padStart(7);

async function main() {
  if (!existsSync(join(BUILD, CONTENT))) throw new Error('No production build: run `npm run build` first.');
  const shapes = pageShapes(ROWS).filter((shape) => !SHAPES.length || SHAPES.some((prefix) => shape.name.startsWith(prefix)));
  const server = await serve(shapes);
  const { context, sw, dir } = await launch(BUILD);
  const ourUrl = `chrome-extension://${new URL(sw.url()).host}/`; // URL.origin is "null" for this scheme
  console.log(`Chromium ${context.browser()?.version() ?? ''} · ${ROUNDS} rounds (median) · main-thread time with the script minus the page alone\n`);
  const head =
    `${'page'.padEnd(20)} ${'numbers'.padStart(12)} ${'found'.padStart(6)} ${'in s'.padStart(5)} │ ${'ours ms'.padStart(7)} ${'longest'.padStart(7)} ${'tasks'.padStart(7)} │ ` +
    `${'c2d ms'.padStart(7)} ${'longest'.padStart(7)} ${'tasks'.padStart(7)} │ ${'ours/c2d'.padStart(8)} ${'(tasks)'.padStart(8)} ${'aim'.padStart(6)} │ ${'walk ms'.padStart(7)} │ ${'bg ms'.padStart(7)}`;
  if (!AGAINST && !ALLOC) console.log(`${head}\n${'─'.repeat(head.length)}`);
  try {
    if (ALLOC) {
      const rows = await allocations(shapes[0]!, server.port);
      const total = rows.reduce((a, [, b]) => a + b, 0);
      console.log(`Our content script's allocations on ${shapes[0]!.name} (sampled; collected ones included): ${(total / 1048576).toFixed(1)} MB`);
      for (const [where, b] of rows.slice(0, Number(process.env.TOP ?? 25))) console.log(`  ${(b / 1024).toFixed(0).padStart(7)} KB  ${where}`);
      server.close();
      return;
    }
    if (AGAINST) {
      await against(context, sw, server.port, shapes, AGAINST);
      server.close();
      return;
    }
    if (FINDS) {
      for (const shape of shapes) await finds(context, sw, server.port, shape);
      server.close();
      return;
    }
    if (BREAKDOWN) {
      for (const shape of shapes) await breakdown(context, sw, server.port, shape, ourUrl);
      server.close(); // the profile below is not taken: its server must not keep the process alive
      return;
    }
    /** Per shape: how far the page alone swung, and ours' difference in each round. */
    const spreads: string[] = [];
    /** Per shape: the script started in a settled page (settledCost). */
    const settledLines: string[] = [];
    /** Per shape: two loads' difference counted from each script's start (timeFromScriptStart). */
    const fromStartLines: string[] = [];
    /** Every ratio printed, for the closing verdict. */
    const measured: Measured[] = [];
    for (const shape of PROFILE_ONLY ? [] : shapes) {
      const runs: Record<Kind, Run[]> = { alone: [], ours: [], c2d: [], walk: [] };
      const settled = { ours: [] as number[], c2d: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        const order = (['alone', 'ours', 'c2d', 'walk'] as const).map((_, i, all) => all[(i + round) % all.length]!);
        for (const kind of order) runs[kind].push(await measure(context, sw, server.port, shape, kind, ourUrl));
        for (const kind of round % 2 ? (['c2d', 'ours'] as const) : (['ours', 'c2d'] as const)) settled[kind].push(await settledCost(context, sw, server.port, shape, kind));
      }
      // Each round's load against the same round's page alone (the loads of one round come one after
      // another), then the median of those differences: the page alone swings by hundreds of ms on the
      // 5,000-row pages, and a difference of two separate medians carried that swing whole.
      const diffs = (kind: Kind) => runs[kind].map((r, i) => r.ms - runs.alone[i]!.ms);
      const added = (kind: Kind) => Math.max(0, median(diffs(kind)));
      const ours = added('ours');
      const c2d = added('c2d');
      const walk = added('walk');
      const aloneMs = runs.alone.map((r) => r.ms);
      const [oursSettled, c2dSettled] = [median(settled.ours), median(settled.c2d)];
      const aimOf = shape.large ? 1 / 3 : 1;
      /** Ours over c2d by one measure, kept for the verdict. */
      const measuredAs = (measure: string, ours: number, c2d: number): number => {
        const ratio = c2d > 0 ? ours / c2d : Infinity;
        measured.push({ shape: shape.name, measure, ratio, aim: aimOf });
        return ratio;
      };
      settledLines.push(
        `${shape.name.padEnd(20)} │ ${f1(oursSettled)} ${f1(c2dSettled)} │ ${measuredAs('settled page', oursSettled, c2dSettled).toFixed(2).padStart(8)} ${(shape.large ? '≤ 0.33' : '≤ 1').padStart(6)} │ ` +
          `ours ${settled.ours.map(Math.round).join(' ')}; c2d ${settled.c2d.map(Math.round).join(' ')}`,
      );
      const fromDiffs = (kind: 'ours' | 'c2d') => runs[kind].flatMap((r, i) => (r.fromStart === null || runs.alone[i]!.fromStart === null ? [] : [r.fromStart - runs.alone[i]!.fromStart!]));
      const [oursFrom, c2dFrom] = [fromDiffs('ours'), fromDiffs('c2d')];
      if (oursFrom.length && c2dFrom.length) {
        const [o, c] = [Math.max(0, median(oursFrom)), Math.max(0, median(c2dFrom))];
        fromStartLines.push(
          `${shape.name.padEnd(20)} │ ${f1(o)} ${f1(c)} │ ${measuredAs("from the script's start", o, c).toFixed(2).padStart(8)} ${(shape.large ? '≤ 0.33' : '≤ 1').padStart(6)} │ ` +
            `ours ${oursFrom.map(Math.round).join(' ')}; c2d ${c2dFrom.map(Math.round).join(' ')}; page alone from its marker ${runs.alone.map((r) => Math.round(r.fromStart ?? NaN)).join(' ')}`,
        );
      }
      spreads.push(`${shape.name}: page alone ${Math.round(Math.min(...aloneMs))}–${Math.round(Math.max(...aloneMs))} ms; ours added ${diffs('ours').map(Math.round).join(' ')}`);
      const oursTrace = await traced(context, sw, server.port, shape, 'ours', ourUrl);
      const c2dTrace = await traced(context, sw, server.port, shape, 'c2d', 'http://c2d-');
      const background = await backgroundCost(shape.html);
      const ratio = measuredAs('whole loads', ours, c2d);
      const taskRatio = measuredAs('tasks', oursTrace.inTasks, c2dTrace.inTasks);
      const r2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a').padStart(8);
      const aim = shape.large ? '≤ 0.33' : '≤ 1';
      console.log(
        `${shape.name.padEnd(20)} ${`${shape.numbers} (${shape.distinct})`.padStart(12)} ${String(median(runs.ours.map((r) => r.found ?? 0))).padStart(6)} ${(median(runs.ours.map((r) => r.doneMs ?? 0)) / 1000).toFixed(1).padStart(5)} │ ` +
          `${f1(ours)} ${f1(oursTrace.longest)} ${f1(oursTrace.inTasks)} │ ${f1(c2d)} ${f1(c2dTrace.longest)} ${f1(c2dTrace.inTasks)} │ ${r2(ratio)} ${r2(taskRatio)} ${aim.padStart(6)} │ ${f1(walk)} │ ${f1(background.ms)}`,
      );
    }
    console.log(
      '\nnumbers: phone numbers written on the page (different ones); found: different numbers ours reported (its count);\n' +
        'in s: from load to ours\' last report (wall time: the background parses what the page sends, off the page\'s thread).\n' +
        'ms: added main-thread time (the median over rounds of each round\'s load minus that round\'s page alone). longest: the longest main-thread task in which that script ran (one traced\n' +
        'round; aim ≤ 50 ms). tasks: all the thread time of the tasks that script ran in, in that traced round (no\n' +
        'subtraction of two page loads, whose own cost swings more than a small script costs on the large pages).\n' +
        'Aim: ours/c2d ≤ 0.33 on the large pages, ≤ 1 on the small ones.\n' +
        'walk ms: a bare text walk (a TreeWalker reading every text node once, as a page script): on a page without\n' +
        'numbers, ours should cost about that.\n' +
        'bg ms: what the background spends parsing the texts ours sends for the page (page/find), off the page\'s thread:\n' +
        'the same requests replayed through its own function in Node (bench/lib/background-cost.ts; not in ours ms).',
    );
    if (spreads.length) console.log(`\nEach round (ms, thread time):\n${spreads.map((line) => `  ${line}`).join('\n')}`);
    if (fromStartLines.length) {
      console.log(
        '\nThe same loads counted from each script\'s start (the thread time from the first task the script ran in until quiet,\n' +
          'minus the same round\'s page alone from a marker script injected where c2d is; the page\'s own parse and first\n' +
          'layout, before either script, stay out of both; median of rounds):',
      );
      console.log(`${'page'.padEnd(20)} │ ${'ours ms'.padStart(7)} ${'c2d ms'.padStart(7)} │ ${'ours/c2d'.padStart(8)} ${'aim'.padStart(6)} │ each round`);
      for (const line of fromStartLines) console.log(line);
    }
    if (settledLines.length) {
      console.log(
        '\nStarted in a settled page (the page loaded alone and went quiet, then the script started in it: its site switched\n' +
          'on for ours, its script tags for c2d); the thread time from then until quiet again, within one load (median of rounds):',
      );
      console.log(`${'page'.padEnd(20)} │ ${'ours ms'.padStart(7)} ${'c2d ms'.padStart(7)} │ ${'ours/c2d'.padStart(8)} ${'aim'.padStart(6)} │ each round`);
      for (const line of settledLines) console.log(line);
    }
    if (measured.length) console.log(`\n${verdict(measured)}`);
    const sizes = OUR_FILES.map((file) => {
      const raw = readFileSync(join(BUILD, file));
      return { file, kb: raw.length / 1024, gz: gzipSync(raw, { level: 9 }).length / 1024 };
    });
    for (const { file, kb, gz } of sizes) console.log(`${file === CONTENT ? '\nFirst stage' : 'Finder     '} ${file}: ${kb.toFixed(1)} KB, ${gz.toFixed(1)} KB gzipped`);
    console.log(`Both: ${sizes.reduce((a, x) => a + x.gz, 0).toFixed(1)} KB gzipped (budget 50 KB); a page without numbers loads the first stage only.`);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const large = shapes[0]!;
  const split = await profileSplit(large, server.port);
  server.close();
  console.log(`\nCPU profile of our content script on ${large.name} (self time, sampled every 0.1 ms; natives count for their caller):`);
  for (const stage of STAGES) console.log(`  ${stage.padEnd(22)} ${f1(split.stages[stage])} ms  ${((100 * split.stages[stage]) / Math.max(split.total, 1e-9)).toFixed(0).padStart(3)}%`);
  console.log(`  ${'total'.padEnd(22)} ${f1(split.total)} ms   (garbage collection in the renderer meanwhile: ${split.gc.toFixed(1)} ms)`);
  console.log('Its costliest functions (self time; "›" a native call made there):');
  for (const [where, ms] of [...split.functions].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 12))) console.log(`  ${f1(ms)} ms  ${where}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
