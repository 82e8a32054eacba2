/**
 * The Firefox smoke's browser helpers (./smoke.ts): starting Firefox with a build, extension pages,
 * waits that poll the page's current document, and finding controls by label and name as a person
 * would. puppeteer-core over WebDriver BiDi; see /work/shared/notes/toolchain.md.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import type { Sandbox } from '../../sandbox/server';
import { browserPath } from '../../scripts/browsers.mjs';
import { GECKO_ID } from '../../wxt.config';

export const FIREFOX = browserPath('firefox');
export const UI_TIMEOUT = 15_000;
/** Browsers still open, killed outright if the run has to stop at its deadline. */
export const openBrowsers = new Set<Browser>();

export class CheckFailure extends Error {}
/** A failed expectation with what was expected and what the page showed. */
export function fail(expected: string, shown: string): never {
  throw new CheckFailure(`expected ${expected}\n      page showed: ${shown}`);
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}


/**
 * Starts Firefox with the extension. A browser that dies while starting (seen on a machine under
 * heavy load: "session.new: Target closed") is started once more, and the first failure is printed.
 */
export async function launchFirefox(extensionDir: string): Promise<{ browser: Browser; uuid: string }> {
  try {
    return await launchFirefoxOnce(extensionDir);
  } catch (e) {
    if (e instanceof CheckFailure) throw e;
    console.log(`      Firefox did not start (${e instanceof Error ? e.message : String(e)}): starting it again`);
    return launchFirefoxOnce(extensionDir);
  }
}

export async function launchFirefoxOnce(extensionDir: string): Promise<{ browser: Browser; uuid: string }> {
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

export async function closeBrowser(browser: Browser | null): Promise<void> {
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
export async function openExtensionPage(browser: Browser, uuid: string, path: string): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(UI_TIMEOUT);
  // goto reports no load for moz-extension:// pages (it never resolves): waits may begin on the
  // about:blank this replaces, and waitFor starts again in the new document.
  page.goto(`moz-extension://${uuid}/${path}`).catch(() => undefined);
  return page;
}

/** The page's visible text, shortened, for failure messages. */
export async function shownText(page: Page): Promise<string> {
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
export async function waitFor(page: Page, expected: string, fn: (...args: any[]) => unknown, args: unknown[], timeout = UI_TIMEOUT): Promise<void> {
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
      // A document being replaced or not there yet (its context destroyed mid-call, no
      // documentElement while a first page loads): check again, in the document there is then.
      // Only the deadline fails the wait, with the last error seen.
      if (page.isClosed()) throw e;
      lastError = e instanceof Error ? e.message : String(e);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  fail(`${expected} within ${timeout / 1000}s`, `${await shownText(page)}${lastError ? ` (last check: ${lastError})` : ''}`);
}

/** The form control a <label> with exactly this text points at. */
export async function byLabel(page: Page, label: string): Promise<ElementHandle<HTMLElement>> {
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
export async function buttonNamed(page: Page, name: string): Promise<ElementHandle<HTMLButtonElement>> {
  const find = (text: string) =>
    [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === text && !b.disabled && b.offsetParent !== null);
  await waitFor(page, `an enabled button "${name}"`, find, [name]);
  return (await page.evaluateHandle(find, name)) as ElementHandle<HTMLButtonElement>;
}

/** Types into an input as a person would (real key events), replacing what was there. */
export async function fill(input: ElementHandle<HTMLElement>, value: string): Promise<void> {
  await input.click({ count: 3 });
  await input.evaluate((el) => (el as HTMLInputElement).select());
  await input.press('Backspace');
  await input.type(value);
  const now = await input.evaluate((el) => (el as HTMLInputElement).value);
  if (now !== value) fail(`the field to hold "${value}"`, `"${now}"`);
}

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
}
export async function sandboxRequests(sandbox: Sandbox): Promise<RequestLogEntry[]> {
  const res = await fetch(`${sandbox.url}/__sandbox/requests`);
  const body = (await res.json()) as RequestLogEntry[] | { requests: RequestLogEntry[] };
  return Array.isArray(body) ? body : body.requests;
}
