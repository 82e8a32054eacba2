import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { moveKey, readKeyFor, readKeys, removeKey, setKeyRemembered, writeKey } from '../../../lib/background/key-store';
import { storeSettings } from '../../../lib/background/settings-store';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { secrets } from './secrets';

const A = 'https://api.a.example';
const B = 'http://127.0.0.1:8787';

beforeEach(() => {
  fakeBrowser.reset();
});

const session = async () => (await fakeBrowser.storage.session.get(null)) as Record<string, unknown>;

describe('the key store keeps one key per origin', () => {
  it('hands out a key only for the exact origin it was saved for', async () => {
    await writeKey(A, 'key-for-a-123', true);
    expect(await readKeyFor(A)).toEqual({ origin: A, key: 'key-for-a-123', remember: true });
    for (const other of ['https://api.a.example:8443', 'http://api.a.example', 'https://a.example', 'https://api.a.example.evil', B]) {
      expect(await readKeyFor(other)).toBeNull();
    }
  });

  it('keeps the keys of other origins when one is saved, replaced or removed', async () => {
    await writeKey(A, 'key-for-a-123', true);
    await writeKey(B, 'key-for-b-456', false);
    await writeKey(A, 'key-for-a-789', true);
    expect(await readKeys()).toEqual(
      expect.arrayContaining([
        { origin: A, key: 'key-for-a-789', remember: true },
        { origin: B, key: 'key-for-b-456', remember: false },
      ]),
    );
    await removeKey(A);
    expect(await readKeys()).toEqual([{ origin: B, key: 'key-for-b-456', remember: false }]);
  });

  it('keeps a remembered key in the secrets DB and a session key in storage.session only', async () => {
    await writeKey(A, 'key-for-a-123', true);
    expect(await secrets.text()).toContain('key-for-a-123');
    expect(JSON.stringify(await session())).not.toContain('key-for-a-123');
    await setKeyRemembered(A, false);
    expect(await secrets.text()).not.toContain('key-for-a-123');
    expect(JSON.stringify(await session())).toContain('key-for-a-123');
    expect(await readKeyFor(A)).toEqual({ origin: A, key: 'key-for-a-123', remember: false });
    // Nothing of the key ever reaches storage.local, which content scripts can read.
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).not.toContain('key-for-a');
  });

  it('moves a key to another origin only when asked, and the first origin loses it', async () => {
    await writeKey(A, 'key-for-a-123', true);
    expect(await moveKey(B, A, true)).toBe(false);
    expect(await moveKey(A, B, false)).toBe(true);
    expect(await readKeyFor(A)).toBeNull();
    expect(await readKeyFor(B)).toEqual({ origin: B, key: 'key-for-a-123', remember: false });
  });

  it('ignores stored entries that are not origin → key', async () => {
    await secrets.set('secret.apiKeys', { [A]: 'key-for-a-123', 'https://x.example/path': 'k1', 'not a url': 'k2', [B]: 42 });
    expect(await readKeys()).toEqual([{ origin: A, key: 'key-for-a-123', remember: true }]);
    await secrets.set('secret.apiKeys', 'garbage');
    expect(await readKeys()).toEqual([]);
  });

  it('does not lose a key when two saves race', async () => {
    await Promise.all([writeKey(A, 'key-for-a-123', true), writeKey(B, 'key-for-b-456', true)]);
    expect((await readKeys()).map((r) => r.origin).sort()).toEqual([A, B].sort());
  });
});

describe('a key saved by an older version (no origin)', () => {
  it('is tied to the origin of the saved base URL, then read only for it', async () => {
    await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: 'https://api.a.example/v2' });
    await secrets.set('secret.apiKey', 'old-remembered-key');
    expect(await readKeys()).toEqual([{ origin: A, key: 'old-remembered-key', remember: true }]);
    expect(await secrets.has('secret.apiKey')).toBe(false);
    expect(await readKeyFor(B)).toBeNull();
  });

  it('keeps a session-only key session-only', async () => {
    await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: B });
    await fakeBrowser.storage.session.set({ 'secret.apiKey': 'old-session-key' });
    expect(await readKeyFor(B)).toEqual({ origin: B, key: 'old-session-key', remember: false });
    expect(await session()).not.toHaveProperty('secret.apiKey');
    expect(await secrets.text()).not.toContain('old-session-key');
  });

  it('goes to the default sandbox origin when no settings were ever saved', async () => {
    await secrets.set('secret.apiKey', 'old-remembered-key');
    expect(await readKeyFor('http://127.0.0.1:8787')).toMatchObject({ key: 'old-remembered-key' });
  });

  it('never replaces a key already saved for that origin', async () => {
    await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: A });
    await writeKey(A, 'new-key-for-a', true);
    await secrets.set('secret.apiKey', 'old-remembered-key');
    expect(await readKeys()).toEqual([{ origin: A, key: 'new-key-for-a', remember: true }]);
    expect(await secrets.has('secret.apiKey')).toBe(false);
  });
});
