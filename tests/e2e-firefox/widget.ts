/**
 * The Firefox smoke's `<voice-agent-call>` element through the installed extension (issue 19; the
 * Chromium twin is the first test of tests/e2e/widget.spec.ts): a host page served over HTTP on
 * 127.0.0.1 loads the widget build (.output/widget/voice-agent-call.js); the element finds the
 * extension's content script (an answer to its hello on the page's message bus); the tester's Call
 * opens the extension's own confirmation window naming the site, the agent and the number; Cancel
 * there places nothing and the element says so; Call again and Confirm place exactly one call on the
 * sandbox, and the element walks it to Completed with its events (and the transcript, which the
 * tester chose to share).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import type { Sandbox } from '../../sandbox/server';
import { buttonNamed, CheckFailure, fail, sandboxRequests, UI_TIMEOUT, waitFor, withTimeout } from './browser';

const NUMBER = '+14155550123';
/** The sandbox's transcript of a completed call (sandbox/calls.ts conversationTurns). */
const TRANSCRIPT_LINE = 'Tomorrow at 10am works for me.';
const CHANNEL = 'voice-agent-call/v1';
const CONFIRMATION = '/popup.html?widget=';

/**
 * The host page: the element, and a recorder of its events and of the content script's messages on
 * the page's bus (what it answers to the element), which a page can see anyway.
 */
function hostPage(agentId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CRM record</title>
<script>
  window.__events = [];
  for (const t of ['status', 'done', 'error']) document.addEventListener('voice-agent-call:' + t, (e) => window.__events.push({ type: e.type, detail: e.detail }));
  window.__answers = [];
  addEventListener('message', (e) => { if (e.source === window && e.data && e.data.channel === ${JSON.stringify(CHANNEL)} && e.data.dir !== 'ask') window.__answers.push(e.data); });
</script>
<script src="/widget/voice-agent-call.js"></script></head>
<body><h1>Record</h1><voice-agent-call id="w" agent="${agentId}" number="${NUMBER}" via="call" variables='{"name":"Ada"}'></voice-agent-call></body></html>`;
}

/** Serves the host page and the element's script (the widget build) on 127.0.0.1 (the loopback origin the setup granted). */
async function startHostServer(widgetDir: string, agentId: string): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/widget-host.html') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(agentId));
    if (path === '/widget/voice-agent-call.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(widgetDir, 'voice-agent-call.js')));
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** The element's shadow root text (what the tester sees in it). */
const elementText = () => (document.querySelector('voice-agent-call')?.shadowRoot?.querySelector('section') as HTMLElement | null)?.innerText ?? '(no element)';

/** The element's button with exactly this text, enabled. */
async function elementButton(web: Page, name: string): Promise<ElementHandle<HTMLButtonElement>> {
  const find = (text: string) =>
    [...(document.querySelector('voice-agent-call')?.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.trim() === text && !b.disabled);
  await waitFor(web, `the element's button "${name}"`, find, [name]);
  return (await web.evaluateHandle(find, name)) as ElementHandle<HTMLButtonElement>;
}

/**
 * The extension's confirmation window for the element's request (the background opens it with
 * windows.create), other than `previous`. Found by its document's address: over BiDi, puppeteer
 * reports a moz-extension:// page's URL as about:blank (see openExtensionPage).
 */
async function confirmationWindow(browser: Browser, web: Page, previous: string | null): Promise<{ page: Page; url: string }> {
  const deadline = Date.now() + UI_TIMEOUT;
  while (Date.now() < deadline) {
    for (const candidate of await browser.pages()) {
      if (candidate === web || candidate.isClosed()) continue;
      const url = await withTimeout(candidate.evaluate(() => location.href), 2_000, 'reading an address').catch(() => '');
      if (url.includes(CONFIRMATION) && url !== previous) {
        candidate.setDefaultTimeout(UI_TIMEOUT);
        await waitFor(candidate, 'the confirmation "A page asks for a test call"', () =>
          document.querySelector('[role=dialog] h2')?.textContent?.trim() === 'A page asks for a test call', []);
        return { page: candidate, url };
      }
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  fail(`the extension's confirmation window (${CONFIRMATION}…)`, `none; the element shows: ${await web.evaluate(elementText)}`);
}

function placements(log: Array<{ method: string; path: string }>) {
  return log.filter((r) => r.method === 'POST' && (r.path === '/call' || /^\/batches\/?$/.test(r.path)));
}

export async function widgetCallThroughExtension(browser: Browser, ext: Page, sandbox: Sandbox, widgetDir: string, callTimeout: number): Promise<void> {
  if (!existsSync(join(widgetDir, 'voice-agent-call.js'))) fail(`the widget build in ${widgetDir}`, 'none: run npm run build:widget');
  const agent = (await ext.evaluate(async () => {
    const api = (globalThis as unknown as { browser: any }).browser;
    const reply = await api.runtime.sendMessage({ type: 'agents/list', refresh: true });
    return reply?.data?.agents?.[0] ?? null;
  })) as { id: string; name: string } | null;
  if (!agent) fail('an agent listed by the extension', 'none');

  const server = await startHostServer(widgetDir, agent.id);
  const web = await browser.newPage();
  web.setDefaultTimeout(UI_TIMEOUT);
  const confirmations: Page[] = [];
  try {
    await web.goto(`${server.url}/widget-host.html`);
    await waitFor(web, `the element with "Number: ${NUMBER} (set by this page)"`, (n: string) => document.querySelector('voice-agent-call')?.shadowRoot?.textContent?.includes(`Number: ${n} (set by this page)`), [NUMBER]);
    // The element finds the extension: the content script answers its hello in this page.
    await waitFor(web, "the extension's content script answering the element's hello", () =>
      (window as unknown as { __answers: Array<{ dir: string; answer?: { ready?: boolean } }> }).__answers.some((m) => m.dir === 'answer' && m.answer?.ready === true), []);
    const before = placements(await sandboxRequests(sandbox)).length;

    // Call, then Cancel in the extension's window: no call, and the element says so.
    await (await elementButton(web, 'Call')).click();
    const { page: first, url: firstUrl } = await confirmationWindow(browser, web, null);
    confirmations.push(first);
    for (const line of ['Asked by: 127.0.0.1', `Agent: ${agent.name}`, `Number: ${NUMBER}`]) {
      await waitFor(first, `"${line}" in the confirmation`, (text: string) => [...document.querySelectorAll('[role=dialog] p')].some((p) => p.textContent?.trim() === text), [line]);
    }
    await waitFor(web, `"Confirm the call in the extension's window." in the element`, () => document.querySelector('voice-agent-call')?.shadowRoot?.textContent?.includes("Confirm the call in the extension's window."), []);
    if (placements(await sandboxRequests(sandbox)).length !== before) fail('no call placed before Confirm', 'a call placed');
    await (await buttonNamed(first, 'Cancel')).click();
    await waitFor(web, '"The call was not confirmed in the extension." in the element', () =>
      document.querySelector('voice-agent-call')?.shadowRoot?.textContent?.includes('The call was not confirmed in the extension.'), []);
    const afterCancel = placements(await sandboxRequests(sandbox));
    if (afterCancel.length !== before) fail('no call placed after Cancel', afterCancel.map((r) => `${r.method} ${r.path}`).join(', '));

    // Call again, share the results with the site, Confirm: one call, walked to its end in the page.
    type HeardEvent = { type: string; detail: Record<string, unknown> };
    const heard = () => web.evaluate(() => (window as unknown as { __events: HeardEvent[] }).__events);
    const cancelled = (await heard()).length;
    await (await elementButton(web, 'Call again')).click();
    const { page: second } = await confirmationWindow(browser, web, firstUrl);
    confirmations.push(second);
    await waitFor(second, `"Number: ${NUMBER}" in the confirmation`, (text: string) => [...document.querySelectorAll('[role=dialog] p')].some((p) => p.textContent?.trim() === text), [`Number: ${NUMBER}`]);
    const share = await second.evaluateHandle(() => [...document.querySelectorAll('label')].find((l) => l.textContent?.includes('Share this call’s transcript and recording with 127.0.0.1'))?.control ?? null);
    const box = share.asElement() as ElementHandle<HTMLInputElement> | null;
    if (!box) fail('the checkbox "Share this call’s transcript and recording with 127.0.0.1"', 'none');
    await box.click();
    await (await buttonNamed(second, 'Confirm call')).click();

    await waitFor(web, 'the event voice-agent-call:done for this call', (from: number) =>
      (window as unknown as { __events: HeardEvent[] }).__events.slice(from).some((e) => e.type === 'voice-agent-call:done'), [cancelled], callTimeout);
    const events = (await heard()).slice(cancelled);
    const done = events.find((e) => e.type === 'voice-agent-call:done')!;
    const statuses = events.filter((e) => e.type === 'voice-agent-call:status' && e.detail.status !== null).map((e) => String(e.detail.status));
    const keys = Object.keys(done.detail).sort().join(',');
    if (keys !== 'cost,durationSeconds,executionId,id,status') fail('the done event with id, executionId, status, durationSeconds and cost only', keys);
    if (done.detail.status !== 'completed' || typeof done.detail.executionId !== 'string') fail('done with status "completed" and an execution id', JSON.stringify(done.detail));
    // Status events as the element read them (its reads are paced, so a quick call may skip steps), ending where done says.
    if (statuses.at(-1) !== 'completed') fail('status events ending at "completed"', statuses.join(' → ') || 'none');
    const errors = events.filter((e) => e.type === 'voice-agent-call:error');
    if (errors.length) fail('no error event', JSON.stringify(errors));
    // What the element shows: its timeline from Queued to Completed, the first step seen and the last with
    // the time they were seen (steps passed between two reads say "not observed": the sandbox runs a call
    // in about a second at speed 60); the end said; the shared transcript.
    await waitFor(web, 'the element showing "The call is over.", its timeline from "Queued" to "Completed" (both with a time) and the transcript', (line: string) => {
      const root = document.querySelector('voice-agent-call')?.shadowRoot;
      const steps = [...(root?.querySelectorAll('.timeline li') ?? [])];
      const labels = steps.map((li) => li.querySelector('.timeline-label')?.textContent?.trim());
      return (
        root?.textContent?.includes('The call is over.') &&
        labels.join('|') === 'Queued|Dialling|Ringing|In progress|Call ended, finalising|Completed' &&
        // (An anonymous arrow: a named one would get the TypeScript loader's __name helper, which the page lacks.)
        // The end with the time it was seen; the first step seen may be any (the element's reads are paced).
        [steps.find((li) => li.classList.contains('timeline-observed')), steps.at(-1)].every((li) => !!li?.classList.contains('timeline-observed') && /\d:\d\d/.test(li.querySelector('.timeline-time')?.textContent ?? '')) &&
        root.textContent.includes(line)
      );
    }, [TRANSCRIPT_LINE]);

    // The sandbox: exactly one call placed, and its record walked to completed.
    const placed = placements(await sandboxRequests(sandbox)).slice(before);
    if (placed.length !== 1) fail('exactly one call placed (POST /call or POST /batches)', `${placed.length}: ${placed.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    const record = (await (await fetch(`${sandbox.url}/__sandbox/events?execution_id=${encodeURIComponent(String(done.detail.executionId))}`)).json()) as
      | Array<{ status: string }>
      | { events: Array<{ status: string }> };
    const walked = (Array.isArray(record) ? record : record.events).map((e) => e.status);
    if (walked.length < 2 || walked.at(-1) !== 'completed') fail(`the sandbox's record of ${String(done.detail.executionId)} walking to "completed"`, walked.join(' → ') || 'none');
  } catch (e) {
    // The page's text leaves out the shadow root: say what the element showed.
    if (e instanceof CheckFailure) e.message += `\n      the element showed: ${await withTimeout(web.evaluate(elementText), 5_000, 'reading the element').catch(() => '(could not read it)')}`;
    throw e;
  } finally {
    for (const p of confirmations) if (!p.isClosed()) await p.close().catch(() => undefined);
    await web.close().catch(() => undefined);
    server.close();
  }
}
