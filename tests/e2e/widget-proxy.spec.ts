/**
 * The proxy way, end to end, as a host page without the extension meets it: the built element
 * (.output/widget/voice-agent-call.js) on a loopback page, a widget token minted for that page's
 * origin, the real proxy (proxy/node.ts) in front of the real sandbox. Call → the proxy places the call
 * with the placement engine → the page hears status and done events carrying the sandbox's own
 * execution; the audit log holds the call once; the service got one POST /call. Then Stop on a second
 * call: the page hears it stopped. A plain Chromium with no extension: nothing of ours but the element.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from '../support/chromium';
import { AGENT, startHarness, testPolicy, type Harness } from '../support/proxy-harness';
import { expectAxeClean } from './axe';
import { layoutProblems } from './layout';

const WIDGET = join(process.cwd(), '.output/widget/voice-agent-call.js');

interface Page {
  server: Server;
  origin: string;
  html: string;
}

async function servePage(): Promise<Page> {
  const page: Page = { server: createServer(), origin: '', html: '' };
  page.server.on('request', (req, res) => {
    if (req.url === '/widget/voice-agent-call.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(WIDGET));
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
  });
  await new Promise<void>((resolve) => page.server.listen(0, '127.0.0.1', () => resolve()));
  page.origin = `http://127.0.0.1:${(page.server.address() as AddressInfo).port}`;
  return page;
}

let host: Page;
let harness: Harness;
let browser: Browser;

test.beforeAll(async () => {
  host = await servePage();
  harness = await startHarness({ speed: 60, policy: testPolicy({ origins: [host.origin], transcripts: true }) });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});

test.afterAll(async () => {
  await browser?.close();
  await harness?.close();
  host.server.closeAllConnections();
  await new Promise((resolve) => host.server.close(resolve));
});

type Seen = { type: string; detail: Record<string, unknown>; id: string };

test('proxy way: the element calls through the proxy, hears status and done with the sandbox’s execution, and Stop stops', async () => {
  test.setTimeout(120_000);
  const token = await harness.mint({ origin: host.origin, agents: [AGENT] });
  const element = (id: string, number: string) =>
    `<voice-agent-call id="${id}" agent="${AGENT}" number="${number}" via="call" transcripts="show" proxy="${harness.proxy.url}" token="${token}"></voice-agent-call>`;
  host.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Record</title>
    <script>window.__events = []; for (const t of ['status', 'done', 'error']) document.addEventListener('voice-agent-call:' + t, (e) => window.__events.push({ type: e.type, detail: e.detail, id: e.target.id }));</script>
    <script src="/widget/voice-agent-call.js"></script></head><body><h1>Record</h1>${element('a', '+14155550123')}${element('b', '+14155550124')}</body></html>`;
  const page = await browser.newPage();
  await page.goto(`${host.origin}/record`);
  const events = () => page.evaluate(() => (window as unknown as { __events: Seen[] }).__events);

  // The first call runs to its end.
  await page.locator('#a').getByRole('button', { name: 'Call', exact: true }).click();
  await expect.poll(async () => (await events()).find((e) => e.id === 'a' && e.type === 'voice-agent-call:done') ?? null, { timeout: 60_000 }).not.toBeNull();
  const seenA = (await events()).filter((e) => e.id === 'a');
  expect(seenA.some((e) => e.type === 'voice-agent-call:status')).toBe(true);
  const done = seenA.find((e) => e.type === 'voice-agent-call:done')!.detail;
  const execution = (await (await fetch(`${harness.sb.url}/executions/${done.executionId}`, { headers: { Authorization: 'Bearer va_test_owner' } })).json()) as { status: string };
  expect(done.status).toBe(execution.status);
  // What the page heard is what the service holds; the key never reached the page.
  expect(JSON.stringify(await events())).not.toContain('va_test_owner');
  await expect(page.locator('#a').getByText(/Transcript/i).first()).toBeVisible();

  // The second call is stopped from the page.
  await page.locator('#b').getByRole('button', { name: 'Call', exact: true }).click();
  await expect.poll(async () => (await events()).some((e) => e.id === 'b' && e.type === 'voice-agent-call:status'), { timeout: 30_000 }).toBe(true);
  await page.locator('#b').getByRole('button', { name: /^Stop/ }).click();
  await expect.poll(async () => (await events()).some((e) => e.id === 'b' && e.type === 'voice-agent-call:done'), { timeout: 60_000 }).toBe(true);
  const stopped = (await events()).find((e) => e.id === 'b' && e.type === 'voice-agent-call:done')!.detail;
  // The stop reached the service, and the page's last word is the service's own final status.
  const requests = await harness.sandboxRequests();
  expect(requests.some((r) => r.method === 'POST' && r.path.endsWith('/stop'))).toBe(true);
  const b = (await (await fetch(`${harness.sb.url}/executions/${stopped.executionId}`, { headers: { Authorization: 'Bearer va_test_owner' } })).json()) as { status: string };
  expect(stopped.status).toBe(b.status);

  // One POST /call per intent reached the service, and the audit log holds each call once.
  expect(requests.filter((r) => r.method === 'POST' && r.path === '/call')).toHaveLength(2);
  await expect.poll(() => harness.audit().map((a) => a.toNumber).sort()).toEqual(['+14155550123', '+14155550124']);
});

/** The German catalogue's text for a key (the element shows German on a page whose language is German). */
const DE = JSON.parse(readFileSync(join(process.cwd(), 'public/_locales/de/messages.json'), 'utf8')) as Record<string, { message: string }>;
const de = (key: string) => DE[key]!.message;

test('a German CRM’s narrow calling slot (240 px), dark: the call and its results fit, in German, and pass axe', async () => {
  test.setTimeout(120_000);
  const token = await harness.mint({ origin: host.origin, agents: [AGENT] });
  // A softphone column as Salesforce's utility bar or a CRM side rail gives it.
  host.html = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Datensatz</title>
    <script>window.__done = false; document.addEventListener('voice-agent-call:done', () => (window.__done = true));</script>
    <script src="/widget/voice-agent-call.js"></script></head><body style="margin:0"><main style="width:240px">
    <voice-agent-call id="w" agent="${AGENT}" agent-name="Vertrieb: Rückrufvereinbarung" number="+14155550123" via="call" transcripts="show" proxy="${harness.proxy.url}" token="${token}"></voice-agent-call>
    </main></body></html>`;
  const context = await browser.newContext({ viewport: { width: 240, height: 900 }, colorScheme: 'dark', locale: 'de-DE' });
  try {
    const page = await context.newPage();
    await page.goto(`${host.origin}/record`);
    const widget = page.locator('#w');
    await expect(widget.getByRole('heading', { name: de('widget_title') })).toBeVisible();
    await widget.getByRole('button', { name: de('widget_call'), exact: true }).click();
    await expect(widget.getByRole('button', { name: new RegExp(`^${de('widget_stop')}`) })).toBeVisible();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __done: boolean }).__done), { timeout: 60_000 }).toBe(true);
    // The finished call: its status walk, talk time, cost, transcript and extracted data are all on screen.
    await expect(widget.getByText(de('transcript_title')).first()).toBeVisible();
    await expect(widget.getByText('Vertrieb: Rückrufvereinbarung')).toBeVisible();
    expect(await page.evaluate(layoutProblems, 'voice-agent-call')).toEqual({ sideways: [], brokenWords: [], clipped: [] });
    // Nothing of the element is drawn past its own right edge (clipped or spilling over the CRM's page).
    const spill = await page.evaluate(() => {
      const el = document.querySelector('voice-agent-call')!;
      const right = el.getBoundingClientRect().right;
      return [...el.shadowRoot!.querySelectorAll('*')].filter((n) => n.getBoundingClientRect().right > right + 1).map((n) => n.tagName.toLowerCase() + (n.className ? `.${n.className}` : ''));
    });
    expect(spill).toEqual([]);
    // No English left in what the element shows (its texts come from the German catalogue).
    const text = await widget.evaluate((el) => el.shadowRoot!.textContent ?? '');
    for (const english of ['Transcript', 'Call again', 'Duration', 'Cost', 'Recording', 'Extracted data']) expect(text).not.toContain(english);
    await expectAxeClean(page, { screen: 'widget, German, dark, 240 px' });
  } finally {
    await context.close();
  }
});
