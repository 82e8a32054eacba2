/**
 * The Firefox smoke's frames (issue 11, point 3): the fixture pages of tests/e2e/page-frames.spec.ts,
 * served over HTTP on 127.0.0.1 (the loopback origin the setup granted), each in a tab of its own.
 * Frames without a URL of their own (about:blank written by the page, srcdoc, blob:) must run the
 * content script and report their own numbers; closed shadow roots must be read through Firefox's
 * `openOrClosedShadowRoot`, and stay closed to the page. Judged from what the background holds for
 * the tab (storage.session 'page.numbers.<tabId>', its JSON text: frameId → numbers, as the Chromium spec reads it) and
 * from what the popup's "On this page" gets (page/numbers-for-tab). Expected numbers:
 * tests/fixtures/pages/expected.json.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { fixturePage, PAGES_DIR } from '../support/fixture-pages';

/** PAGE_NUMBERS_KEY in lib/background/tab-numbers.ts (not imported: that module needs an extension). */
const PAGE_NUMBERS_KEY = 'page.numbers';
/** How long a check waits for the reports it needs (they come in well under a second, 3 s from background tabs). */
const WAIT_MS = 10_000;

interface Expected {
  expected: string[];
  inFrames?: Record<string, number>;
  withClosedShadowRoots?: Record<string, number>;
}
const EXPECTED = JSON.parse(readFileSync(join(PAGES_DIR, 'expected.json'), 'utf8')) as Record<string, Expected>;

/** The frame fixtures, in the order the smoke checks them. */
const FRAME_PAGES = ['frames-about-blank.html', 'frames-srcdoc.html', 'frames-blob.html'] as const;
const CLOSED_SHADOW_PAGE = 'closed-shadow.html';

/** The smoke's own helpers, and its extension page and browser as they are when a check runs. */
export interface FrameHelpers {
  ext(): Page;
  browser(): Browser;
  openExtensionPage(path: string): Promise<Page>;
  buttonNamed(page: Page, name: string): Promise<{ click(): Promise<void> }>;
  fail(expected: string, shown: string): never;
}

/**
 * The smoke's frame checks, one per fixture page, each run with the fixture server's URL. The last
 * (`afterLoadScans`) means something only where the frames are scanned on load (the `loadScan` checks).
 */
export function everyFrameChecks(h: FrameHelpers): { name: string; loadScan?: boolean; afterLoadScans?: boolean; run(pagesUrl: string): Promise<void> }[] {
  return [
    ...FRAME_PAGES.map((name) => ({
      name: `page: ${name}, the frame reports its own numbers`,
      loadScan: true,
      run: (url: string) => frameReportsItsOwnNumbers(h.ext(), h.browser(), url, name, h),
    })),
    {
      name: `page: ${CLOSED_SHADOW_PAGE}, closed shadow roots read, still closed to the page`,
      run: (url: string) => closedShadowRootsRead(h.ext(), h.browser(), url, h),
    },
    {
      name: 'page: frame pages opened while the site was paused are scanned, frames too, on Resume',
      afterLoadScans: true,
      run: (url: string) => framesScannedWhenSiteResumed(h.ext(), h.browser(), url, h),
    },
  ];
}

/** Serves tests/fixtures/pages/<name>.html on 127.0.0.1, port 0. */
export async function startFixtureServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(1);
    const body = fixturePage(name);
    if (body === undefined) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

interface Held {
  /** frameId → that frame's numbers (E.164), as the background holds them; null before the tab is known. */
  frames: Record<string, string[]> | null;
  /** What page/numbers-for-tab answers: the popup's list for the tab. */
  listed: string[];
}

/** What the background holds for the tab showing `url`, read from an extension page. */
async function heldFor(ext: Page, url: string): Promise<Held> {
  return ext.evaluate(
    async (pageUrl: string, key: string) => {
      const api = (globalThis as unknown as { browser: any }).browser;
      const tab = (await api.tabs.query({})).find((t: { url?: string }) => t.url === pageUrl);
      if (!tab) return { frames: null, listed: [] };
      // Stored as its JSON text (lib/background/tab-numbers.ts), written at most every 500 ms: polled.
      const stored = (await api.storage.session.get(`${key}.${tab.id}`))[`${key}.${tab.id}`];
      const entry = typeof stored === 'string' ? JSON.parse(stored) : null;
      const frames: Record<string, string[]> | null = entry
        ? Object.fromEntries(Object.entries(entry.frames as Record<string, { e164: string }[]>).map(([id, list]) => [id, list.map((n) => n.e164).sort()]))
        : null;
      const reply = await api.runtime.sendMessage({ type: 'page/numbers-for-tab', tabId: tab.id });
      const listed: string[] = reply?.ok ? reply.data.numbers.map((n: { e164: string }) => n.e164).sort() : [];
      return { frames, listed };
    },
    url,
    PAGE_NUMBERS_KEY,
  );
}

const sorted = (list: string[]) => [...list].sort();
const same = (a: string[], b: string[]) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const describe = (held: Held) => `frames ${JSON.stringify(held.frames)}; the popup's list ${JSON.stringify(held.listed)}`;

/**
 * Polls what the background holds (the content scripts report when their scans are done) until
 * `done` says it is all there, or fails at `deadline` (WAIT_MS from now) with what was held.
 */
async function waitForHeld(
  ext: Page,
  url: string,
  expected: string,
  done: (held: Held) => boolean,
  h: FrameHelpers,
  deadline = Date.now() + WAIT_MS,
): Promise<Held> {
  let held: Held = { frames: null, listed: [] };
  while (Date.now() < deadline) {
    held = await heldFor(ext, url);
    if (done(held)) return held;
    await new Promise((next) => setTimeout(next, 200));
  }
  h.fail(`${expected} within ${WAIT_MS / 1000}s`, `the background held ${describe(held)}`);
}

/** The top frame (frameId 0) holds `top`, and exactly one other frame holds numbers: `inFrame`. */
function framesAre(held: Held, top: string[], inFrame: string[]): boolean {
  const frames = held.frames ?? {};
  const others = Object.entries(frames).filter(([id, list]) => id !== '0' && list.length > 0);
  return same(frames['0'] ?? [], top) && others.length === 1 && same(others[0]![1], inFrame);
}

/** Opens `url` in a new tab; closes it after `body`. */
async function inTab<T>(browser: Browser, url: string, body: (tab: Page) => Promise<T>): Promise<T> {
  const tab = await browser.newPage();
  try {
    await tab.goto(url);
    return await body(tab);
  } finally {
    await tab.close().catch(() => undefined);
  }
}

/**
 * A page with a frame that has no URL of its own: the top frame (frameId 0) reports the page's
 * numbers and another frame reports the frame's own; the popup lists both.
 */
async function frameReportsItsOwnNumbers(ext: Page, browser: Browser, pagesUrl: string, name: string, h: FrameHelpers): Promise<void> {
  const spec = EXPECTED[name];
  if (!spec?.inFrames) throw new Error(`${name} has no 'inFrames' in expected.json`);
  const top = sorted(spec.expected);
  const inFrame = sorted(Object.keys(spec.inFrames));
  const url = `${pagesUrl}/${name}`;
  await inTab(browser, url, async () => {
    const want = `the top frame to report ${top.join(', ')} and another frame ${inFrame.join(', ')}; the popup to list all`;
    // Exactly one other frame with numbers: the frame's numbers are neither in the top frame's list nor reported twice.
    await waitForHeld(ext, url, want, (held) => framesAre(held, top, inFrame) && same(held.listed, [...top, ...inFrame]), h);
  });
}

/** Closed shadow roots (one inside another) are read by the top frame's scan; the page still cannot open them. */
async function closedShadowRootsRead(ext: Page, browser: Browser, pagesUrl: string, h: FrameHelpers): Promise<void> {
  const spec = EXPECTED[CLOSED_SHADOW_PAGE];
  if (!spec?.withClosedShadowRoots) throw new Error(`${CLOSED_SHADOW_PAGE} has no 'withClosedShadowRoots' in expected.json`);
  const all = sorted([...spec.expected, ...Object.keys(spec.withClosedShadowRoots)]);
  const url = `${pagesUrl}/${CLOSED_SHADOW_PAGE}`;
  await inTab(browser, url, async (tab) => {
    await waitForHeld(ext, url, `the top frame to report ${all.join(', ')} (light DOM and closed roots) and the popup to list them`, (held) =>
      same(held.frames?.['0'] ?? [], all) && same(held.listed, all), h);
    // The page's own scripts see no root: nothing was opened for them.
    const shown = await tab.evaluate(() => [...document.querySelectorAll('contact-chip, contact-panel')].map((el) => el.shadowRoot === null));
    if (shown.length === 0 || shown.some((closed) => !closed)) h.fail('every closed root still closed to the page (shadowRoot null)', JSON.stringify(shown));
  });
}

/** The id of the tab showing `url`, from an extension page. */
async function tabIdOf(ext: Page, url: string): Promise<number> {
  const id = await ext.evaluate(async (pageUrl: string) => {
    const api = (globalThis as unknown as { browser: any }).browser;
    return (await api.tabs.query({})).find((t: { url?: string }) => t.url === pageUrl)?.id as number | undefined;
  }, url);
  if (typeof id !== 'number') throw new Error(`no tab for ${url}`);
  return id;
}

/**
 * Lets the page run `turns` more idle-time slices (as tests/e2e/tab-numbers.ts idleTurns): a script
 * started at document_idle would have asked for its config by then. Order, not time.
 */
async function idleTurns(tab: Page, turns: number): Promise<void> {
  await tab.evaluate(async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((done) => requestIdleCallback(() => done(null)));
  }, turns);
}

/**
 * Pages already open when their site is switched on get the script injected (the background's
 * refreshOpenPages), in their frames without a URL of their own too. The
 * frame pages are loaded while 127.0.0.1 is paused (no script runs: the registration excludes it),
 * then "Resume on this site" in the popup: each frame must report its own numbers.
 */
async function framesScannedWhenSiteResumed(ext: Page, browser: Browser, pagesUrl: string, h: FrameHelpers): Promise<void> {
  const urls = FRAME_PAGES.map((name) => `${pagesUrl}/${name}`);
  const tabs: Page[] = [];
  let popup: Page | null = null;
  try {
    // A page of the site, loaded while it is on, names the site for the popup; the frame pages open
    // in tabs of their own afterwards (no earlier script of theirs can answer late).
    const site = await browser.newPage();
    tabs.push(site);
    const siteUrl = `${pagesUrl}/${CLOSED_SHADOW_PAGE}`;
    await site.goto(siteUrl);
    popup = await h.openExtensionPage(`popup.html?tab=${await tabIdOf(ext, siteUrl)}`);
    await (await h.buttonNamed(popup, 'Pause on this site')).click();
    await h.buttonNamed(popup, 'Resume on this site');
    for (const url of urls) {
      const tab = await browser.newPage();
      tabs.push(tab);
      await tab.goto(url);
      // In front: a background tab's idle callbacks are throttled (seconds, not milliseconds).
      await tab.bringToFront();
      await idleTurns(tab, 6);
      const held = await heldFor(ext, url);
      if (held.frames !== null) h.fail(`no content script on ${url} while 127.0.0.1 is paused`, `the background held ${describe(held)}`);
    }
    await (await h.buttonNamed(popup, 'Resume on this site')).click();
    // One deadline for the three pages, scanned side by side (the check's run time stays bounded).
    const deadline = Date.now() + WAIT_MS;
    for (const [i, url] of urls.entries()) {
      await tabs[i + 1]!.bringToFront();
      const spec = EXPECTED[FRAME_PAGES[i]!]!;
      const top = sorted(spec.expected);
      const inFrame = sorted(Object.keys(spec.inFrames ?? {}));
      await waitForHeld(ext, url, `after Resume, ${FRAME_PAGES[i]}'s top frame to report ${top.join(', ')} and its frame ${inFrame.join(', ')}`, (held) =>
        framesAre(held, top, inFrame), h, deadline);
    }
  } finally {
    for (const tab of tabs) await tab.close().catch(() => undefined);
    await popup?.close().catch(() => undefined);
    // Whatever happened, the site is on again for the checks that follow.
    await ext
      .evaluate(() => (globalThis as unknown as { browser: any }).browser.runtime.sendMessage({ type: 'sites/update', resume: '127.0.0.1' }))
      .catch(() => undefined);
  }
}
