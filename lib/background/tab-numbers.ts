/**
 * Each tab's found numbers, in storage.session (a restarted worker still knows them; content
 * scripts cannot read it), one key per tab (`page.numbers.<tabId>`): a frame's report rewrites its
 * own tab's entry, and only when the entry changed — never every tab's numbers at once.
 *
 * Bounded: at most MAX_FRAMES frames' lists per tab and MAX_TAB_NUMBERS numbers per tab in all (a
 * frame's count, `totals`, is kept whole), so a page of many frames cannot fill the session area.
 * Numbers are the area's most expendable tenant: when a write meets the quota, other tabs' numbers
 * go first (`sessionSet`), so a session key or the open confirmation is always saved.
 *
 * Read through a schema: a value that does not parse reads as empty, since the content scripts
 * report every tab's numbers again on their next scan.
 */
import { z } from '../zod';
import { browser } from '../browser';

/** Tab `id`'s numbers live at `${PAGE_NUMBERS_KEY}.${id}`. */
export const PAGE_NUMBERS_KEY = 'page.numbers';
/** Frames per tab whose lists are kept (the first to report; later frames still count in totals). */
export const MAX_FRAMES = 32;
/** Numbers kept per tab over all its frames (each frame reports at most 500). */
export const MAX_TAB_NUMBERS = 2_000;
/** Frames per tab whose count is kept. */
const MAX_TOTALS = 256;

const foundNumber = z.object({ raw: z.string(), e164: z.string() });
/** The top frame's host and each frame's numbers (frameId → numbers, and how many it found in all). */
const tabEntry = z.object({
  host: z.string(),
  frames: z.record(z.string(), z.array(foundNumber)),
  totals: z.record(z.string(), z.number().int().nonnegative()).optional(),
});
export type FoundNumber = z.infer<typeof foundNumber>;
export type TabEntry = z.infer<typeof tabEntry>;

export function tabKey(tabId: number | string): string {
  return `${PAGE_NUMBERS_KEY}.${tabId}`;
}

export async function readTab(tabId: number): Promise<TabEntry | null> {
  const key = tabKey(tabId);
  const parsed = tabEntry.safeParse((await browser.storage.session.get(key))[key]);
  return parsed.success ? parsed.data : null;
}

/** Every tab's entry (tests, the popup's tab list has its own tab). */
export async function readAllTabs(): Promise<Record<string, TabEntry>> {
  const all = await browser.storage.session.get(null);
  const tabs: Record<string, TabEntry> = {};
  for (const [key, value] of Object.entries(all)) {
    if (!key.startsWith(`${PAGE_NUMBERS_KEY}.`)) continue;
    const parsed = tabEntry.safeParse(value);
    if (parsed.success) tabs[key.slice(PAGE_NUMBERS_KEY.length + 1)] = parsed.data;
  }
  return tabs;
}

/** A frame's report put in its tab's entry, within the bounds. Pure. */
export function withFrameReport(entry: TabEntry, frameId: number, numbers: FoundNumber[], total: number): TabEntry {
  const id = String(frameId);
  const frames = { ...entry.frames };
  delete frames[id];
  const kept = Object.keys(frames).length;
  const room = Math.max(0, MAX_TAB_NUMBERS - Object.values(frames).reduce((n, list) => n + list.length, 0));
  // A frame past the frame cap keeps its count only; an empty list still says "this frame reported".
  if (kept < MAX_FRAMES || numbers.length === 0) frames[id] = numbers.slice(0, room);
  const totals = { ...entry.totals };
  if (id in totals || Object.keys(totals).length < MAX_TOTALS) totals[id] = Math.max(total, numbers.length);
  return { ...entry, frames, totals };
}

const QUOTA_RE = /quota/i;
export function isQuotaError(error: unknown): boolean {
  return QUOTA_RE.test(String((error as { message?: unknown })?.message ?? '')) || QUOTA_RE.test(String((error as { name?: unknown })?.name ?? ''));
}

/** Removes every tab's numbers but `keep`'s (the content scripts report them again on their next change). */
async function dropNumbers(keep?: string): Promise<void> {
  const keys = Object.keys(await browser.storage.session.get(null)).filter((k) => k.startsWith(`${PAGE_NUMBERS_KEY}.`) && k !== keep);
  if (keys.length > 0) await browser.storage.session.remove(keys);
}

/**
 * storage.session.set for what must be saved (a session key, the open confirmation): on a quota
 * error, every tab's found numbers make room and the write is tried once more.
 */
export async function sessionSet(items: Record<string, unknown>): Promise<void> {
  try {
    await browser.storage.session.set(items);
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    await dropNumbers();
    await browser.storage.session.set(items);
  }
}

/** Writes a tab's entry; over the quota, other tabs' numbers make room, and failing that this one is given up. */
async function writeTab(tabId: number, entry: TabEntry): Promise<void> {
  const key = tabKey(tabId);
  try {
    await browser.storage.session.set({ [key]: entry });
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    try {
      await dropNumbers(key);
      await browser.storage.session.set({ [key]: entry });
    } catch {
      // Numbers are only a convenience (the badge, the popup's list): never worth an error.
    }
  }
}

/** Serialised per background: read-modify-write of one tab's entry. */
let writes: Promise<unknown> = Promise.resolve();

/** Changes tab `tabId`'s entry (created with `host` when absent); written only when it changed. Resolves with the entry now held. */
export function updateTab(tabId: number, host: string, change: (entry: TabEntry) => TabEntry): Promise<TabEntry> {
  const write = writes.then(async () => {
    const before = await readTab(tabId);
    const after = change(before ?? { host, frames: {} });
    if (before && JSON.stringify(before) === JSON.stringify(after)) return before;
    await writeTab(tabId, after);
    return after;
  });
  writes = write.catch(() => undefined);
  return write;
}

export function forgetTabNumbers(tabId: number): Promise<void> {
  const write = writes.then(() => browser.storage.session.remove(tabKey(tabId)));
  writes = write.catch(() => undefined);
  return write;
}
