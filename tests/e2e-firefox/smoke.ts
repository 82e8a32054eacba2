/**
 * Firefox end-to-end smoke test: the production Firefox builds (.output/firefox-mv2, and the MV3 one's
 * options page) in Firefox ESR, driven by puppeteer-core over WebDriver BiDi against the sandbox.
 * Playwright cannot drive Debian's Firefox (see /work/shared/notes/toolchain.md).
 *
 * Checks, in one MV2 browser: the options page renders; setup with the sandbox (loopback access is
 * requested on Save like any origin's: granted without a prompt here, as prompts are off by pref);
 * least privilege (./page-access.ts, docs/security.md): click-to-call on pages is off at install with no page access, and
 * its switch in Options → Sites asks for every page; with it on, the run-time registered content
 * script reports a page's number; every frame (./frames.ts): about:blank,
 * srcdoc and blob: frames each report their own numbers, closed shadow roots are read, and frame pages
 * opened while their site was paused are scanned, frames too, on Resume; turning it off gives every
 * page back, keeps the service's origin, and a page opened then gets no script; a dial from popup.html to
 * Completed; sidepanel.html?call=<id> shows transcript and recording; the
 * sandbox saw exactly one POST /batches; the `<voice-agent-call>` element on a web page through the
 * extension (./widget.ts): its confirmation's Cancel places nothing, Confirm one call the element
 * follows to Completed; a batch created from a CSV file and scheduled in the side
 * panel page (./batch.ts); an HTTPS service URL can be saved with its own key (its
 * origin's optional host permission is requestable). Then the MV3 build's options page renders.
 * The widget check needs .output/widget too (npm run build:widget; npm run build makes it).
 *
 *   npx tsx tests/e2e-firefox/smoke.ts [reportFile]      (normally through run.mjs; build first)
 *
 * Prints one line per check and `N passed, N failed`; writes {passed, failed, checks} to reportFile;
 * saves test-results/firefox-<check>.png when a check fails; exits non-zero on any failure.
 *
 * Every check stands on its own (see "The run" below): one that fails costs itself only. A fresh
 * machine's first run once failed its first check (the first Firefox start took longer than a
 * page wait, and the failure screenshot of a document not there yet said "documentElement is null"),
 * and then 13 more as "not run". Now the first page of each browser gets FIRST_PAGE_TIMEOUT and is
 * asked for again; waits retry every error until their deadline; and a later check starts its own
 * browser, setup and page when an earlier one left none. `FIREFOX_SMOKE_FAIL=<part of a name>` fails
 * that check on purpose, to see the others still run.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { OWNER_KEY } from '../../sandbox/keys';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { storedCallsIn } from '../support/data-store';
import { batchCreatedAndScheduled } from './batch';
import {
  buttonNamed,
  byLabel,
  closeBrowser,
  fail,
  fill,
  FIREFOX,
  launchFirefox,
  openExtensionPage,
  sandboxRequests,
  shownText,
  UI_TIMEOUT,
  waitFor,
  withTimeout,
} from './browser';
import { checkRunner, elapsed } from './checks';
import { everyFrameChecks, startFixtureServer } from './frames';
import { grants, offGivesEveryPageBack, pagesSwitch, turnPagesOn } from './page-access';
import { widgetCallThroughExtension } from './widget';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RESULTS = join(ROOT, 'test-results');
const MV2_DIR = join(ROOT, '.output/firefox-mv2');
const MV3_DIR = join(ROOT, '.output/firefox-mv3');
const WIDGET_DIR = join(ROOT, '.output/widget');
const NUMBER = '+14155552671';
/** A line of the sandbox's transcript for a completed call (sandbox/calls.ts conversationTurns). */
const TRANSCRIPT_LINE = 'Tomorrow at 10am works for me.';
/** Never reached (a closed network): saving stores it with its key, after asking for its origin. */
const HTTPS_SERVICE = 'https://voice-agent.example';
/** A web page with a number, for the content script (registered at run time: contentScripts.register in MV2). */
const PAGE_HTML = '<!doctype html><meta charset="utf-8"><title>Contact</title><p>Reception: (415) 555-0132</p>';
const PAGE_NUMBER = '+14155550132';
const HTTPS_SERVICE_KEY = 'va_key_for_the_https_service';
/**
 * The first extension page after a browser starts. A fresh machine's first Firefox start (no disk
 * cache, startup caches built, the extension starting) has taken longer than UI_TIMEOUT to show it:
 * the first check then failed on a document that did not exist yet.
 */
const FIRST_PAGE_TIMEOUT = 60_000;
const CALL_TIMEOUT = 60_000;
/** One check, whatever it waits on; past it the check fails and the browser is started afresh for the next. */
const CHECK_LIMIT = 90_000;
/** The whole run, browsers included, stops here even if something hangs (run.mjs's backstop is later). */
const RUN_DEADLINE = 420_000;

// ---------------------------------------------------------------------------------------------
// The run: every check stands on its own. It gets the browser it needs (started again when an
// earlier check left none, or one that no longer answers), the extension set up when it needs that
// (by the setup check, or here when that check failed), and a fresh extension page. A failure costs
// that check only; the ones after it still run and are counted.

interface Session {
  browser: Browser;
  uuid: string;
  /** The extension is set up for the sandbox in this browser. */
  setUp: boolean;
  /** Click-to-call on pages was turned on in this browser (it is off at install, with no page access). */
  pagesOn: boolean;
}
let session: Session | null = null;
/** The extension page the current check works in (screenshotted when it fails). */
let page: Page | null = null;
let sandbox: Sandbox | null = null;

const { check, skip, finish } = checkRunner({
  resultsDir: RESULTS,
  reportFile: process.argv[2] ? resolve(process.argv[2]) : join(RESULTS, 'firefox.json'),
  limitMs: CHECK_LIMIT,
  afterFailure: () => afterFailure(),
});

/** After a failed check: a browser that no longer answers (or a check stopped at its limit) is closed; the next check starts one. */
async function afterFailure(): Promise<void> {
  if (!session) return;
  const answers = session.browser.connected && (await withTimeout(session.browser.version(), 5_000, 'the browser').then(() => true, () => false));
  if (answers) return;
  await closeBrowser(session.browser);
  session = null;
  page = null;
}

/** The MV2 browser with the extension installed, started when there is none. */
async function mv2Session(): Promise<Session> {
  if (session?.browser.connected) return session;
  if (session) await closeBrowser(session.browser);
  session = null;
  page = null;
  const launched = await launchFirefox(MV2_DIR);
  session = { ...launched, setUp: false, pagesOn: false };
  return session;
}

/**
 * A new tab with an extension page, once its document is there (not the about:blank it replaces,
 * where IndexedDB and the extension API are refused); the previous check's page is closed first.
 */
async function freshPage(path: string): Promise<Page> {
  const s = await mv2Session();
  if (page && !page.isClosed()) await page.close().catch(() => undefined);
  const p = (page = await openExtensionPage(s.browser, s.uuid, path));
  await firstPageShows(p, `moz-extension://${s.uuid}/${path}`, `the extension page ${path}`, () => location.protocol === 'moz-extension:' && document.readyState === 'complete');
  return p;
}

/**
 * Waits for the first extension page of a browser. It gets FIRST_PAGE_TIMEOUT, and is asked for
 * again when it has not come within UI_TIMEOUT (a first start can drop the first navigation).
 */
async function firstPageShows(p: Page, url: string, expected: string, fn: () => unknown): Promise<void> {
  const deadline = Date.now() + FIRST_PAGE_TIMEOUT;
  for (;;) {
    try {
      await waitFor(p, expected, fn, [], Math.max(1_000, Math.min(UI_TIMEOUT, deadline - Date.now())));
      return;
    } catch (e) {
      if (Date.now() >= deadline - 1_000 || p.isClosed()) throw e;
      p.goto(url).catch(() => undefined);
    }
  }
}

const optionsHeading = () => document.querySelector('h1')?.textContent?.includes('Voice Agent Click-to-Call settings');

/** Setup through the options page, as a person does it; loopback access is asked for on Save (no prompt: pref). */
async function setUpThroughOptions(p: Page, sb: Sandbox): Promise<void> {
  await fill(await byLabel(p, 'API base URL'), sb.url);
  await fill(await byLabel(p, 'API key'), OWNER_KEY);
  await (await buttonNamed(p, 'Save')).click();
  const masked = `••••••••${OWNER_KEY.slice(-4)}`;
  await waitFor(p, `the masked key "${masked}" and "Saved."`, (m: string) =>
    document.body.innerText.includes(m) &&
    [...document.querySelectorAll('[role=status]')].some((el) => el.textContent?.startsWith('Saved.')), [masked]);
}

/** The extension set up for the sandbox: by the setup check when it passed in this browser, else here (not a check of its own). */
async function setUpSession(): Promise<Session> {
  const s = await mv2Session();
  if (!s.setUp) {
    const p = await freshPage('options.html');
    await firstPageShows(p, `moz-extension://${s.uuid}/options.html`, 'the options page', optionsHeading);
    await setUpThroughOptions(p, sandbox!);
    s.setUp = true;
  }
  return s;
}

/**
 * The extension set up and click-to-call on pages turned on: by the check that turns it on when it
 * passed in this browser, else here (a setup step of the session, not a check of its own).
 */
async function pagesOnSession(): Promise<Session> {
  const s = await setUpSession();
  if (!s.pagesOn) {
    const p = await freshPage('options.html');
    await firstPageShows(p, `moz-extension://${s.uuid}/options.html`, 'the options page', optionsHeading);
    if (!(await (await pagesSwitch(p)).evaluate((el) => (el as HTMLInputElement).checked))) await turnPagesOn(p);
    else if (!(await grants(p)).pages) fail('access to every page while click-to-call on pages is on', 'not granted');
    s.pagesOn = true;
  }
  return s;
}

/** A call to NUMBER placed by the dial check, or (when that check failed before placing one) placed here through the background. */
async function callToNumber(ext: Page): Promise<string> {
  const stored = (await storedCallsIn(ext)).find((c) => c.toNumber === NUMBER);
  if (stored) return stored.id;
  const reply = (await ext.evaluate(async (toNumber: string) => {
    const api = (globalThis as unknown as { browser: any }).browser;
    const agents = await api.runtime.sendMessage({ type: 'agents/list', refresh: true });
    const agentId = agents?.data?.agents?.[0]?.id;
    if (!agentId) return { ok: false, error: { message: 'no agent listed' } };
    return api.runtime.sendMessage({ type: 'call/dial', dialId: crypto.randomUUID(), agentId, toNumber, fromNumber: null, variables: {} });
  }, NUMBER)) as { ok: boolean; data?: { callId: string }; error?: { message: string } };
  if (!reply.ok || !reply.data) fail(`a call to ${NUMBER} placed through the background`, JSON.stringify(reply.error ?? reply));
  return reply.data.callId;
}

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  // Screenshots from an earlier run must not pass for this one's.
  for (const f of readdirSync(RESULTS)) if (/^firefox-.*\.png$/.test(f)) rmSync(join(RESULTS, f), { force: true });
  console.log(`Firefox e2e smoke (${FIREFOX}, puppeteer-core over WebDriver BiDi)`);
  if (!existsSync(FIREFOX)) {
    skip('Firefox is installed', `${FIREFOX} not found (apt-get install firefox-esr, or set FIREFOX_PATH)`);
    return;
  }

  try {
    sandbox = await startSandbox({ port: 0, speed: 60 });
    const sb = sandbox;

    // 1. The MV2 build loads: its options page renders (the first page of a new browser: see FIRST_PAGE_TIMEOUT).
    await check('MV2 build loads, options page renders', () => page, async () => {
      const s = await mv2Session();
      const p = await freshPage('options.html');
      await firstPageShows(p, `moz-extension://${s.uuid}/options.html`, 'the options page heading "Voice Agent Click-to-Call settings"', optionsHeading);
      await byLabel(p, 'API base URL');
    });

    // 2. Setup through the options page; loopback access is asked for on Save (no prompt: pref).
    await check('options: save sandbox URL and key, masked key shown', () => page, async () => {
      const s = await mv2Session();
      const p = await freshPage('options.html');
      await firstPageShows(p, `moz-extension://${s.uuid}/options.html`, 'the options page', optionsHeading);
      await setUpThroughOptions(p, sb);
      s.setUp = true;
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
    });

    // Least privilege (docs/security.md): nothing is granted for pages at install; the switch in
    // Options → Sites asks for every page from the click (this profile's pref answers Allow at once).
    await check('options: click-to-call on pages is off at install; turning it on asks for every page and saves it on', () => page, async () => {
      // It judges a new install: a browser where it was turned on already is replaced.
      if (session?.pagesOn) {
        await closeBrowser(session.browser);
        session = null;
        page = null;
      }
      const s = await setUpSession();
      const p = await freshPage('options.html');
      await firstPageShows(p, `moz-extension://${s.uuid}/options.html`, 'the options page', optionsHeading);
      const onSwitch = await pagesSwitch(p);
      if (await onSwitch.evaluate((el) => (el as HTMLInputElement).checked)) fail('the switch "Click-to-call on pages" off on a new install', 'on');
      if ((await grants(p)).pages) fail('no access to every page at install', 'granted');
      await turnPagesOn(p);
      s.pagesOn = true;
      // Saved on: a new options page shows it on.
      const again = await freshPage('options.html');
      if (!(await (await pagesSwitch(again)).evaluate((el) => (el as HTMLInputElement).checked))) fail('the switch "Click-to-call on pages" on in a new options page', 'off');
    });

    // The content script is in no manifest: the background registers it (MV2: contentScripts.register).
    await check('page: the content script registered at run time reports a number', () => page, async () => {
      const s = await pagesOnSession();
      const ext = await freshPage('options.html');
      const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE_HTML));
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      const pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/contact.html`;
      const web = await s.browser.newPage();
      try {
        await web.goto(pageUrl);
        // What the popup's "On this page" asks the background for that tab, until the number is there.
        const found = await ext.waitForFunction(
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

    // Every frame (./frames.ts), on the fixture pages served on 127.0.0.1.
    const frameChecks = everyFrameChecks({
      ext: () => page!,
      browser: () => session!.browser,
      openExtensionPage: (path) => openExtensionPage(session!.browser, session!.uuid, path),
      buttonNamed,
      fail,
    });
    const fixtures = await startFixtureServer();
    try {
      let scanned = true;
      for (const c of frameChecks) {
        // Injecting into open pages cannot be judged where frames are not scanned on load (and would add its wait).
        if (c.afterLoadScans && !scanned) {
          skip(c.name, 'frames were not scanned on load');
          continue;
        }
        const passed = await check(c.name, () => page, async () => {
          await pagesOnSession();
          await freshPage('options.html');
          await c.run(fixtures.url);
        });
        if (!passed && c.loadScan) scanned = false;
      }
    } finally {
      await fixtures.close();
    }

    // Off gives every page back and unregisters; the service keeps its access (the dial below uses it).
    await check('options: turning click-to-call off gives every page back, keeps the service reachable, and a page opened then gets no script', () => page, async () => {
      const s = await pagesOnSession();
      const p = await freshPage('options.html');
      await firstPageShows(p, `moz-extension://${s.uuid}/options.html`, 'the options page', optionsHeading);
      s.pagesOn = false; // from here on, whatever follows: a later check that needs it turns it on again
      await offGivesEveryPageBack(p, s.browser, PAGE_HTML);
    });

    // 3. Dial from the popup, wait for Completed, then the details in the side panel page.
    await check(`popup: dial ${NUMBER}, confirm, reach Completed`, () => page, async () => {
      await setUpSession();
      const p = await freshPage('popup.html');
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
      if (!(await storedCallsIn(p)).some((c) => c.toNumber === NUMBER)) fail(`a stored call to ${NUMBER} in the data store's "calls"`, 'none');
    });

    // The call's details; the call is the dial check's, or one placed here when that check placed none.
    await check('side panel page: transcript and recording of the call', () => page, async () => {
      await setUpSession();
      const callId = await callToNumber(await freshPage('options.html'));
      const p = await freshPage(`sidepanel.html?call=${encodeURIComponent(callId)}`);
      await waitFor(p, `the call details for ${NUMBER}`, (n: string) =>
        document.querySelector('.call-full .call-title')?.textContent?.includes(n), [NUMBER]);
      await waitFor(p, `the transcript with "${TRANSCRIPT_LINE}"`, (line: string) =>
        document.querySelector('.transcript')?.textContent?.includes(line), [TRANSCRIPT_LINE], CALL_TIMEOUT);
      await waitFor(p, 'an <audio> element for the recording', () => !!document.querySelector('.recording audio'), []);
      const src = await p.evaluate(() => document.querySelector('.recording audio')!.getAttribute('src') ?? '');
      if (!src.startsWith(`${sb.url}/`)) fail(`the recording's URL on the sandbox (${sb.url}/…)`, `src="${src}"`);
    });

    // One call was placed above (by the dial check, or for the details): one batch for it.
    await check('sandbox: exactly one POST /batches', () => null, async () => {
      const log = await sandboxRequests(sb);
      const posts = log.filter((r) => r.method === 'POST' && /\/batches\/?$/.test(r.path));
      if (posts.length !== 1) {
        const summary = log.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ');
        fail('1 POST /batches', `${posts.length}; the sandbox's request log: ${summary}`);
      }
    });

    // The <voice-agent-call> element on a web page, through the extension (./widget.ts); after the
    // count above: it places a call of its own, and counts only what it placed.
    await check('page: <voice-agent-call> finds the extension; Cancel in its confirmation places nothing, Confirm places one call the element walks to Completed', () => page, async () => {
      const s = await pagesOnSession();
      const ext = await freshPage('options.html');
      await widgetCallThroughExtension(s.browser, ext, sb, WIDGET_DIR, CALL_TIMEOUT);
    });

    // The Batches section: a CSV file checked, created and scheduled from the side panel page.
    await check('side panel page: a batch from a CSV file, created and scheduled', () => page, async () => {
      await setUpSession();
      // The dial's batch is in the log already: only this one's requests count.
      await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
      const p = await freshPage('sidepanel.html?section=batches');
      await batchCreatedAndScheduled(p, { byLabel, buttonNamed, waitFor, fail, requests: () => sandboxRequests(sb) });
    });

    // 5. The real service is HTTPS: Save must be able to ask for its origin (optional permission).
    await check('options: an HTTPS service URL can be saved (origin permission requestable)', () => page, async () => {
      const s = await mv2Session();
      const p = await freshPage('options.html');
      await firstPageShows(p, `moz-extension://${s.uuid}/options.html`, 'the options page', optionsHeading);
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
      s.setUp = false; // set up for another service now
      const granted = await p.evaluate(async (origin: string) => {
        const api = (globalThis as unknown as { browser: { permissions: { contains(p: { origins: string[] }): Promise<boolean> } } }).browser;
        return api.permissions.contains({ origins: [origin] });
      }, `${HTTPS_SERVICE}/*`);
      if (!granted) fail(`host permission for ${HTTPS_SERVICE}/* after saving`, 'not granted');
    });

    if (session) await closeBrowser(session.browser);
    session = null;
    page = null;

    // 4. The MV3 Firefox build loads too (a browser of its own, started here).
    let mv3: Browser | null = null;
    try {
      await check('MV3 build loads, options page renders', () => page, async () => {
        const launched = await launchFirefox(MV3_DIR);
        mv3 = launched.browser;
        const url = `moz-extension://${launched.uuid}/options.html`;
        const p = (page = await openExtensionPage(mv3, launched.uuid, 'options.html'));
        await firstPageShows(p, url, 'the options page heading "Voice Agent Click-to-Call settings"', optionsHeading);
        await byLabel(p, 'API base URL');
      });
    } finally {
      await closeBrowser(mv3);
    }
  } finally {
    if (session) await closeBrowser(session.browser);
    await sandbox?.close().catch(() => undefined);
  }
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
