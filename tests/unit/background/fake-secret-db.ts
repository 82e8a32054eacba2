/**
 * An in-memory stand-in for lib/background/secret-db.ts (IndexedDB, which Node lacks). Values are
 * structured-cloned both ways, as IndexedDB does. Use with
 * `vi.mock('../../../lib/background/secret-db', () => import('./fake-secret-db'))`.
 */
export const secretStore = new Map<string, unknown>();

export const secretDb = {
  get: async (name: string) => structuredClone(secretStore.get(name)),
  set: async (name: string, value: unknown) => void secretStore.set(name, structuredClone(value)),
  remove: async (name: string) => void secretStore.delete(name),
};
