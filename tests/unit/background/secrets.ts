/**
 * What the key's own database (lib/background/secret-db.ts, on the in-memory IndexedDB every unit
 * test has) holds under the key store's two names: for tests that seed an older version's key or
 * check where a key went.
 */
import { secretDb } from '../../../lib/background/secret-db';

const NAMES = ['secret.apiKeys', 'secret.apiKey'];

export const secrets = {
  set: (name: string, value: unknown) => secretDb.set(name, value),
  has: async (name: string) => (await secretDb.get(name)) !== undefined,
  clear: async () => {
    for (const name of NAMES) await secretDb.remove(name);
  },
  /** Everything stored under both names, as text (to search for a key). */
  text: async () => JSON.stringify(await Promise.all(NAMES.map((name) => secretDb.get(name)))),
};
