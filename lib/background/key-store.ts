/**
 * The API key's only reader and writer, imported by the background alone: UI pages learn `hasKey` and
 * a masked hint through messages, content scripts learn nothing. "Remember on this device" keeps the
 * key in the extension origin's IndexedDB (secret-db.ts: out of content scripts' reach, unlike
 * storage.local); otherwise it lives in `storage.session` (gone when the browser closes, and limited
 * to trusted extension contexts).
 */
import { browser } from '../browser';
import { secretDb } from './secret-db';

const KEY = 'secret.apiKey';

export async function readApiKey(): Promise<string | null> {
  const session = await browser.storage.session.get(KEY);
  if (typeof session[KEY] === 'string') return session[KEY] as string;
  const remembered = await secretDb.get(KEY);
  return typeof remembered === 'string' ? remembered : null;
}

export async function writeApiKey(key: string, remember: boolean): Promise<void> {
  if (remember) {
    await secretDb.set(KEY, key);
    await browser.storage.session.remove(KEY);
  } else {
    await browser.storage.session.set({ [KEY]: key });
    await secretDb.remove(KEY);
  }
}

/** Moves an existing key between the two places when the "remember" switch changes. */
export async function moveApiKey(remember: boolean): Promise<void> {
  const key = await readApiKey();
  if (key) await writeApiKey(key, remember);
}

export async function removeApiKey(): Promise<void> {
  await secretDb.remove(KEY);
  await browser.storage.session.remove(KEY);
}
