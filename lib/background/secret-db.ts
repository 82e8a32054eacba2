/**
 * The remembered API key's database in the extension origin's IndexedDB (lib/idb.ts): content scripts
 * can read `storage.local` but never this origin's IndexedDB (they see the page's). Its own database,
 * apart from the data store (lib/store/data-db.ts), and imported by key-store.ts only.
 */
import { database } from '../idb';

const STORE = 'kv';
const db = database('secrets', 1, [{ name: STORE }]);

export const secretDb = {
  get: (name: string) => db.get(STORE, name),
  set: (name: string, value: unknown) => db.put(STORE, name, value),
  remove: (name: string) => db.remove(STORE, name),
};
