/**
 * Each tab's found numbers, in storage.session (a restarted worker still knows them; content
 * scripts cannot read it). Read through a schema: a value that does not parse reads as empty, since
 * the content scripts report every tab's numbers again on their next scan.
 */
import { z } from '../zod';
import { browser } from '../browser';

export const PAGE_NUMBERS_KEY = 'page.numbers';

const foundNumber = z.object({ raw: z.string(), e164: z.string() });
/** tabId → the top frame's host and each frame's numbers (frameId → numbers, and how many it found in all). */
const tabNumbers = z.record(
  z.string(),
  z.object({ host: z.string(), frames: z.record(z.string(), z.array(foundNumber)), totals: z.record(z.string(), z.number().int().nonnegative()).optional() }),
);
export type FoundNumber = z.infer<typeof foundNumber>;
export type TabNumbers = z.infer<typeof tabNumbers>;

export async function readTabNumbers(): Promise<TabNumbers> {
  const stored = await browser.storage.session.get(PAGE_NUMBERS_KEY);
  const parsed = tabNumbers.safeParse(stored[PAGE_NUMBERS_KEY]);
  return parsed.success ? parsed.data : {};
}

export async function writeTabNumbers(all: TabNumbers): Promise<void> {
  await browser.storage.session.set({ [PAGE_NUMBERS_KEY]: all });
}
