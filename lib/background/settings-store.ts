/** Settings as the background reads and writes them (UI pages read the same key directly). */
import { browser } from '../browser';
import { readSettings, type Settings, type SettingsRead } from '../settings/schema';
import { STORAGE } from '../storage-keys';
import { quarantine } from '../store/data-db';

async function readStored(): Promise<SettingsRead> {
  const stored = await browser.storage.local.get(STORAGE.settings);
  return readSettings(stored[STORAGE.settings]);
}

/** Keeps an unusable stored value aside (once: the quarantine skips a value it already holds). */
async function keepAside(read: SettingsRead): Promise<void> {
  if (!read.keepAside) return;
  await quarantine([{ source: STORAGE.settings, reason: read.keepAside.reason, at: Date.now(), value: read.keepAside.value }]);
}

export async function loadSettings(): Promise<SettingsRead> {
  const read = await readStored();
  // A failure here only delays the copy: storeSettings makes it (or refuses to save) before replacing anything.
  await keepAside(read).catch(() => undefined);
  return read;
}

/**
 * Settings for the page's own requests (page/find, many a second on a busy page): read from storage
 * at most once a second, and again at once when they change, so a flooding page does not queue
 * storage reads in front of a person's Confirm or Stop. Decisions a person sees (a confirmation,
 * a page's config) read them fresh with loadSettings.
 */
let memo: { read: Promise<SettingsRead>; at: number } | null = null;
const MEMO_MS = 1_000;
function forgetOnChange(changes: Record<string, unknown>, area: string): void {
  if (area === 'local' && STORAGE.settings in changes) memo = null;
}
export function settingsForPages(now: number = Date.now()): Promise<SettingsRead> {
  // Listening is checked each time: nothing is remembered unless a change would be heard.
  if (!browser.storage.onChanged.hasListener(forgetOnChange)) {
    browser.storage.onChanged.addListener(forgetOnChange);
    memo = null;
  }
  if (!memo || now - memo.at >= MEMO_MS || now < memo.at) {
    const read = loadSettings();
    memo = { read, at: now };
    // A failed read is not remembered.
    read.catch(() => {
      if (memo?.read === read) memo = null;
    });
  }
  return memo.read;
}

export async function storeSettings(settings: Settings): Promise<void> {
  await keepAside(await readStored());
  await browser.storage.local.set({ [STORAGE.settings]: settings });
  memo = null;
}
