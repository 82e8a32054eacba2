/**
 * Bench: how late does the UI show each status of a tracked call, and how many requests does the
 * tracker spend — beside a fixed 1.5 s poller (what the official dashboard does) measured on the
 * same call in the same run. Real Chromium, the production build, the sandbox over HTTP.
 *
 *   npx tsx bench/tracker.ts [--speed 1]
 *
 * At speed 1 the sandbox keeps real timings (the ≥ 2-minute wait before the start included), so one
 * run takes about three minutes. Prints figures; asserts nothing.
 */
import { startSandbox } from '../sandbox/server';
import { launchExtension, setUpThroughOptions } from '../tests/support/chromium';
import { OWNER_KEY } from '../sandbox/keys';
import { storedCallsIn } from '../tests/support/data-store';
import { STATUS_LABELS } from '../lib/calls/status';
import { isTerminalExecutionStatus } from '../lib/api/status-vocabulary';

/** Runs inside extension pages, where Chromium's `chrome` API exists. */
declare const chrome: any;

const speed = Number(process.argv[process.argv.indexOf('--speed') + 1] || 1) || 1;
const NUMBER = '+14155552671';
const labelToStatus = new Map(Object.entries(STATUS_LABELS).map(([status, label]) => [label, status]));

const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (ms: number) => (Number.isNaN(ms) ? '   -  ' : `${(ms / 1000).toFixed(2)} s`);

async function main() {
  const sandbox = await startSandbox({ port: 0, speed });
  const { context, extensionId: id, close } = await launchExtension();
  try {
    await setUpThroughOptions(context, id, sandbox.url, OWNER_KEY);

    const popup = await context.newPage();
    await popup.goto(`chrome-extension://${id}/popup.html`);
    await popup.getByLabel('Agent').locator('option').nth(1).waitFor({ state: 'attached' });
    await popup.getByLabel('Agent').selectOption({ index: 1 });
    await popup.getByLabel('Phone number').fill(NUMBER);
    await popup.getByRole('button', { name: 'Call' }).click();
    await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
    await popup.getByRole('button', { name: 'Confirm' }).click();

    // Watch what the UI shows: the call status line, as a person reads it, with the wall-clock time.
    const shown: { status: string; at: number }[] = [];
    await popup.exposeFunction('__shown', (text: string) => {
      const status = labelToStatus.get(text.trim().replace(/\.$/, ''));
      if (status && !shown.some((s) => s.status === status)) shown.push({ status, at: Date.now() });
    });
    await popup.locator('.call-status').waitFor();
    // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
    await popup.evaluate(`(() => {
      const report = () => window.__shown(document.querySelector('.call-status')?.textContent ?? '');
      new MutationObserver(report).observe(document.body, { subtree: true, childList: true, characterData: true });
      report();
    })()`);

    // The baseline: a fixed 1.5 s poller on the same execution, from the moment it exists.
    const calls = () => storedCallsIn(popup);
    let executionId: string | undefined;
    while (!executionId) {
      executionId = (await calls())[0]?.executionId ?? undefined;
      await new Promise((r) => setTimeout(r, 50));
    }
    const baselineSeen: { status: string; at: number }[] = [];
    let baselineRequests = 0;
    for (;;) {
      baselineRequests++;
      const res = await fetch(`${sandbox.url}/executions/${executionId}?poller=baseline`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } });
      const status = res.ok ? ((await res.json()) as { status: string }).status : '';
      if (status && !baselineSeen.some((s) => s.status === status)) baselineSeen.push({ status, at: Date.now() });
      if (isTerminalExecutionStatus(status)) break;
      await new Promise((r) => setTimeout(r, 1500));
    }
    // Let the UI catch up on the last status.
    for (let i = 0; i < 100 && !shown.some((s) => isTerminalExecutionStatus(s.status)); i++) await new Promise((r) => setTimeout(r, 100));

    const events = (await (await fetch(`${sandbox.url}/__sandbox/events?execution_id=${executionId}`)).json()) as { status: string; at: number }[];
    const log = (await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as { method: string; path: string; query?: string }[];
    const ours = log.filter((r) => !(r.query ?? '').includes('poller=baseline') && /^\/(batches|batch|executions)/.test(r.path));

    const lags = (seen: { status: string; at: number }[]) =>
      events.flatMap((e) => {
        const s = seen.find((x) => x.status === e.status);
        return s ? [{ status: e.status, lag: s.at - e.at }] : [];
      });
    const ourLags = lags(shown);
    const baseLags = lags(baselineSeen);

    console.log(`\nTracker bench — one call to ${NUMBER}, sandbox speed ${speed}, Chromium ${context.browser()?.version() ?? ''}`);
    console.log('status              changed at   UI (tracker)   baseline 1.5 s poller');
    for (const e of events) {
      const o = ourLags.find((l) => l.status === e.status);
      const b = baseLags.find((l) => l.status === e.status);
      console.log(`${e.status.padEnd(20)}${new Date(e.at).toISOString().slice(11, 23)}   ${o ? fmt(o.lag).padStart(8) : 'not shown'.padStart(9)}      ${b ? fmt(b.lag).padStart(8) : 'not seen'.padStart(8)}`);
    }
    const om = median(ourLags.map((l) => l.lag));
    const bm = median(baseLags.map((l) => l.lag));
    console.log(`\nlag median / max      tracker ${fmt(om)} / ${fmt(Math.max(...ourLags.map((l) => l.lag)))}   baseline ${fmt(bm)} / ${fmt(Math.max(...baseLags.map((l) => l.lag)))}`);
    console.log(`statuses shown        tracker ${ourLags.length} of ${events.length}   baseline ${baseLags.length} of ${events.length}`);
    console.log(`requests              tracker ${ours.length} (all batch and execution requests of the dial)   baseline ${baselineRequests} (polls only)`);
    console.log(`ratio                 tracker/baseline requests ${(ours.length / baselineRequests).toFixed(2)}; median lag ${(om / bm).toFixed(2)}× the baseline's`);
  } finally {
    await close();
    await sandbox.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
