/**
 * Issue 18, point 5, end to end in Chromium with the production build: the confirmation names the
 * frame that asked, from the browser's sender fields. The fixture pages are served on 127.0.0.1; a
 * frame of another site comes from the same server as `localhost` (another origin and site), and
 * frames with no site of their own are a data: frame, a sandboxed srcdoc and a sandboxed frame of the
 * top page's own host (page-fixtures.ts 'frames-naming.html', 'focus-frames.html').
 */
import type { BrowserContext, Frame, Page, Worker } from '@playwright/test';
import { expect, openFixture, test } from './page-fixtures';
import { tabEntry } from './tab-numbers';

/** Waits until every frame of the tab has reported its numbers: its finder runs and takes tel: clicks. */
async function framesReady(sw: Worker, tabId: number, numbers: string[]): Promise<void> {
  const reported = async () =>
    Object.values((await tabEntry(sw, tabId))?.frames ?? {})
      .flat()
      .map((n) => n.e164);
  await expect
    .poll(async () => {
      const seen = await reported();
      return numbers.filter((n) => !seen.includes(n));
    }, { timeout: 20_000 })
    .toEqual([]);
}

/** The confirmation window (one at a time: a later request navigates it), once it shows `dial`. */
async function confirmationFor(context: BrowserContext, dial: string): Promise<Page> {
  let found: Page | undefined;
  await expect
    .poll(() => {
      found = context.pages().find((p) => !p.isClosed() && p.url().includes('/popup.html?') && new URL(p.url()).searchParams.get('dial') === dial);
      return Boolean(found);
    }, { timeout: 20_000 })
    .toBe(true);
  return found!;
}

/** The frame whose <iframe> element has this id. */
async function frameById(page: Page, id: string): Promise<Frame> {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    if ((await (await frame.frameElement()).getAttribute('id')) === id) return frame;
  }
  throw new Error(`no frame #${id}`);
}

const CASES: { frame: string | null; dial: string; askedBy: string }[] = [
  { frame: null, dial: '+14155550161', askedBy: 'Asked by 127.0.0.1 through a phone link.' },
  { frame: 'other', dial: '+14155550162', askedBy: 'Asked by localhost (a frame on 127.0.0.1) through a phone link.' },
  { frame: 'data', dial: '+14155550163', askedBy: 'Asked by a frame inside 127.0.0.1 through a phone link.' },
  { frame: 'sandboxed-srcdoc', dial: '+14155550164', askedBy: 'Asked by a frame inside 127.0.0.1 through a phone link.' },
  { frame: 'sandboxed-page', dial: '+14155550165', askedBy: 'Asked by a frame inside 127.0.0.1 through a phone link.' },
];

test('a tel: link in each frame: the confirmation names that frame’s own site, or "a frame inside" the page for a frame with no site of its own', async ({
  context,
  ready,
  pages,
  serviceWorker,
}) => {
  void ready;
  const sw = await serviceWorker();
  for (const c of CASES) {
    // A tab per request: a tab may ask 3 times in 10 seconds, and each case is a request of its own.
    const { page, popup, tabId } = await openFixture(context, sw, `${pages.url}/frames-naming.html`);
    await popup.close();
    await framesReady(sw, tabId, CASES.map((k) => k.dial));
    await page.bringToFront();
    const where = c.frame ? await frameById(page, c.frame) : page.mainFrame();
    await where.locator('#tel').click();
    const confirmation = await confirmationFor(context, c.dial);
    await expect(confirmation.getByRole('dialog', { name: 'Place this call?' }).locator('.asked-by'), c.frame ?? 'top').toHaveText(c.askedBy);
    await page.close();
  }
});

/** Selects `#selectable`'s text in `frame`, by script (the page's own selection; focus is not moved). */
const selectIn = (frame: Frame) =>
  frame.evaluate(() => {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('selectable')!);
    getSelection()!.removeAllRanges();
    getSelection()!.addRange(range);
  });

/** Alt+Shift+K is a browser accelerator Playwright cannot press: the command event the browser fires for it. */
const pressShortcut = (sw: Worker, tabId: number) =>
  sw.evaluate(async (id) => {
    const chrome = (globalThis as any).chrome;
    chrome.commands.onCommand.dispatch('call-selection', await chrome.tabs.get(id));
  }, tabId);

test('the shortcut takes the selection of the frame the user is in, and names that frame’s site', async ({ context, ready, pages, serviceWorker }) => {
  void ready;
  const sw = await serviceWorker();
  const { page, popup, tabId } = await openFixture(context, sw, `${pages.url}/focus-frames.html`);
  await popup.close();
  await framesReady(sw, tabId, ['+14155550181', '+14155550182']);
  await page.bringToFront();
  const child = page.frames().find((f) => f.url().startsWith(pages.localhostUrl))!;

  // Both frames hold a selection; the user is in the frame of the other site.
  await child.locator('#focus').click();
  await selectIn(child);
  await selectIn(page.mainFrame());
  expect(await child.evaluate(() => document.hasFocus() && document.activeElement?.id)).toBe('focus');
  await pressShortcut(sw, tabId);
  let confirmation = await confirmationFor(context, '(415) 555-0182');
  await expect(confirmation.locator('.asked-by')).toHaveText('Asked by localhost (a frame on 127.0.0.1) through the keyboard shortcut on a selection.');

  // Now the user is in the top page: its selection, its site.
  await page.bringToFront();
  await page.locator('#focus').click();
  await selectIn(page.mainFrame());
  await selectIn(child);
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('focus');
  await pressShortcut(sw, tabId);
  confirmation = await confirmationFor(context, '(415) 555-0181');
  await expect(confirmation.locator('.asked-by')).toHaveText('Asked by 127.0.0.1 through the keyboard shortcut on a selection.');
});
