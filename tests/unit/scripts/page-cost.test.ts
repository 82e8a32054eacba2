/**
 * The page-cost bench's pure parts: the CPU-profile split by stage, the longest task from a trace,
 * and the generated pages (seeded: the same every run; the shapes the issue names).
 */
import { describe, expect, it } from 'vitest';
import { splitProfile, stageOf, type CpuProfile } from '../../../bench/lib/cost-profile';
import { longestTask, scriptTaskTime, timeFromScriptStart, type TraceEvent } from '../../../bench/lib/trace-tasks';
import { longArticle, pageShapes, phoneText, recordView, seeded } from '../../../bench/lib/page-shapes';
import { backgroundCost } from '../../../bench/lib/background-cost';
import { verdict } from '../../../bench/lib/aims';

describe('stageOf', () => {
  it('puts each module of the content script in its stage', () => {
    expect(stageOf('../../lib/phone/scan.ts', 'step')).toBe('walk');
    expect(stageOf('../../lib/phone/joints.ts', 'laidOutApart')).toBe('walk');
    // The scanner's other modules (split from scan.ts), the first stage's look, the library's stand-ins.
    expect(stageOf('../../lib/phone/walk.ts', 'nextNode')).toBe('walk');
    expect(stageOf('../../lib/phone/scan-dom.ts', 'appendText')).toBe('walk');
    expect(stageOf('../../lib/page/shadow-roots.ts', '')).toBe('walk');
    expect(stageOf('../../lib/phone/candidate.ts', 'hasEnoughDigits')).toBe('candidate search');
    expect(stageOf('../../lib/page/first-look.ts', 'mayHoldNumbers')).toBe('candidate search');
    expect(stageOf('../../lib/phone/regexp-cache.ts', 'cachedRegExp')).toBe('parse + validation');
    expect(stageOf('../../lib/phone/parse-error.ts', 'ParseError')).toBe('parse + validation');
    expect(stageOf('../../lib/phone/scan.ts', 'takeChanges')).toBe('overlay bookkeeping');
    expect(stageOf('../../lib/phone/find.ts', 'mayContainPhoneNumber')).toBe('candidate search');
    expect(stageOf('../../node_modules/libphonenumber-js/es6/PhoneNumberMatcher.js', 'find')).toBe('candidate search');
    expect(stageOf('../../node_modules/libphonenumber-js/es6/parse.js', 'parse')).toBe('parse + validation');
    expect(stageOf('../../lib/phone/reject.ts', 'checkShape')).toBe('parse + validation');
    expect(stageOf('../../lib/page/click-to-call.ts', 'afterScan')).toBe('messages');
    expect(stageOf('../../lib/page/report.ts', 'numbersToReport')).toBe('messages');
    expect(stageOf('../../lib/page/click-to-call.ts', 'show')).toBe('overlay bookkeeping');
    expect(stageOf('../../node_modules/wxt/dist/utils/content-script.mjs', '')).toBe('start-up and other');
    // The DOM reads that say what a text is, and the round trip of texts parsed in the background.
    expect(stageOf('../../lib/phone/scan-dom.ts', 'labelFor')).toBe('labels + country');
    expect(stageOf('../../lib/phone/page-country.ts', 'pageCountry')).toBe('labels + country');
    expect(stageOf('../../lib/phone/place-names.ts', 'placesIn')).toBe('labels + country');
    expect(stageOf('../../lib/phone/scan-away.ts', 'flush')).toBe('messages');
    expect(stageOf('../../lib/phone/find-batch.ts', 'isFindAnswer')).toBe('messages');
    expect(stageOf('../../lib/phone/match-place.ts', 'matchToRange')).toBe('overlay bookkeeping');
    // The page's scanner (no phone library) and what it split out.
    expect(stageOf('../../lib/phone/scanner.ts', 'onGroup')).toBe('walk');
    expect(stageOf('../../lib/phone/scanner.ts', 'takeChanges')).toBe('overlay bookkeeping');
    expect(stageOf('../../lib/phone/element-matches.ts', 'linkMatches')).toBe('overlay bookkeeping');
    expect(stageOf('../../lib/phone/countries.ts', 'isCountry')).toBe('labels + country');
  });
});

describe('splitProfile', () => {
  const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 });
  // root → (program); root → ours@1 (scan.ts step) → native getComputedStyle; root → ours@2 (find.ts); root → page script; root → GC
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', ''), children: [2, 3, 5, 6, 7] },
      { id: 2, callFrame: frame('(program)', '') },
      { id: 3, callFrame: frame('a', 'chrome-extension://x/content-scripts/content.js', 1), children: [4] },
      { id: 4, callFrame: frame('getComputedStyle', '') },
      { id: 5, callFrame: frame('b', 'chrome-extension://x/content-scripts/content.js', 2) },
      { id: 6, callFrame: frame('pageFn', 'https://crm.example.com/app.js') },
      { id: 7, callFrame: frame('(garbage collector)', '') },
    ],
    // Each sample's time is the delta to the next one (µs).
    samples: [3, 4, 4, 5, 6, 2, 7, 3],
    timeDeltas: [0, 1000, 2000, 3000, 4000, 5000, 6000, 7000],
  };
  const locate = (_url: string, line: number) => (line === 1 ? { source: 'lib/phone/scan.ts', name: 'step' } : { source: 'lib/phone/find.ts', name: 'run' });

  it('adds self time per stage, natives counting for their caller; other scripts, (program) and GC stay out', () => {
    const split = splitProfile(profile, (url) => url.endsWith('content.js'), locate);
    expect(split.stages.walk).toBeCloseTo(1 + 2 + 3); // a, then getComputedStyle twice
    expect(split.stages['candidate search']).toBeCloseTo(4);
    expect(split.total).toBeCloseTo(10);
    expect(split.gc).toBeCloseTo(7);
  });
});

describe('longestTask', () => {
  const meta = (pid: number, tid: number, name: string): TraceEvent => ({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name } });
  const task = (ts: number, ms: number, tid = 1): TraceEvent => ({ name: 'RunTask', ph: 'X', ts, dur: ms * 1000, pid: 9, tid });
  const call = (ts: number, url: string, tid = 1): TraceEvent => ({ name: 'FunctionCall', ph: 'X', ts, dur: 10, pid: 9, tid, args: { data: { url } } });
  const ours = 'chrome-extension://abc/content-scripts/content.js';

  it('the longest renderer main-thread task in which the script ran; others’ tasks and other threads do not count', () => {
    const events = [
      meta(9, 1, 'CrRendererMain'),
      meta(9, 2, 'Compositor'),
      task(0, 30), call(5_000, ours), // ours: 30 ms
      task(100_000, 80), call(100_500, 'https://page.example/app.js'), // the page's: 80 ms
      task(200_000, 45), call(210_000, ours), // ours: 45 ms
      task(300_000, 90, 2), call(300_100, ours, 2), // not a main thread
    ];
    expect(longestTask(events, 'chrome-extension://abc/')).toBe(45);
    // Thread time when the trace has it (a task stretched by other processes is not longer work).
    expect(longestTask([...events, { ...task(400_000, 70), tdur: 20_000 }, call(400_100, ours)], 'chrome-extension://abc/')).toBe(45);
    expect(longestTask(events, 'https://nobody.example/')).toBe(0);
  });

  it('scriptTaskTime sums every such task (thread time), and nothing else', () => {
    const events = [
      meta(9, 1, 'CrRendererMain'),
      task(0, 30), call(5_000, ours),
      task(100_000, 80), call(100_500, 'https://page.example/app.js'),
      { ...task(200_000, 45), tdur: 12_000 }, call(210_000, ours), call(220_000, 'chrome-extension://abc/finder.js'),
      task(300_000, 90, 2), call(300_100, ours, 2),
    ];
    expect(scriptTaskTime(events, 'chrome-extension://abc/')).toBe(42);
    expect(scriptTaskTime(events, 'https://page.example/')).toBe(80);
    expect(scriptTaskTime(events, 'https://nobody.example/')).toBe(0);
  });
});

describe('timeFromScriptStart', () => {
  const meta = (pid: number, tid: number, name: string): TraceEvent => ({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name } });
  const task = (ts: number, ms: number, tdurMs?: number, tid = 1): TraceEvent => ({ name: 'RunTask', ph: 'X', ts, dur: ms * 1000, pid: 9, tid, ...(tdurMs === undefined ? {} : { tdur: tdurMs * 1000 }) });
  const at = (name: string, ts: number, url: string, tid = 1): TraceEvent => ({ name, ph: 'X', ts, dur: 10, pid: 9, tid, args: { data: { url } } });
  const ours = (url: string) => url.startsWith('chrome-extension://abc/');

  it('sums the main thread’s top-level tasks from the start of the first task the script ran in; the page’s load before it stays out', () => {
    const events = [
      meta(9, 1, 'CrRendererMain'),
      meta(9, 2, 'Compositor'),
      task(0, 400, 350), // the page's parse and layout: before the script
      at('ResourceSendRequest', 1_000, 'chrome-extension://abc/content.js'), // not the script running
      task(500_000, 30, 20), at('EvaluateScript', 505_000, 'chrome-extension://abc/content.js'), // the script starts: 20
      task(500_100, 10), // a scheduler's RunTask inside that one: counted in it
      task(600_000, 50, 40), // style and layout it caused: 40
      task(700_000, 25, 25), at('FunctionCall', 701_000, 'https://page.example/app.js'), // the page's own, later: 25
      task(650_000, 90, 90, 2), // another thread
    ];
    expect(timeFromScriptStart(events, ours)).toBe(85);
    // The same load's page alone (a marker at the same point) subtracts to what the script caused.
    expect(timeFromScriptStart(events, (url) => url === 'https://page.example/app.js')).toBe(25);
    expect(timeFromScriptStart(events, (url) => url === 'https://nobody.example/')).toBeNull();
  });
});

describe('page shapes', () => {
  it('are the same every run, and the shapes the issue names', () => {
    const a = pageShapes(200);
    const b = pageShapes(200);
    expect(a.map((s) => s.html)).toEqual(b.map((s) => s.html));
    expect(a.map((s) => s.name)).toEqual(['report-export-200', 'crm-table-200', 'localized-list-200', 'article-1500p', 'look-alikes-200', 'raw-text-1mb', 'record-view', 'mail-thread']);
    // The article has no digit at all; the export has one phone per row, in 6 columns.
    expect(/\d/.test(a.find((s) => s.name === 'article-1500p')!.html.replace(/<style>.*?<\/style>/, '').replace(/<[^>]*>/g, ''))).toBe(false);
    expect(a[0]!.numbers).toBe(200);
    expect((a[0]!.html.match(/<tr>/g) ?? []).length).toBe(201);
    expect(a[0]!.html.split('<tr>')[5]!.match(/<td>/g)).toHaveLength(6);
  });

  it('phone numbers in varied US and international formats', () => {
    const r = seeded(1);
    const texts = Array.from({ length: 200 }, () => phoneText(r));
    expect(texts.some((t) => t.startsWith('('))).toBe(true);
    expect(texts.some((t) => t.startsWith('+44'))).toBe(true);
    expect(texts.some((t) => t.startsWith('+81'))).toBe(true);
    expect(new Set(texts).size).toBeGreaterThan(150);
  });
});

describe('backgroundCost', () => {
  it('replays the texts a page sends the background: none for an article, the candidate fields of a record', async () => {
    expect((await backgroundCost(longArticle(20).html)).texts).toBe(0);
    const record = await backgroundCost(recordView().html);
    // The three phone fields and the digit-bearing others (ids, dates, the address) that are not vetoed by their label.
    expect(record.texts).toBeGreaterThanOrEqual(3);
    expect(record.requests).toBe(1);
    expect(record.ms).toBeGreaterThan(0);
  });
});

describe('verdict', () => {
  const third = 1 / 3;
  it('names every shape and measure over its aim, and only those', () => {
    const line = verdict([
      { shape: 'crm-table', measure: 'tasks', ratio: 0.2, aim: third },
      { shape: 'crm-table', measure: 'settled', ratio: 0.35, aim: third },
      { shape: 'record-view', measure: 'whole loads', ratio: 0.9, aim: 1 },
      { shape: 'look-alikes', measure: 'whole loads', ratio: 0.43, aim: third },
    ]);
    expect(line).toBe('Over the aim, 2 of 4: crm-table by settled (0.350, aim ≤ 0.333); look-alikes by whole loads (0.430, aim ≤ 0.333).');
  });
  it('counts a ratio that prints as 0.33 but is over a third as over', () => {
    expect(verdict([{ shape: 'raw', measure: 'tasks', ratio: 0.334, aim: third }])).toMatch(/^Over the aim, 1 of 1: raw by tasks \(0\.334/);
    expect(verdict([{ shape: 'raw', measure: 'tasks', ratio: 395.7 / 1191.5, aim: third }])).toMatch(/^Within the aim/);
  });
  it('takes a ratio against a c2d figure of 0 as over, and says when all are within', () => {
    expect(verdict([{ shape: 'article', measure: 'whole loads', ratio: Infinity, aim: third }])).toContain('article by whole loads (n/a');
    expect(verdict([
      { shape: 'a', measure: 'tasks', ratio: 0.1, aim: third },
      { shape: 'b', measure: 'settled', ratio: 0.9, aim: 1 },
    ])).toBe('Within the aim: all 2 shapes by every measure (tasks, settled).');
    expect(verdict([{ shape: 'a', measure: 'tasks', ratio: 0.1, aim: third }])).toBe('Within the aim: the one shape by every measure (tasks).');
    expect(verdict([])).toBe('Nothing measured.');
  });
});
