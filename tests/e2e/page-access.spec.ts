/**
 * No page origin is granted at install: the content script (registered at run time) reaches a page
 * only once the user allowed its origin, and then an already open page gets it without a reload.
 * The sandbox's origin (127.0.0.1) is granted, as Save asks; the pages are served as `localhost`,
 * another origin, which nobody allowed yet.
 */
import { grantLoopbackAccess, launchExtension } from '../support/chromium';
import { expect, test as base } from './page-fixtures';
import { idleTurns, tabEntry, topFrameReport } from './tab-numbers';
import { tabIdOf } from './page-fixtures';

const test = base.extend({
  context: async ({}, use) => {
    const extension = await launchExtension({ grantLoopback: false });
    await grantLoopbackAccess(extension.context, extension.extensionId, ['http://127.0.0.1/*']);
    await use(extension.context);
    await extension.close();
  },
});

test('a page whose origin was never allowed gets no content script; allowing it brings the script to the open page', async ({
  context,
  ready,
  pages,
  serviceWorker,
}) => {
  void ready;
  const sw = await serviceWorker();
  const page = await context.newPage();
  const url = `${pages.url.replace('127.0.0.1', 'localhost')}/contact-record.html`;
  await page.goto(url);
  await page.waitForLoadState('load');
  const tabId = await tabIdOf(sw, page.url());
  // A registered script runs at document_idle: by these idle turns after load it would have asked
  // the background for its config (the tab's entry appears then).
  await idleTurns(page, 6);
  expect(await tabEntry(sw, tabId)).toBeNull();
  expect(await sw.evaluate(() => (globalThis as any).chrome.permissions.contains({ origins: ['http://localhost/*'] }))).toBe(false);

  // The person allows the origin (as Options → Access to web pages asks; headless Chromium cannot show the prompt).
  await grantLoopbackAccess(context, new URL(sw.url()).host, ['http://localhost/*']);
  await expect.poll(async () => (await topFrameReport(sw, tabId))?.length ?? 0, { timeout: 20_000 }).toBeGreaterThan(0);
});
