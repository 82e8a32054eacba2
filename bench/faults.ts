/**
 * Bench: many calls in real Chromium through the fault proxy (seeded faults on ~20 % of service
 * requests: 429 with Retry-After, 502/503/504, delays, dropped requests, answers dropped after the
 * sandbox processed them), the service worker stopped three times mid-run; beside the same run with
 * no faults (the baseline, same run, same worker stops). The sandbox's own records are the truth.
 *
 *   npx tsx bench/faults.ts [--calls 50] [--seed 20261123] [--rate 0.2] [--speed 60]
 *
 * Needs `npm run build` (or `npx wxt build`) first. Prints figures; asserts nothing.
 */
import type { Page } from 'playwright-core';
import type { CallRecord } from '../lib/calls/call-record';
import { MAX_CALLS } from '../lib/calls/history';
import { DATA_CHANNEL } from '../lib/store/data-db';
import { OWNER_KEY } from '../sandbox/keys';
import { SEED } from '../sandbox/seed';
import { startSandbox } from '../sandbox/server';
import { launchExtension, setUpThroughOptions } from '../tests/support/chromium';
import { readDataRecordScript, storedCallsIn } from '../tests/support/data-store';
import { FAULT_KINDS, startFaultProxy, type FaultKind } from '../tests/support/fault-proxy';
import { compareRun, dialPlan, isFollowed, problemLines, requestLabel, sandboxTruth, sendDial, stopServiceWorker, type DialResult } from '../tests/support/fault-run';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) ? value : fallback;
};
const CALLS = arg('calls', 50);
const SEED_ARG = arg('seed', 20261123);
const RATE = arg('rate', 0.2);
const SPEED = arg('speed', 60);
/** Give up waiting after this long: a call that waits for the user never ends by itself. */
const WAIT_LIMIT_MS = 6 * 60_000;
const AGENT = SEED.A.agents.sales;

interface RunFigures {
  rate: number;
  faults: Record<FaultKind, number>;
  faultTotal: number;
  /** Service requests the extension sent (counted at the proxy), and those the sandbox logged. */
  requestsSent: number;
  requestsAtSandbox: number;
  results: DialResult[];
  reachedTruth: number;
  extraBatches: number;
  dialsWithoutBatch: number;
  waitingForUser: number;
  inHistoryAtEnd: number;
  /** From the first dial to the last call's terminal status in history (ms); null if some never got one. */
  allTerminalMs: number | null;
  /** From the first dial to the last terminal status any call reached (ms). */
  lastTerminalMs: number | null;
  /** From the first dial until no call was followed any more (ms). */
  settledMs: number;
  problems: string[];
}

/**
 * Every version of every call record the background wrote, kept in the page: the history keeps
 * MAX_CALLS records, so with more calls the oldest finished ones leave it before the end.
 * A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
 */
const WATCH_CALLS = `(() => {
  window.__calls = {};
  const keep = (list) => { for (const c of list ?? []) window.__calls[c.id] = c; };
  const channel = new BroadcastChannel(${JSON.stringify(DATA_CHANNEL)});
  channel.onmessage = (event) => { if (event.data?.name === 'calls') keep(event.data.value?.calls); };
  return ${readDataRecordScript('calls')}.then((stored) => keep(stored?.calls));
})()`;
const seenCalls = (page: Page): Promise<CallRecord[]> => page.evaluate('Object.values(window.__calls)') as Promise<CallRecord[]>;
const historyNow = (page: Page): Promise<CallRecord[]> => storedCallsIn<CallRecord>(page);

async function runOnce(rate: number): Promise<RunFigures> {
  const sandbox = await startSandbox({ port: 0, speed: SPEED, rateLimitPerMinute: 100_000 });
  const proxy = await startFaultProxy({ target: sandbox.url, seed: SEED_ARG, rate: 0, label: requestLabel });
  const { context, extensionId, close } = await launchExtension();
  try {
    await setUpThroughOptions(context, extensionId, proxy.url, OWNER_KEY);
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    await page.evaluate(WATCH_CALLS);
    await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
    const requestsBefore = proxy.requests;
    proxy.setRate(rate);

    const dials = dialPlan(CALLS);
    const stopsAfter = new Set([Math.round(CALLS / 3), Math.round((2 * CALLS) / 3), CALLS]);
    const started = Date.now();
    for (const dial of dials) {
      const reply = await sendDial(page, AGENT, dial.number);
      if (!reply.ok) console.log(`  dial ${dial.n} refused: ${reply.error?.message}`);
      if (stopsAfter.has(dial.n)) await stopServiceWorker(context, page);
    }
    // Until no call is followed any more (the last worker stop is undone by the tracker's alarm).
    const numbers = new Set(dials.map((d) => d.number));
    for (;;) {
      const seen = (await seenCalls(page)).filter((c) => numbers.has(c.toNumber));
      const inHistory = new Set((await historyNow(page)).map((c) => c.id));
      // A record that left the history (the cap) is no longer followed by anyone.
      if (!seen.some((c) => isFollowed(c) && inHistory.has(c.id))) break;
      if (Date.now() - started > WAIT_LIMIT_MS) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const settledMs = Date.now() - started;
    proxy.setRate(0);

    const seen = await seenCalls(page);
    const truth = await sandboxTruth(sandbox.url, AGENT);
    const results = compareRun(dials, seen, truth, proxy.log);
    const historyIds = new Set((await historyNow(page)).map((c) => c.id));
    const finishedAt = dials.map((d) => {
      const record = seen.find((c) => c.toNumber === d.number);
      return record?.step === 'finished' ? record.finishedAt : null;
    });
    return {
      rate,
      faults: proxy.countByKind(),
      faultTotal: proxy.log.length,
      requestsSent: proxy.requests - requestsBefore,
      requestsAtSandbox: truth.requests,
      results,
      reachedTruth: results.filter((r) => r.reachedTruth).length,
      extraBatches: results.reduce((sum, r) => sum + Math.max(0, r.batches - 1), 0),
      dialsWithoutBatch: results.filter((r) => r.batches === 0).length,
      waitingForUser: seen.filter((c) => numbers.has(c.toNumber) && c.step !== 'finished' && (c.failure || c.trackingPaused)).length,
      inHistoryAtEnd: seen.filter((c) => numbers.has(c.toNumber) && historyIds.has(c.id)).length,
      allTerminalMs: finishedAt.every((t) => t !== null) ? Math.max(...(finishedAt as number[])) - started : null,
      lastTerminalMs: finishedAt.some((t) => t !== null) ? Math.max(...finishedAt.filter((t): t is number => t !== null)) - started : null,
      settledMs,
      problems: problemLines(results),
    };
  } finally {
    await close();
    await proxy.close();
    await sandbox.close();
  }
}

const secs = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);

async function main() {
  console.log(`Fault bench — ${CALLS} calls per run, seed ${SEED_ARG}, fault rate ${RATE}, sandbox speed ${SPEED}, worker stopped 3 times per run`);
  const baseline = await runOnce(0);
  const faulty = await runOnce(RATE);

  const rows: Array<[string, (f: RunFigures) => string]> = [
    ['calls', () => String(CALLS)],
    ['faults injected', (f) => `${f.faultTotal}`],
    ...FAULT_KINDS.map((kind): [string, (f: RunFigures) => string] => [`  ${kind}`, (f) => String(f.faults[kind])]),
    ['requests sent (at the proxy)', (f) => String(f.requestsSent)],
    ['requests the sandbox saw', (f) => String(f.requestsAtSandbox)],
    ["reached the sandbox's terminal status", (f) => `${f.reachedTruth} of ${CALLS}`],
    ['extra batches (beyond one per dial)', (f) => String(f.extraBatches)],
    ['dials with no batch', (f) => String(f.dialsWithoutBatch)],
    ['calls waiting for the user (Retry)', (f) => String(f.waitingForUser)],
    [`in history at the end (keeps ${MAX_CALLS})`, (f) => `${f.inHistoryAtEnd} of ${CALLS}`],
    ['time to all-terminal', (f) => secs(f.allTerminalMs)],
    ['time to the last call that ended', (f) => secs(f.lastTerminalMs)],
    ['time until nothing was followed', (f) => secs(f.settledMs)],
  ];
  console.log(`\n${'figure'.padEnd(40)}${'no faults'.padStart(12)}${`faults ${Math.round(RATE * 100)} %`.padStart(14)}`);
  for (const [name, value] of rows) console.log(`${name.padEnd(40)}${value(baseline).padStart(12)}${value(faulty).padStart(14)}`);
  for (const [name, run] of [['no faults', baseline], ['faults', faulty]] as const) {
    if (!run.problems.length) continue;
    console.log(`\nWhat went wrong (${name}):`);
    for (const line of run.problems) console.log(`  ${line}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
