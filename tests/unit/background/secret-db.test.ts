import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { readKeyFor, removeKey, setKeyRemembered, writeKey } from '../../../lib/background/key-store';
import { DATA } from '../../../lib/storage-keys';
import { readData } from '../../../lib/store/data-db';

const ORIGIN = 'http://127.0.0.1:8787';

beforeEach(() => fakeBrowser.reset());

describe('the key database (secret-db.ts on lib/idb.ts)', () => {
  it('a remembered key lives in its own database: not in storage, not in the data store', async () => {
    await writeKey(ORIGIN, 'va_test_owner', true);
    expect((await readKeyFor(ORIGIN))?.key).toBe('va_test_owner');
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
    expect(JSON.stringify(await fakeBrowser.storage.session.get(null))).not.toContain('va_test_owner');
    expect(JSON.stringify(await readData(Object.values(DATA)))).not.toContain('va_test_owner');
  });

  it('moves between the session and the device, and is removed from both', async () => {
    await writeKey(ORIGIN, 'va_test_owner', false);
    expect((await readKeyFor(ORIGIN))?.key).toBe('va_test_owner');
    expect(JSON.stringify(await fakeBrowser.storage.session.get(null))).toContain('va_test_owner');
    await setKeyRemembered(ORIGIN, true);
    expect(JSON.stringify(await fakeBrowser.storage.session.get(null))).not.toContain('va_test_owner');
    expect((await readKeyFor(ORIGIN))?.key).toBe('va_test_owner');
    await removeKey(ORIGIN);
    expect(await readKeyFor(ORIGIN)).toBeNull();
  });
});
