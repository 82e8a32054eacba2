/**
 * What the background holds for a tab's pages (lib/background/page-service.ts): the signal e2e tests
 * wait on instead of sleeping. The entry appears when the tab's top frame asks for its config (a
 * new page's content script has started); a frame's list appears when that frame reports, and the
 * top frame always reports once its scan is done, even with nothing found.
 */
import type { Page, Worker } from '@playwright/test';

/** tabKey() in lib/background/tab-numbers.ts (not imported: that module needs an extension): one key per tab. */
const tabKey = (tabId: number) => `page.numbers.${tabId}`;

export interface TabEntry {
  host: string;
  /** frameId → the numbers that frame last reported. */
  frames: Record<string, { raw: string; e164: string }[]>;
}

/**
 * The tab's entry in storage.session (stored as its JSON text), or null before its top frame asked
 * for its config. The background writes a tab's entry at most every TAB_WRITE_GAP_MS (500 ms), so a
 * report is read here within half a second of being made: wait for it, never read it once.
 */
export async function tabEntry(sw: Worker, tabId: number): Promise<TabEntry | null> {
  const text = await sw.evaluate(async (key) => ((await (globalThis as any).chrome.storage.session.get(key))[key] as string | undefined) ?? null, tabKey(tabId));
  return text === null ? null : (JSON.parse(text) as TabEntry);
}

/** The top frame's report (its scan is done when it reports nothing found), or null before it reported. */
export async function topFrameReport(sw: Worker, tabId: number): Promise<TabEntry['frames'][string] | null> {
  return (await tabEntry(sw, tabId))?.frames['0'] ?? null;
}

/**
 * Lets the page's content script run `turns` more idle-time slices, if it has work: the scanner runs
 * in requestIdleCallback slices, which run in the order they were requested, so each of these
 * callbacks runs after the slice pending when it was requested. A way to say "it would have
 * scanned by now" by order, not by time.
 */
export async function idleTurns(page: Page, turns: number): Promise<void> {
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) await new Promise((done) => requestIdleCallback(() => done(null)));
  }, turns);
}
