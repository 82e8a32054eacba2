/**
 * The Firefox smoke's least privilege (./smoke.ts; docs/security.md): the switch "Click-to-call on
 * pages" in Options → Sites, which asks for every page when turned on (the profile's pref
 * extensions.webextOptionalPermissionPrompts answers Allow without a prompt) and gives it back when
 * turned off. Judged from what the extension holds (permissions.contains) and what a page gets.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { byLabel, fail, waitFor } from './browser';

/** What the extension holds now: every page, and the sandbox's loopback origin (asked from an extension page). */
export async function grants(p: Page): Promise<{ pages: boolean; service: boolean }> {
  return p.evaluate(async () => {
    const api = (globalThis as unknown as { browser: { permissions: { contains(p: { origins: string[] }): Promise<boolean> } } }).browser;
    return { pages: await api.permissions.contains({ origins: ['*://*/*'] }), service: await api.permissions.contains({ origins: ['http://127.0.0.1/*'] }) };
  });
}

export const ON_STATUS = 'Click-to-call on pages is on. The browser gave access to every site.';
export const OFF_STATUS = 'Click-to-call on pages is off, and the access to pages was given back.';

/**
 * The switch "Click-to-call on pages", once it shows the stored state: it is disabled (and shown off)
 * until the sites are read, so judging or clicking it earlier would be judging the loading state.
 */
export async function pagesSwitch(p: Page): Promise<ElementHandle<HTMLElement>> {
  const onSwitch = await byLabel(p, 'Click-to-call on pages');
  await waitFor(p, 'the switch "Click-to-call on pages" enabled (the sites read)', (el: HTMLInputElement) => !el.disabled, [onSwitch]);
  return onSwitch;
}

/** Turns click-to-call on pages on in Options → Sites, as a person does (every page is asked for; no prompt: pref). */
export async function turnPagesOn(p: Page): Promise<void> {
  await (await pagesSwitch(p)).click();
  await waitFor(p, `"${ON_STATUS}"`, (text: string) => document.body.innerText.includes(text), [ON_STATUS]);
  if (!(await grants(p)).pages) fail('access to every page after turning click-to-call on', 'not granted');
}

/**
 * Turns click-to-call on pages off (it must be on) and checks: every page given back, the service's
 * origin still granted, and a page opened then gets no content script and is reported off.
 */
export async function offGivesEveryPageBack(p: Page, browser: Browser, pageHtml: string): Promise<void> {
  const onSwitch = await pagesSwitch(p);
  if (!(await onSwitch.evaluate((el) => (el as HTMLInputElement).checked))) fail('the switch "Click-to-call on pages" on', 'off');
  await onSwitch.click();
  await waitFor(p, `"${OFF_STATUS}"`, (text: string) => document.body.innerText.includes(text), [OFF_STATUS]);
  if ((await grants(p)).pages) fail('access to every page given back', 'still granted');
  // Kept, or (a browser that gives it back with every page) asked for again in the same click.
  await waitFor(p, 'the service origin http://127.0.0.1/* still granted', async () =>
    (globalThis as unknown as { browser: any }).browser.permissions.contains({ origins: ['http://127.0.0.1/*'] }), []);
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/contact.html`;
  const web = await browser.newPage();
  try {
    await web.goto(pageUrl);
    // Run in the extension's content world once the page is loaded (when a registered script would have run).
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
}
