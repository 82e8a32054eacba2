/**
 * The API key's only reader and writer, imported by the background alone: UI pages learn `hasKey`, a
 * masked hint and the origin the key is for, through messages; content scripts learn nothing.
 *
 * A key belongs to the origin it was entered for and is only ever handed out for that origin. Keys
 * are kept per origin (a small map), so a call placed at service A is still followed with A's key
 * after the settings moved on to service B. "Remember on this device" keeps a key in the extension
 * origin's IndexedDB (secret-db.ts: out of content scripts' reach, unlike storage.local); otherwise it
 * lives in `storage.session` (gone when the browser closes, and limited to trusted extension contexts).
 */
import { sessionSet } from './tab-numbers';
import { browser } from '../browser';
import { secretDb } from './secret-db';
import { loadSettings } from './settings-store';

export interface KeyRecord {
  /** `scheme://host[:port]`, as `URL.origin` writes it. */
  origin: string;
  key: string;
  /** Kept on this device (IndexedDB), or for the browser session only. */
  remember: boolean;
}

/** origin → key, in either place. */
const KEYS = 'secret.apiKeys';
/** Before keys had an origin: one key, for whatever the base URL was. Migrated on first read. */
const LEGACY_KEY = 'secret.apiKey';

type KeyMap = Record<string, string>;

/** The origin a base URL's key belongs to. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** Only well-formed entries count: an origin that is its own `URL.origin`, and a non-empty key. */
function asKeyMap(stored: unknown): KeyMap {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  const map: KeyMap = {};
  for (const [origin, key] of Object.entries(stored as Record<string, unknown>)) {
    if (typeof key !== 'string' || !key) continue;
    try {
      if (originOf(origin) === origin) map[origin] = key;
    } catch {
      // Not an origin: dropped.
    }
  }
  return map;
}

const sessionKeys = async (): Promise<KeyMap> => asKeyMap((await browser.storage.session.get(KEYS))[KEYS]);
const rememberedKeys = async (): Promise<KeyMap> => asKeyMap(await secretDb.get(KEYS));
// Found page numbers make room if the session area is full: a key is never refused for their sake.
const storeSessionKeys = (map: KeyMap) => sessionSet({ [KEYS]: map });
const storeRememberedKeys = (map: KeyMap) => secretDb.set(KEYS, map);

/** Serialises read-modify-write of the two maps (the worker can handle two messages at once). */
let writes: Promise<unknown> = Promise.resolve();
function serially<T>(change: () => Promise<T>): Promise<T> {
  const run = writes.then(change);
  writes = run.catch(() => undefined);
  return run;
}

/**
 * A key saved by an older version has no origin: it was used for the saved base URL, so it is tied to
 * that URL's origin. A key already saved for that origin wins.
 */
function migrateLegacyKey(): Promise<void> {
  return serially(async () => {
    const [session, remembered] = await Promise.all([browser.storage.session.get(LEGACY_KEY), secretDb.get(LEGACY_KEY)]);
    const sessionKey = session[LEGACY_KEY];
    if (typeof sessionKey !== 'string' && typeof remembered !== 'string') return;
    const origin = originOf((await loadSettings()).settings.baseUrl);
    const [sessionMap, rememberedMap] = await Promise.all([sessionKeys(), rememberedKeys()]);
    const taken = origin in sessionMap || origin in rememberedMap;
    if (!taken && typeof sessionKey === 'string') await storeSessionKeys({ ...sessionMap, [origin]: sessionKey });
    else if (!taken && typeof remembered === 'string') await storeRememberedKeys({ ...rememberedMap, [origin]: remembered });
    await browser.storage.session.remove(LEGACY_KEY);
    await secretDb.remove(LEGACY_KEY);
  });
}

/** Every saved key, one per origin (a session key wins over a remembered one, as it was written last). */
export async function readKeys(): Promise<KeyRecord[]> {
  await migrateLegacyKey();
  const [session, remembered] = await Promise.all([sessionKeys(), rememberedKeys()]);
  const records = new Map<string, KeyRecord>();
  for (const [origin, key] of Object.entries(remembered)) records.set(origin, { origin, key, remember: true });
  for (const [origin, key] of Object.entries(session)) records.set(origin, { origin, key, remember: false });
  return [...records.values()];
}

/** The key saved for exactly this origin, or null: never another origin's key. */
export async function readKeyFor(origin: string): Promise<KeyRecord | null> {
  return (await readKeys()).find((record) => record.origin === origin) ?? null;
}

/** Saves `key` for `origin`, replacing that origin's key only. */
export async function writeKey(origin: string, key: string, remember: boolean): Promise<void> {
  await migrateLegacyKey();
  await serially(async () => {
    const [session, remembered] = await Promise.all([sessionKeys(), rememberedKeys()]);
    delete session[origin];
    delete remembered[origin];
    if (remember) remembered[origin] = key;
    else session[origin] = key;
    await storeRememberedKeys(remembered);
    await storeSessionKeys(session);
  });
}

/** Moves an origin's key between the two places when the "remember" switch changes. */
export async function setKeyRemembered(origin: string, remember: boolean): Promise<void> {
  const record = await readKeyFor(origin);
  if (record && record.remember !== remember) await writeKey(origin, record.key, remember);
}

/**
 * Moves the key from one origin to another (after the person confirmed, naming both): `from` no
 * longer has it. Returns false when `from` has no key.
 */
export async function moveKey(from: string, to: string, remember: boolean): Promise<boolean> {
  const record = await readKeyFor(from);
  if (!record) return false;
  await writeKey(to, record.key, remember);
  if (from !== to) await removeKey(from);
  return true;
}

export async function removeKey(origin: string): Promise<void> {
  await migrateLegacyKey();
  await serially(async () => {
    const [session, remembered] = await Promise.all([sessionKeys(), rememberedKeys()]);
    delete session[origin];
    delete remembered[origin];
    await storeRememberedKeys(remembered);
    await storeSessionKeys(session);
  });
}
