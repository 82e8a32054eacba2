/**
 * Widget bench: what `<voice-agent-call>` costs a host page, beside the same page without it, in one
 * Chromium run (no extension: the element's own cost). Figures only, not a pass/fail test.
 *
 * - size: .output/widget/voice-agent-call.js, raw and gzipped (what a host page downloads);
 * - main thread: the renderer's task time (CDP Performance.getMetrics TaskDuration) once the page is
 *   quiet, for the page alone and the page with the element; the difference is the element's;
 * - interactive: when the element's Call button is there (customElements.whenDefined, then the
 *   button checked), against the page's own DOMContentLoaded.
 * Each load gets a site of its own (`<kind>-<n>.test`), so a renderer of its own. Median of ROUNDS.
 *
 *   npm run build:widget && npm run bench -- widget        ROUNDS=11 npm run bench -- widget
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type CDPSession } from 'playwright-core';
import { browserPath } from '../scripts/browsers.mjs';

const ROOT = join(import.meta.dirname, '..');
const SCRIPT = readFileSync(join(ROOT, '.output/widget/voice-agent-call.js'));
const ROUNDS = Number(process.env.ROUNDS ?? 7);

const record = Array.from({ length: 60 }, (_, i) => `<tr><td>Field ${i}</td><td>Value ${i} for the record</td></tr>`).join('');
const page = (withWidget: boolean) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Record</title>
  <script>addEventListener('DOMContentLoaded', () => { window.__dcl = performance.now(); });</script>
  ${withWidget ? '<script defer src="/voice-agent-call.js"></script>' : ''}</head>
  <body><h1>Ada Lovelace</h1><table>${record}</table>
  ${withWidget ? `<voice-agent-call agent="agent-1" number="+14155550123"></voice-agent-call>
  <script>customElements.whenDefined('voice-agent-call').then(() => { const b = document.querySelector('voice-agent-call').shadowRoot?.querySelector('button'); window.__interactive = b ? performance.now() : -1; });</script>` : ''}
  </body></html>`;

const server = createServer((req, res) => {
  if (req.url === '/voice-agent-call.js') return res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(SCRIPT);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page(req.headers.host?.startsWith('widget') ?? false));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;

const browser = await chromium.launch({
  executablePath: browserPath('chromium'),
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP *.test 127.0.0.1', '--disable-background-networking', '--no-first-run'],
});
const context = await browser.newContext();

async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
}
/** Until the main thread has been all but idle (< 1 ms of tasks) for 1 s. */
async function quiet(cdp: CDPSession): Promise<number> {
  let last = await taskMs(cdp);
  for (let still = 0; still < 10; ) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await taskMs(cdp);
    still = now - last < 1 ? still + 1 : 0;
    last = now;
  }
  return last;
}

type Kind = 'base' | 'widget';
const results: Record<Kind, { task: number[]; dcl: number[]; interactive: number[] }> = { base: { task: [], dcl: [], interactive: [] }, widget: { task: [], dcl: [], interactive: [] } };
for (let n = 0; n < ROUNDS; n++) {
  for (const kind of ['base', 'widget'] as Kind[]) {
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await tab.goto(`http://${kind}-${n}.test:${port}/`);
    results[kind].task.push(await quiet(cdp));
    const times = await tab.evaluate(() => ({ dcl: (window as any).__dcl as number, interactive: (window as any).__interactive as number | undefined }));
    results[kind].dcl.push(times.dcl);
    if (kind === 'widget') {
      if (!times.interactive || times.interactive < 0) throw new Error('the element did not render its Call button');
      results[kind].interactive.push(times.interactive);
    }
    await tab.close();
  }
}
await browser.close();
server.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
console.log(`voice-agent-call.js: ${SCRIPT.length} B, ${gzipSync(SCRIPT).length} B gzipped`);
console.log(`Median of ${ROUNDS} loads each, same run:`);
console.table({
  'page alone (baseline)': { 'main-thread tasks until quiet': ms(median(results.base.task)), DOMContentLoaded: ms(median(results.base.dcl)), 'Call button ready': '—' },
  'page with <voice-agent-call>': { 'main-thread tasks until quiet': ms(median(results.widget.task)), DOMContentLoaded: ms(median(results.widget.dcl)), 'Call button ready': ms(median(results.widget.interactive)) },
});
console.log(`Added by the element: ${ms(median(results.widget.task) - median(results.base.task))} of main-thread time; interactive ${ms(median(results.widget.interactive))} after navigation start.`);
