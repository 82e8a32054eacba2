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

export async function storeSettings(settings: Settings): Promise<void> {
  await keepAside(await readStored());
  await browser.storage.local.set({ [STORAGE.settings]: settings });
}
