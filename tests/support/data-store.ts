/**
 * Reading the extension's data store (lib/store/data-db.ts: IndexedDB of the extension origin) from
 * tests and benches, in an extension page or the service worker.
 */

/**
 * An expression that reads one record and evaluates to it (undefined when absent). It never creates
 * the database (that is the extension's to do, with its object stores). A string, not a function:
 * tsx would wrap inner functions in a helper the page lacks.
 */
export function readDataRecordScript(name: string): string {
  return `new Promise((resolve, reject) => {
    const open = indexedDB.open('data');
    open.onupgradeneeded = () => open.transaction.abort();
    open.onerror = () => resolve(undefined);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('records')) { db.close(); resolve(undefined); return; }
      const request = db.transaction('records').objectStore('records').get(${JSON.stringify(name)});
      request.onsuccess = () => { db.close(); resolve(request.result); };
      request.onerror = () => { db.close(); reject(request.error); };
    };
  })`;
}

/** The stored calls (the `calls` record's list), from an extension page or worker. */
export async function storedCallsIn<T = { id: string; toNumber: string; status: string | null; executionId: string | null; batchId: string | null }>(target: {
  evaluate(expression: string): Promise<unknown>;
}): Promise<T[]> {
  const stored = (await target.evaluate(readDataRecordScript('calls'))) as { calls?: T[] } | T[] | undefined;
  return (Array.isArray(stored) ? stored : stored?.calls) ?? [];
}
