/** Settings as the background reads and writes them (UI pages read the same key directly). */
import { browser } from '../browser';
import { readSettings, type Settings, type SettingsRead } from '../settings/schema';
import { STORAGE } from '../storage-keys';

export async function loadSettings(): Promise<SettingsRead> {
  const stored = await browser.storage.local.get(STORAGE.settings);
  return readSettings(stored[STORAGE.settings]);
}

export async function storeSettings(settings: Settings): Promise<void> {
  await browser.storage.local.set({ [STORAGE.settings]: settings });
}
