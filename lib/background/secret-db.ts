/**
 * A tiny key-value store in the extension origin's IndexedDB. Used for the remembered API key because
 * content scripts can read `storage.local` but never the extension origin's IndexedDB (they see the
 * page's), so a key kept here is out of their reach. UI pages share the origin but never import this.
 */
const DB = 'secrets';
const STORE = 'kv';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('Could not open the secrets store.'));
  });
}

async function run<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = action(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result as T);
      tx.onerror = () => reject(tx.error ?? new Error('The secrets store failed.'));
      tx.onabort = () => reject(tx.error ?? new Error('The secrets store failed.'));
    });
  } finally {
    db.close();
  }
}

export const secretDb = {
  get: (name: string) => run<unknown>('readonly', (s) => s.get(name)),
  set: (name: string, value: unknown) => run<unknown>('readwrite', (s) => s.put(value, name)),
  remove: (name: string) => run<unknown>('readwrite', (s) => s.delete(name)),
};
