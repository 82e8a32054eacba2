/**
 * Firefox end-to-end smoke test: the production Firefox builds (.output/firefox-mv2, and the MV3 one's
 * options page) in Firefox ESR, driven by puppeteer-core over WebDriver BiDi against the sandbox.
 * Playwright cannot drive Debian's Firefox (see /work/shared/notes/toolchain.md).
 *
 * Checks, in one MV2 browser: the options page renders; setup with the sandbox (loopback access is
 * requested on Save like any origin's: granted without a prompt here, as prompts are off by pref);
 * the run-time registered content script reports a page's number; every frame (./frames.ts): about:blank,
 * srcdoc and blob: frames each report their own numbers, closed shadow roots are read, and frame pages
 * opened while their site was paused are scanned, frames too, on Resume; a dial from popup.html to
 * Completed; sidepanel.html?call=<id> shows transcript and recording; the
 * sandbox saw exactly one POST /batches; a batch created from a CSV file and scheduled in the side
 * panel page (./batch.ts); an HTTPS service URL can be saved with its own key (its
 * origin's optional host permission is requestable). Then the MV3 build's options page renders.
 *
 *   npx tsx tests/e2e-firefox/smoke.ts [reportFile]      (normally through run.mjs; build first)
 *
 * Prints one line per check and `N passed, N failed`; writes {passed, failed, checks} to reportFile;
 * saves test-results/firefox-<check>.png when a check fails; exits non-zero on any failure.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { OWNER_KEY } from '../../sandbox/keys';
import { browserPath } from '../../scripts/browsers.mjs';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { GECKO_ID } from '../../wxt.config';
import { storedCallsIn } from '../support/data-store';
import { batchCreatedAndScheduled } from './batch';
import { everyFrameChecks, startFixtureServer } from './frames';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RESULTS = join(ROOT, 'test-results');
const FIREFOX = browserPath('firefox');
const MV2_DIR = join(ROOT, '.output/firefox-mv2');
const MV3_DIR = join(ROOT, '.output/firefox-mv3');
const NUMBER = '+14155552671';
/** A line of the sandbox's transcript for a completed call (sandbox/calls.ts conversationTurns). */
const TRANSCRIPT_LINE = 'Tomorrow at 10am works for me.';
/** Never reached (a closed network): saving stores it with its key, after asking for its origin. */
const HTTPS_SERVICE = 'https://voice-agent.example';
/** A web page with a number, for the content script (registered at run time: contentScripts.register in MV2). */
const PAGE_HTML = '<!doctype html><meta charset="utf-8"><title>Contact</title><p>Reception: (415) 555-0132</p>';
const PAGE_NUMBER = '+14155550132';
const HTTPS_SERVICE_KEY = 'va_key_for_the_https_service';
const UI_TIMEOUT = 15_000;
const CALL_TIMEOUT = 60_000;
/** The whole run, browsers included, stops here even if something hangs. */
const RUN_DEADLINE = 150_000; // 110 s before the least-privilege checks (docs/security.md), on a shared 2-core machine

const started = Date.now();
const elapsed = (from = started) => `${((Date.now() - from) / 1000).toFixed(1)}s`;

class CheckFailure extends Error {}
/** A failed expectation with what was expected and what the page showed. */
function fail(expected: string, shown: string): never {
  throw new CheckFailure(`expected ${expected}\n      page showed: ${shown}`);
}

interface CheckResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
  screenshot?: string;
}
const results: CheckResult[] = [];
/** Browsers still open, killed outright if the run has to stop at its deadline. */
const openBrowsers = new Set<Browser>();

/** Runs one named check; on failure prints the reason and screenshots `page()` (if there is one). */
async function check(name: string, page: () => Page | null, body: () => Promise<void>): Promise<boolean> {
  const t0 = Date.now();
  try {
    await body();
    results.push({ name, ok: true, ms: Date.now() - t0 });
    console.log(`  ✓ ${name} (${elapsed(t0)})`);
    return true;
  } catch (e) {
    const error = e instanceof CheckFailure ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    const result: CheckResult = { name, ok: false, ms: Date.now() - t0, error };
    const p = page();
    if (p && !p.isClosed()) {
      const file = join(RESULTS, `firefox-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase().replace(/^-|-$/g, '')}.png`);
      try {
        await withTimeout(p.screenshot({ path: file as `${string}.png`, fullPage: true }), 10_000, 'screenshot');
        result.screenshot = file;
      } catch (shotError) {
        result.error += `\n      (no screenshot: ${String(shotError)})`;
      }
    }
    results.push(result);
    console.log(`  ✗ ${name} (${elapsed(t0)})\n      ${result.error}${result.screenshot ? `\n      screenshot: ${result.screenshot}` : ''}`);
    return false;
  }
}

function skip(name: string, reason: string): void {
  results.push({ name, ok: false, ms: 0, error: `not run: ${reason}` });
  console.log(`  ✗ ${name}\n      not run: ${reason}`);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------
// Browser helpers

async function launchFirefox(extensionDir: string): Promise<{ browser: Browser; uuid: string }> {
  if (!existsSync(join(extensionDir, 'manifest.json'))) throw new CheckFailure(`a build in ${extensionDir}: run npm run build first`);
  const uuid = randomUUID();
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    // Without it Firefox refuses to navigate to moz-extension:// pages over BiDi.
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      // The gecko id gets a known moz-extension:// host.
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }),
      // A closed network: no update, telemetry or first-run traffic.
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      'toolkit.telemetry.enabled': false,
      // Optional permissions that the manifest declares are granted without a prompt nobody could answer.
      'extensions.webextOptionalPermissionPrompts': false,
    },
    protocolTimeout: 30_000,
  });
  openBrowsers.add(browser);
  try {
    await withTimeout(browser.installExtension(extensionDir), 20_000, 'installExtension');
  } catch (e) {
    await closeBrowser(browser);
    throw e;
  }
  return { browser, uuid };
}

async function closeBrowser(browser: Browser | null): Promise<void> {
  if (!browser) return;
  openBrowsers.delete(browser);
  try {
    await withTimeout(browser.close(), 10_000, 'browser.close');
  } catch {
    browser.process()?.kill('SIGKILL');
  }
}

/**
 * Opens an extension page in a new tab. goto() never resolves for moz-extension:// here, so it is not
 * awaited; page.on('console'/'pageerror') report nothing from these pages either (they do on web pages).
 */
async function openExtensionPage(browser: Browser, uuid: string, path: string): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(UI_TIMEOUT);
  // goto reports no load for moz-extension:// pages (it never resolves): waits may begin on the
  // about:blank this replaces, and waitFor starts again in the new document.
  page.goto(`moz-extension://${uuid}/${path}`).catch(() => undefined);
  return page;
}

/** The page's visible text, shortened, for failure messages. */
async function shownText(page: Page): Promise<string> {
  try {
    const text = await withTimeout(
      page.evaluate(() => `${location.href}\n${document.body?.innerText ?? '(no body)'}`),
      5_000,
      'reading the page',
    );
    const oneLine = text.replace(/\s*\n\s*/g, ' ⏎ ').trim();
    return oneLine.length > 900 ? `${oneLine.slice(0, 900)}…` : oneLine || '(empty page)';
  } catch (e) {
    return `(could not read the page: ${String(e)})`;
  }
}

/**
 * Waits for `fn` (run in the page) to return truthy; on timeout fails with `expected` and the page text.
 * Polls with page.evaluate, which always runs in the page's current document. (waitForFunction did
 * not: goto never resolves for moz-extension:// here, so a wait could begin on the about:blank the
 * page replaces and, on a loaded machine, keep polling that old document until its timeout while
 * the new one already showed what was awaited: seen as "MV3 build loads" failing with the heading
 * on screen.)
 */
// Arguments may be element handles, which arrive in the page as elements: hence the loose types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function waitFor(page: Page, expected: string, fn: (...args: any[]) => unknown, args: unknown[], timeout = UI_TIMEOUT): Promise<void> {
  const deadline = Date.now() + timeout;
  let lastError = '';
  while (Date.now() < deadline) {
    try {
      // Through a handle: `fn` may answer an element, which evaluate() cannot bring back as a value.
      const answer = await withTimeout(page.evaluateHandle(fn, ...args), Math.max(1, deadline - Date.now()), 'a check in the page');
      const truthy = await answer.evaluate((value) => !!value);
      await answer.dispose();
      if (truthy) return;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // The document was being replaced (its context destroyed mid-call): check again in the new one.
      if (!/context|navigat|detached|destroyed|did not finish/i.test(message)) throw e;
      lastError = message;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  fail(`${expected} within ${timeout / 1000}s`, `${await shownText(page)}${lastError ? ` (last check: ${lastError})` : ''}`);
}

/** What the extension holds now: every page, and the sandbox's loopback origin (from an extension page). */
async function grants(page: Page): Promise<{ pages: boolean; service: boolean }> {
  return page.evaluate(async () => {
    const api = (globalThis as unknown as { browser: { permissions: { contains(p: { origins: string[] }): Promise<boolean> } } }).browser;
    return { pages: await api.permissions.contains({ origins: ['*://*/*'] }), service: await api.permissions.contains({ origins: ['http://127.0.0.1/*'] }) };
  });
}

/** The form control a <label> with exactly this text points at. */
async function byLabel(page: Page, label: string): Promise<ElementHandle<HTMLElement>> {
  await waitFor(
    page,
    `a control labelled "${label}"`,
    (text: string) => [...document.querySelectorAll('label')].some((l) => l.textContent?.trim() === text && l.control),
    [label],
  );
  const handle = await page.evaluateHandle(
    (text: string) => [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === text)!.control as HTMLElement,
    label,
  );
  return handle as ElementHandle<HTMLElement>;
}

/** A button with exactly this text, once it is enabled. */
async function buttonNamed(page: Page, name: string): Promise<ElementHandle<HTMLButtonElement>> {
  const find = (text: string) =>
    [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === text && !b.disabled && b.offsetParent !== null);
  await waitFor(page, `an enabled button "${name}"`, find, [name]);
  return (await page.evaluateHandle(find, name)) as ElementHandle<HTMLButtonElement>;
}

/** Types into an input as a person would (real key events), replacing what was there. */
async function fill(input: ElementHandle<HTMLElement>, value: string): Promise<void> {
  await input.click({ count: 3 });
  await input.evaluate((el) => (el as HTMLInputElement).select());
  await input.press('Backspace');
  await input.type(value);
  const now = await input.evaluate((el) => (el as HTMLInputElement).value);
  if (now !== value) fail(`the field to hold "${value}"`, `"${now}"`);
}

interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
}
async function sandboxRequests(sandbox: Sandbox): Promise<RequestLogEntry[]> {
  const res = await fetch(`${sandbox.url}/__sandbox/requests`);
  const body = (await res.json()) as RequestLogEntry[] | { requests: RequestLogEntry[] };
  return Array.isArray(body) ? body : body.requests;
}

// ---------------------------------------------------------------------------------------------
// The run

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  // Screenshots from an earlier run must not pass for this one's.
  for (const f of readdirSync(RESULTS)) if (/^firefox-.*\.png$/.test(f)) rmSync(join(RESULTS, f), { force: true });
  console.log(`Firefox e2e smoke (${FIREFOX}, puppeteer-core over WebDriver BiDi)`);
  if (!existsSync(FIREFOX)) {
    skip('Firefox is installed', `${FIREFOX} not found (apt-get install firefox-esr, or set FIREFOX_PATH)`);
    return;
  }

  let sandbox: Sandbox | null = null;
  let browser: Browser | null = null;
  let page: Page | null = null;
  try {
    sandbox = await startSandbox({ port: 0, speed: 60 });
    const sb = sandbox;
    let uuid = '';

    // 1. The MV2 build loads: its options page renders.
    const loaded = await check('MV2 build loads, options page renders', () => page, async () => {
      const launched = await launchFirefox(MV2_DIR);
      browser = launched.browser;
      uuid = launched.uuid;
      page = await openExtensionPage(browser, uuid, 'options.html');
      await waitFor(page, 'the options page heading "Voice Agent Click-to-Call settings"', () =>
        document.querySelector('h1')?.textContent?.includes('Voice Agent Click-to-Call settings'), []);
      await byLabel(page, 'API base URL');
    });

    // 2. Setup through the options page; loopback access is asked for on Save (no prompt: pref).
    const setUp =
      loaded &&
      (await check('options: save sandbox URL and key, masked key shown', () => page, async () => {
        const p = page!;
        await fill(await byLabel(p, 'API base URL'), sb.url);
        await fill(await byLabel(p, 'API key'), OWNER_KEY);
        await (await buttonNamed(p, 'Save')).click();
        const masked = `••••••••${OWNER_KEY.slice(-4)}`;
        await waitFor(p, `the masked key "${masked}" and "Saved."`, (m: string) =>
          document.body.innerText.includes(m) &&
          [...document.querySelectorAll('[role=status]')].some((el) => el.textContent?.startsWith('Saved.')), [masked]);
        // A permission prompt (or its refusal) would show this instead.
        const text = await p.evaluate(() => document.body.innerText);
        if (text.includes('needs access to')) fail('the loopback origin granted on Save', await shownText(p));
        if (text.includes(OWNER_KEY)) fail('the full key never to be shown', await shownText(p));
        // Not granted at install any more: Save asked for it.
        const granted = await p.evaluate(async () => {
          const api = (globalThis as unknown as { browser: { permissions: { contains(p: { origins: string[] }): Promise<boolean> } } }).browser;
          return api.permissions.contains({ origins: ['http://127.0.0.1/*'] });
        });
        if (!granted) fail('host permission for http://127.0.0.1/* after saving', 'not granted');
      }));
    if (!loaded) skip('options: save sandbox URL and key, masked key shown', 'the extension did not load');

    // Least privilege (docs/security.md): nothing is granted for pages at install; the switch in
    // Options → Sites asks for every page from the click (this profile's pref answers Allow at once).
    const onName = 'options: click-to-call on pages is off at install; turning it on asks for every page and saves it on';
    const turnedOn =
      setUp &&
      (await check(onName, () => page, async () => {
        const p = page!;
        const onSwitch = await byLabel(p, 'Click-to-call on pages');
        if (await onSwitch.evaluate((el) => (el as HTMLInputElement).checked)) fail('the switch off on a new install', 'on');
        if ((await grants(p)).pages) fail('no access to every page at install', 'granted');
        await onSwitch.click();
        await waitFor(p, '"Click-to-call on pages is on. The browser gave access to every site."', () =>
          document.body.innerText.includes('Click-to-call on pages is on. The browser gave access to every site.'), []);
        if (!(await grants(p)).pages) fail('access to every page after turning it on', 'not granted');
      }));
    if (!setUp) skip(onName, 'setup did not pass');

    // The content script is in no manifest: the background registers it (MV2: contentScripts.register).
    const pageName = 'page: the content script registered at run time reports a number';
    if (turnedOn) {
      await check(pageName, () => page, async () => {
        const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE_HTML));
        await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
        const pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/contact.html`;
        const web = await browser!.newPage();
        try {
          await web.goto(pageUrl);
          // What the popup's "On this page" asks the background for that tab, until the number is there.
          const found = await page!.waitForFunction(
            async (url: string) => {
              const api = (globalThis as unknown as { browser: any }).browser;
              const tab = (await api.tabs.query({})).find((t: { url?: string }) => t.url === url);
              if (!tab) return false;
              const reply = await api.runtime.sendMessage({ type: 'page/numbers-for-tab', tabId: tab.id });
              return reply?.ok && reply.data.numbers.length ? reply.data.numbers.map((n: { e164: string }) => n.e164).join(',') : false;
            },
            { timeout: UI_TIMEOUT, polling: 250 },
            pageUrl,
          ).then((h) => h.jsonValue(), () => null);
          if (found !== PAGE_NUMBER) fail(`the page's number ${PAGE_NUMBER} reported by the content script`, String(found ?? 'nothing'));
        } finally {
          await web.close().catch(() => undefined);
          server.closeAllConnections();
          server.close();
        }
      });
    } else skip(pageName, 'click-to-call on pages was not turned on');

    // Every frame (./frames.ts), on the fixture pages served on 127.0.0.1.
    const frameChecks = everyFrameChecks({
      ext: () => page!,
      browser: () => browser!,
      openExtensionPage: (path) => openExtensionPage(browser!, uuid, path),
      buttonNamed,
      fail,
    });
    if (turnedOn) {
      const fixtures = await startFixtureServer();
      try {
        let scanned = true;
        for (const c of frameChecks) {
          // Injecting into open pages cannot be judged where frames are not scanned on load (and would add its wait).
          if (c.afterLoadScans && !scanned) skip(c.name, 'frames were not scanned on load');
          else if (!(await check(c.name, () => page, () => c.run(fixtures.url))) && c.loadScan) scanned = false;
        }
      } finally {
        await fixtures.close();
      }
    } else for (const c of frameChecks) skip(c.name, 'click-to-call on pages was not turned on');

    // Off gives every page back and unregisters; the service keeps its access (the dial below uses it).
    const offName = 'options: turning click-to-call off gives every page back, keeps the service reachable, and a page opened then gets no script';
    if (turnedOn) {
      await check(offName, () => page, async () => {
        const p = await openExtensionPage(browser!, uuid, 'options.html');
        try {
          const onSwitch = await byLabel(p, 'Click-to-call on pages');
          await waitFor(p, 'the switch on', () => (document.querySelector('#sites-on') as HTMLInputElement | null)?.checked === true, []);
          await onSwitch.click();
          await waitFor(p, '"Click-to-call on pages is off, and the access to pages was given back."', () =>
            document.body.innerText.includes('Click-to-call on pages is off, and the access to pages was given back.'), []);
          const after = await grants(p);
          if (after.pages) fail('access to every page given back', 'still granted');
          // Kept, or (a browser that gives it back with every page) asked for again in the same click.
          await waitFor(p, 'the service origin http://127.0.0.1/* still granted', async () =>
            (globalThis as unknown as { browser: any }).browser.permissions.contains({ origins: ['http://127.0.0.1/*'] }), []);
          const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE_HTML));
          await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
          const pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/contact.html`;
          const web = await browser!.newPage();
          try {
            await web.goto(pageUrl);
            // Run in the extension's content world once the page is idle (when a registered script would have run).
            const seen = await p.evaluate(async (url: string) => {
              const api = (globalThis as unknown as { browser: any }).browser;
              const tab = (await api.tabs.query({})).find((t: { url?: string }) => t.url === url);
              // From an array: no name inferred, so the TypeScript loader adds no __name helper the page lacks.
              const [probe] = [() => Symbol.for('voice-agent-click-to-call') in globalThis];
              const [result] = await api.scripting.executeScript({ target: { tabId: tab.id }, func: probe });
              const reply = await api.runtime.sendMessage({ type: 'page/numbers-for-tab', tabId: tab.id });
              return { script: result?.result, enabled: reply?.data?.enabled };
            }, pageUrl);
            if (seen.script !== false || seen.enabled !== false) fail('no content script and click-to-call off on a page opened after turning it off', JSON.stringify(seen));
          } finally {
            await web.close().catch(() => undefined);
            server.closeAllConnections();
            server.close();
          }
        } finally {
          await p.close().catch(() => undefined);
        }
      });
    } else skip(offName, 'click-to-call on pages was not turned on');

    // 3. Dial from the popup, wait for Completed, then the details in the side panel page.
    const dialName = `popup: dial ${NUMBER}, confirm, reach Completed`;
    let callId: string | null = null;
    const dialled =
      setUp &&
      (await check(dialName, () => page, async () => {
        await page!.close();
        const p = (page = await openExtensionPage(browser!, uuid, 'popup.html'));
        const agent = await byLabel(p, 'Agent');
        await waitFor(p, 'at least one agent in "Agent"', (select: HTMLElement) =>
          [...(select as HTMLSelectElement).options].some((o) => o.value), [agent]);
        const first = await agent.evaluate((el) => [...(el as HTMLSelectElement).options].find((o) => o.value)!.value);
        await agent.select(first);
        await fill(await byLabel(p, 'Phone number'), NUMBER);
        await (await buttonNamed(p, 'Call')).click();
        await (await buttonNamed(p, 'Confirm')).click();
        await waitFor(p, `the call view ("Call to ${NUMBER}")`, (n: string) =>
          document.querySelector('.call-title')?.textContent?.includes(n), [NUMBER]);
        const t0 = Date.now();
        // Any end (lib/calls/status.ts labels, or "<step> failed.") stops the wait; only Completed passes.
        await waitFor(
          p,
          'the call status "Completed"',
          (ends: string[]) => {
            const status = document.querySelector('.call-status')?.textContent?.trim() ?? '';
            return ends.includes(status) || status.endsWith(' failed.');
          },
          [['Completed', 'No answer', 'Busy', 'Failed', 'Canceled', 'Stopped', 'Error', 'Balance too low']],
          CALL_TIMEOUT,
        );
        const status = await p.evaluate(() => document.querySelector('.call-status')?.textContent?.trim() ?? '');
        if (status !== 'Completed') fail('the call status "Completed"', `status "${status}"; ${await shownText(p)}`);
        const timeline = await p.evaluate(() => document.querySelector('.call')?.textContent ?? '');
        if (!timeline.includes('Scheduled')) fail('the status timeline to list "Scheduled"', await shownText(p));
        console.log(`      call completed ${elapsed(t0)} after Confirm`);
        // The call's id, from the extension's own data store (the popup's "Open details" opens a sidebar).
        callId = (await storedCallsIn(p)).find((c) => c.toNumber === NUMBER)?.id ?? null;
        if (!callId) fail(`a stored call to ${NUMBER} in the data store's "calls"`, 'none');
      }));
    if (!setUp) skip(dialName, 'setup did not pass');

    const detailsName = 'side panel page: transcript and recording of the call';
    if (dialled && callId) {
      await check(detailsName, () => page, async () => {
        const p = (page = await openExtensionPage(browser!, uuid, `sidepanel.html?call=${encodeURIComponent(callId!)}`));
        await waitFor(p, `the call details for ${NUMBER}`, (n: string) =>
          document.querySelector('.call-full .call-title')?.textContent?.includes(n), [NUMBER]);
        await waitFor(p, `the transcript with "${TRANSCRIPT_LINE}"`, (line: string) =>
          document.querySelector('.transcript')?.textContent?.includes(line), [TRANSCRIPT_LINE]);
        await waitFor(p, 'an <audio> element for the recording', () => !!document.querySelector('.recording audio'), []);
        const src = await p.evaluate(() => document.querySelector('.recording audio')!.getAttribute('src') ?? '');
        if (!src.startsWith(`${sb.url}/`)) fail(`the recording's URL on the sandbox (${sb.url}/…)`, `src="${src}"`);
      });
    } else skip(detailsName, 'the call did not complete');

    const batchesName = 'sandbox: exactly one POST /batches';
    if (setUp) {
      await check(batchesName, () => null, async () => {
        const log = await sandboxRequests(sb);
        const posts = log.filter((r) => r.method === 'POST' && /\/batches\/?$/.test(r.path));
        if (posts.length !== 1) {
          const summary = log.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ');
          fail('1 POST /batches', `${posts.length}; the sandbox's request log: ${summary}`);
        }
      });
    } else skip(batchesName, 'setup did not pass');

    // The Batches section: a CSV file checked, created and scheduled from the side panel page.
    const batchName = 'side panel page: a batch from a CSV file, created and scheduled';
    if (setUp) {
      await check(batchName, () => page, async () => {
        // The dial's batch is in the log already: only this one's requests count.
        await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
        const p = (page = await openExtensionPage(browser!, uuid, 'sidepanel.html?section=batches'));
        await batchCreatedAndScheduled(p, { byLabel, buttonNamed, waitFor, fail, requests: () => sandboxRequests(sb) });
      });
    } else skip(batchName, 'setup did not pass');

    // 5. The real service is HTTPS: Save must be able to ask for its origin (optional permission).
    const httpsName = 'options: an HTTPS service URL can be saved (origin permission requestable)';
    if (loaded) {
      await check(httpsName, () => page, async () => {
        const p = (page = await openExtensionPage(browser!, uuid, 'options.html'));
        await fill(await byLabel(p, 'API base URL'), HTTPS_SERVICE);
        // Another origin than the sandbox's: it needs its own key (the sandbox key is never carried there).
        await fill(await byLabel(p, 'API key'), HTTPS_SERVICE_KEY);
        await (await buttonNamed(p, 'Save')).click();
        const saved = () => [...document.querySelectorAll('[role=status]')].some((el) => el.textContent?.startsWith('Saved.'));
        await waitFor(p, '"Saved." or an error', () => {
          const ok = [...document.querySelectorAll('[role=status]')].some((el) => el.textContent?.startsWith('Saved.'));
          return ok || document.querySelector('.setup [role=alert]');
        }, []);
        if (!(await p.evaluate(saved))) {
          const alert = await p.evaluate(() => document.querySelector('.setup [role=alert]')?.textContent?.trim() ?? '');
          fail(
            `"Saved." for ${HTTPS_SERVICE}: Save first requests host permission for its origin, which the manifest must declare ` +
              `(optional_permissions in MV2, optional_host_permissions in MV3)`,
            alert ? `the error "${alert}"` : await shownText(p),
          );
        }
        const granted = await p.evaluate(async (origin: string) => {
          const api = (globalThis as unknown as { browser: { permissions: { contains(p: { origins: string[] }): Promise<boolean> } } }).browser;
          return api.permissions.contains({ origins: [origin] });
        }, `${HTTPS_SERVICE}/*`);
        if (!granted) fail(`host permission for ${HTTPS_SERVICE}/* after saving`, 'not granted');
      });
    } else skip(httpsName, 'the extension did not load');

    await closeBrowser(browser);
    browser = null;
    page = null;

    // 4. The MV3 Firefox build loads too.
    await check('MV3 build loads, options page renders', () => page, async () => {
      const launched = await launchFirefox(MV3_DIR);
      browser = launched.browser;
      page = await openExtensionPage(browser, launched.uuid, 'options.html');
      await waitFor(page, 'the options page heading "Voice Agent Click-to-Call settings"', () =>
        document.querySelector('h1')?.textContent?.includes('Voice Agent Click-to-Call settings'), []);
      await byLabel(page, 'API base URL');
    });
  } finally {
    await closeBrowser(browser);
    await sandbox?.close().catch(() => undefined);
  }
}

const reportFile = process.argv[2] ? resolve(process.argv[2]) : join(RESULTS, 'firefox.json');
function finish(extra?: string): never {
  for (const browser of openBrowsers) browser.process()?.kill('SIGKILL');
  if (extra) results.push({ name: 'run', ok: false, ms: Date.now() - started, error: extra });
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, JSON.stringify({ passed, failed, ms: Date.now() - started, checks: results }, null, 2));
  if (extra) console.log(`  ✗ run\n      ${extra}`);
  console.log(`Firefox e2e: ${passed} passed, ${failed} failed (${elapsed()})`);
  process.exit(failed > 0 ? 1 : 0);
}

const deadline = setTimeout(() => finish(`the run did not finish within ${RUN_DEADLINE / 1000}s`), RUN_DEADLINE);
main().then(
  () => {
    clearTimeout(deadline);
    finish();
  },
  (e: unknown) => {
    clearTimeout(deadline);
    finish(`the run stopped: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  },
);
