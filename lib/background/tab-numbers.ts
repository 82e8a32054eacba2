/**
 * Each tab's found numbers, in storage.session (a restarted worker still knows them; content
 * scripts cannot read it), one key per tab (`page.numbers.<tabId>`): a frame's report rewrites its
 * own tab's entry, and only when the entry changed — never every tab's numbers at once.
 *
 * Held in the worker's memory and written behind (why: on a page whose 20 frames report over and
 * over, writing the whole entry on every report took a quarter of the worker's time, and a person's
 * Confirm waited behind it — bench/flood.ts). A report after a quiet spell is written at once; reports
 * that follow it within TAB_WRITE_GAP_MS are folded into one write at the gap's end. Reads answer
 * the held entry; a restarted worker reads storage again.
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
import { PAGE_WORK_MAX_WAIT_MS, personFirst } from './person-first';

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

/** At most one write of a tab's entry in this long (ms): later reports wait for the gap's end, folded into one. */
export const TAB_WRITE_GAP_MS = 500;

/** What this worker holds of each tab (the newest, written or not), and each tab's write due or last made. */
const held = new Map<number, TabEntry>();
const due = new Map<number, ReturnType<typeof setTimeout>>();
const lastWritten = new Map<number, number>();

/** The worker's memory of tabs is gone, as after a restart (tests start each case this way). */
export function forgetHeldTabs(): void {
  for (const timer of due.values()) clearTimeout(timer);
  held.clear();
  due.clear();
  lastWritten.clear();
}

export async function readTab(tabId: number): Promise<TabEntry | null> {
  const own = held.get(tabId);
  if (own) return own;
  const key = tabKey(tabId);
  return parseEntry((await browser.storage.session.get(key))[key]);
}

/**
 * An entry is stored as its JSON text (why: the browser copies one string far faster than a tree of
 * 2,000 small objects — each write of the object form held the worker's thread for about 13 ms).
 */
function parseEntry(stored: unknown): TabEntry | null {
  if (typeof stored !== 'string') return null;
  try {
    const parsed = tabEntry.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A frame's report put in its tab's entry, within the bounds; the same entry (not a copy) when the report changes nothing. Pure. */
export function withFrameReport(entry: TabEntry, frameId: number, numbers: FoundNumber[], total: number): TabEntry {
  const id = String(frameId);
  const frames = { ...entry.frames };
  const before = frames[id];
  delete frames[id];
  const kept = Object.keys(frames).length;
  const room = Math.max(0, MAX_TAB_NUMBERS - Object.values(frames).reduce((n, list) => n + list.length, 0));
  // A frame past the frame cap keeps its count only; an empty list still says "this frame reported".
  const list = kept < MAX_FRAMES || numbers.length === 0 ? numbers.slice(0, room) : undefined;
  const count = Math.max(total, numbers.length);
  const countKept = id in (entry.totals ?? {}) || Object.keys(entry.totals ?? {}).length < MAX_TOTALS;
  if (sameList(before, list) && (!countKept || entry.totals?.[id] === count)) return entry;
  if (list) frames[id] = list;
  const totals = { ...entry.totals };
  if (countKept) totals[id] = count;
  return { ...entry, frames, totals };
}

function sameList(a: FoundNumber[] | undefined, b: FoundNumber[] | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((n, i) => n.raw === b[i]!.raw && n.e164 === b[i]!.e164);
}

const QUOTA_RE = /quota/i;
export function isQuotaError(error: unknown): boolean {
  return QUOTA_RE.test(String((error as { message?: unknown })?.message ?? '')) || QUOTA_RE.test(String((error as { name?: unknown })?.name ?? ''));
}

/** Removes every tab's numbers but `keep`'s (the content scripts report them again on their next change). */
async function dropNumbers(keep?: string): Promise<void> {
  const keys = Object.keys(await browser.storage.session.get(null)).filter((k) => k.startsWith(`${PAGE_NUMBERS_KEY}.`) && k !== keep);
  for (const tabId of held.keys()) if (tabKey(tabId) !== keep) forgetHeld(tabId);
  if (keys.length > 0) await browser.storage.session.remove(keys);
}

function forgetHeld(tabId: number): void {
  clearTimeout(due.get(tabId));
  due.delete(tabId);
  held.delete(tabId);
  lastWritten.delete(tabId);
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
  const text = JSON.stringify(entry);
  try {
    await browser.storage.session.set({ [key]: text });
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    try {
      await dropNumbers(key);
      await browser.storage.session.set({ [key]: text });
    } catch {
      // Numbers are only a convenience (the badge, the popup's list): never worth an error.
    }
  }
}

/** Serialised per background: read-modify-write of one tab's entry, and its writes. */
let writes: Promise<unknown> = Promise.resolve();
const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
  const next = writes.then(work);
  writes = next.catch(() => undefined);
  return next;
};

/** Writes what is held for the tab now (the entry may have changed since the write was planned). */
async function writeHeld(tabId: number): Promise<void> {
  due.delete(tabId);
  const entry = held.get(tabId);
  if (!entry) return;
  lastWritten.set(tabId, Date.now());
  await writeTab(tabId, entry);
}

/**
 * Changes tab `tabId`'s entry (created with `host` when absent); kept only when it changed, and
 * written at once after a quiet spell, else at the end of the write gap. Resolves with the entry now held.
 */
export function updateTab(tabId: number, host: string, change: (entry: TabEntry) => TabEntry): Promise<TabEntry> {
  return inTurn(async () => {
    const before = await readTab(tabId);
    const after = change(before ?? { host, frames: {} });
    if (before && after === before) return before;
    held.set(tabId, after);
    if (due.has(tabId)) return after; // a write is planned: it takes the newest entry
    const wait = (lastWritten.get(tabId) ?? -Infinity) + TAB_WRITE_GAP_MS - Date.now();
    if (wait <= 0) await writeHeld(tabId);
    // A write planned for later also waits while a person's request is answered (./person-first.ts):
    // on a busy page it is the worker's largest single task. Waited outside the turn, so the popup's reads go on.
    else due.set(tabId, setTimeout(() => void personFirst.clear(PAGE_WORK_MAX_WAIT_MS).then(() => inTurn(() => writeHeld(tabId))), wait));
    return after;
  });
}

export function forgetTabNumbers(tabId: number): Promise<void> {
  return inTurn(async () => {
    forgetHeld(tabId);
    await browser.storage.session.remove(tabKey(tabId));
  });
}
