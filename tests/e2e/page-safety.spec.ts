/**
 * Pages cannot rush a call, and the content script runs only where click-to-call is on: end to end
 * in Chromium with the production build (see page-fixtures.ts for the served pages).
 */
import type { Page, Worker } from '@playwright/test';
import { batchPosts, expect, expectListed, openFixture, OVERLAY, tabIdOf, test } from './page-fixtures';

const MARKER = 'voice-agent-click-to-call'; // entrypoints/content/index.ts: Symbol.for(MARKER) in its world

/** Runs `func` in every frame of the tab, in the extension's isolated world (where the content script lives). */
async function inContentWorld<T>(sw: Worker, tabId: number, func: string): Promise<T[]> {
  return sw.evaluate(
    async ({ tabId, func }) => {
      const results = await (globalThis as any).chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: new Function(`return (${func})()`) });
      return results.map((r: { result: unknown }) => r.result);
    },
    { tabId, func },
  ) as Promise<T[]>;
}

const hasContentScript = (sw: Worker, tabId: number) => inContentWorld<boolean>(sw, tabId, `() => Symbol.for('${MARKER}') in globalThis`);

test('tel: clicks in a row → one confirmation window naming the site; Enter at once dials nothing; Confirm works once armed; the page is sent nothing about the call', async ({
  context,
  ready,
  pages,
  sandbox,
  serviceWorker,
}) => {
  void ready;
  const sw = await serviceWorker();
  // In every extension page: Confirm's state when it is first inserted, before any timer could arm it.
  await context.addInitScript(() => {
    if (location.protocol !== 'chrome-extension:') return;
    const observer = new MutationObserver(() => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Confirm');
      if (!button) return;
      (window as any).__confirmFirstSeen = { disabled: button.disabled };
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  const { page, popup, tabId } = await openFixture(context, sw, `${pages.url}/two-tels.html`);
  await expectListed(popup, ['+14155550171', '+14155550172']);
  // Everything the extension sends to the page's content scripts, recorded in their own world.
  await inContentWorld(sw, tabId, `() => { globalThis.__received = []; chrome.runtime.onMessage.addListener((m) => { globalThis.__received.push(m); }); }`);

  const opened: Page[] = [];
  context.on('page', (p) => opened.push(p));
  await page.bringToFront();
  await page.locator('#tel1').click();
  await page.locator('#tel1').click();
  await page.locator('#tel2').click();
  const confirmations = () => opened.filter((p) => !p.isClosed() && p.url().includes('/popup.html?'));
  // One window, showing the last request (each request after the first navigates it).
  await expect.poll(() => confirmations().map((p) => new URL(p.url()).searchParams.get('dial'))).toEqual(['+14155550172']);
  const confirmation = confirmations()[0]!;
  const dialog = confirmation.getByRole('dialog', { name: 'Place this call?' });
  await expect(dialog).toContainText('+14155550172');
  await expect(dialog.locator('.asked-by')).toHaveText('Asked by 127.0.0.1 through a phone link.');
  expect(await confirmation.evaluate(() => (window as any).__confirmFirstSeen)).toEqual({ disabled: true });
  await expect(dialog).toBeFocused();

  // A keystroke meant for the page lands in the new window: nothing is dialled.
  const before = (await batchPosts(sandbox)).filter((r) => r.path === '/batches').length;
  await confirmation.keyboard.press('Enter');
  await confirmation.keyboard.press(' ');
  const confirm = dialog.getByRole('button', { name: 'Confirm' });
  await expect(confirm).toBeEnabled({ timeout: 5000 });
  await confirm.click();
  // Exactly one batch: the click's (had Enter confirmed, the click would find no Confirm, or there would be two).
  await expect.poll(async () => (await batchPosts(sandbox)).filter((r) => r.path === '/batches').length, { timeout: 20_000 }).toBe(before + 1);
  await expect.poll(async () => (await batchPosts(sandbox)).some((r) => /^\/batches\/(?:[^/]+\/)?schedule$/.test(r.path) && r.status < 300), { timeout: 20_000 }).toBe(true);
  expect(confirmations()).toHaveLength(1);

  // The page's content scripts got data-free commands only: no number, id, status or transcript.
  // A call with the agent the page already shows tells the page nothing; a settings change tells every
  // page to refresh — as a bare command (and proves the recorder hears what the extension sends).
  await confirmation.evaluate(() => (globalThis as any).chrome.runtime.sendMessage({ type: 'sites/update', pause: 'elsewhere.example' }));
  await expect.poll(async () => (await inContentWorld<unknown[]>(sw, tabId, `() => globalThis.__received ?? []`)).flat().length).toBeGreaterThan(0);
  const received = (await inContentWorld<unknown[]>(sw, tabId, `() => globalThis.__received ?? []`)).flat();
  for (const message of received) expect(message).toEqual({ type: expect.stringMatching(/^page\/(refresh|selection)$/) });
});

test('only listed sites: a page that is not listed gets no content script (and wakes nothing); a listed one does; switching to everywhere reaches the open page', async ({
  context,
  ready,
  pages,
  serviceWorker,
  openPage,
}) => {
  void ready;
  const sw = await serviceWorker();
  const options = await openPage('options.html');
  const update = (request: object) => options.evaluate((r) => (globalThis as any).chrome.runtime.sendMessage(r), request);
  await update({ type: 'sites/update', mode: 'only-listed', listed: ['localhost'] });
  const registered = () => sw.evaluate(async () => ((await (globalThis as any).chrome.scripting.getRegisteredContentScripts()) as { matches: string[] }[]).flatMap((s) => s.matches));
  await expect.poll(async () => (await registered()).sort()).toEqual(['*://*.localhost/*', '*://localhost/*']);

  // Not listed (127.0.0.1) first, then listed (localhost): once the listed page has reported, the other has long passed document_idle.
  const offPage = await context.newPage();
  await offPage.goto(`${pages.url}/forge.html`);
  const offTab = await tabIdOf(sw, offPage.url());
  const on = await openFixture(context, sw, `${pages.localhostUrl}/forge.html`);
  await expectListed(on.popup, ['+14155550132', '+14155550171']);

  expect(await hasContentScript(sw, on.tabId)).toEqual([true]);
  expect(await hasContentScript(sw, offTab)).toEqual([false]);
  // It never asked the background anything: the background has no record of the tab.
  // One storage.session key per tab (lib/background/tab-numbers.ts): page.numbers.<tabId>.
  const recorded = await sw.evaluate(async () =>
    Object.keys((await (globalThis as any).chrome.storage.session.get(null)) as object)
      .filter((key) => key.startsWith('page.numbers.'))
      .map((key) => key.slice('page.numbers.'.length)),
  );
  expect(recorded).toContain(String(on.tabId));
  expect(recorded).not.toContain(String(offTab));
  await offPage.bringToFront();
  await offPage.locator('#number').hover();
  await expect(offPage.locator(OVERLAY)).toHaveCount(0);

  // Everywhere: the open page gets the script without a reload.
  await update({ type: 'sites/update', mode: 'everywhere' });
  await expect.poll(registered).toEqual(['*://*/*']);
  const offPopup = await context.newPage();
  await offPopup.goto(`chrome-extension://${new URL(sw.url()).host}/popup.html?tab=${offTab}`);
  await expectListed(offPopup, ['+14155550132', '+14155550171']);
  expect(await hasContentScript(sw, offTab)).toEqual([true]);
});
