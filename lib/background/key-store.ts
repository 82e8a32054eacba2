/**
 * The API key's only reader and writer. Imported by the background alone: UI pages learn `hasKey`
 * and a masked hint through messages, content scripts learn nothing. "Remember on this device" keeps
 * the key in `storage.local`; otherwise it lives in `storage.session` (gone when the browser closes,
 * and out of content scripts' reach).
 */
import { browser } from '../browser';

const KEY = 'secret.apiKey';

export async function readApiKey(): Promise<string | null> {
  const session = await browser.storage.session.get(KEY);
  if (typeof session[KEY] === 'string') return session[KEY] as string;
  const local = await browser.storage.local.get(KEY);
  return typeof local[KEY] === 'string' ? (local[KEY] as string) : null;
}

export async function writeApiKey(key: string, remember: boolean): Promise<void> {
  if (remember) {
    await browser.storage.local.set({ [KEY]: key });
    await browser.storage.session.remove(KEY);
  } else {
    await browser.storage.session.set({ [KEY]: key });
    await browser.storage.local.remove(KEY);
  }
}

/** Moves an existing key between the two areas when the "remember" switch changes. */
export async function moveApiKey(remember: boolean): Promise<void> {
  const key = await readApiKey();
  if (key) await writeApiKey(key, remember);
}

export async function removeApiKey(): Promise<void> {
  await browser.storage.local.remove(KEY);
  await browser.storage.session.remove(KEY);
}

/** True for storage keys UI code must never read or watch. */
export function isSecretStorageKey(name: string): boolean {
  return name.startsWith('secret.');
}
