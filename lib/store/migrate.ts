/**
 * The data store's versions, migrated once by the background before its first read or write.
 *   0: everything lived in storage.local (LEGACY_LOCAL keys), where content scripts could read it.
 *   1: those values live in the data store (IndexedDB); storage.local keeps only settings.
 * Values are moved as they were (each reader migrates its own record's shape, e.g. lib/calls/history.ts),
 * and removed from storage.local only after the move has committed.
 */
import { browser } from '../browser';
import { onResult } from '../idb';
import { DATA, LEGACY_LOCAL, type DataName } from '../storage-keys';
import { dataDb, quarantineIn, type QuarantineEntry } from './data-db';

export const DATA_VERSION = 1;

export interface MovePlan {
  /** Records to store, by name. */
  puts: Partial<Record<DataName, unknown>>;
  keepAside: QuarantineEntry[];
  /** storage.local keys to remove once the move has committed. */
  remove: string[];
}

/**
 * What to move, given what storage.local holds under the old keys and what the data store already
 * has. A legacy value never replaces a record already in the store (that one is newer); call history
 * found in both is kept aside rather than dropped. Caches found in both are simply dropped: the
 * store's copy is newer and they are refilled from the service.
 */
export function planMove(legacy: Record<string, unknown>, existing: Partial<Record<DataName, unknown>>, now: number): MovePlan {
  const plan: MovePlan = { puts: {}, keepAside: [], remove: Object.values(LEGACY_LOCAL).filter((key) => legacy[key] !== undefined) };
  const move = (name: DataName, value: unknown) => {
    if (value === undefined) return;
    if (existing[name] === undefined) plan.puts[name] = value;
    else if (name === DATA.calls) {
      plan.keepAside.push({ source: name, reason: 'An older copy of the call history was still in storage.local after the move; it is kept aside.', at: now, value });
    }
  };
  move(DATA.calls, legacy[LEGACY_LOCAL.calls]);
  move(DATA.agentsCache, legacy[LEGACY_LOCAL.agentsCache]);
  move(DATA.lastAgentId, legacy[LEGACY_LOCAL.lastAgentId]);
  move(DATA.routeMemory, legacy[LEGACY_LOCAL.routeMemory]);
  if (legacy[LEGACY_LOCAL.hasKey] !== undefined || legacy[LEGACY_LOCAL.keyHint] !== undefined) {
    move(DATA.keyState, { hasKey: legacy[LEGACY_LOCAL.hasKey] === true, keyHint: legacy[LEGACY_LOCAL.keyHint] ?? null });
  }
  return plan;
}

const MOVED: DataName[] = [DATA.calls, DATA.agentsCache, DATA.lastAgentId, DATA.routeMemory, DATA.keyState];

/**
 * Brings the store to DATA_VERSION. Also runs at version 1 when storage.local still holds an old key
 * (a worker stopped between the move and the removal, or an older build wrote it again).
 * A store written by a newer version is left alone.
 */
export async function migrateData(now: number = Date.now()): Promise<void> {
  const legacy = await browser.storage.local.get(Object.values(LEGACY_LOCAL));
  let removal: string[] = [];
  await dataDb.transact<void>(['records', 'quarantine'], 'readwrite', (tx) => {
    const records = tx.objectStore('records');
    onResult(records.get(DATA.version), (version) => {
      const from = typeof version === 'number' ? version : 0;
      if (from > DATA_VERSION) return;
      const existing: Partial<Record<DataName, unknown>> = {};
      let pending = MOVED.length;
      for (const name of MOVED) {
        onResult(records.get(name), (value) => {
          existing[name] = value;
          if (--pending > 0) return;
          const plan = planMove(legacy, existing, now);
          for (const [name, value] of Object.entries(plan.puts)) records.put(value, name);
          records.put(DATA_VERSION, DATA.version);
          quarantineIn(tx, plan.keepAside);
          removal = plan.remove;
        });
      }
    });
  });
  if (removal.length) await browser.storage.local.remove(removal);
}

let ready: Promise<void> | null = null;

/** Resolves once the store is migrated; every background reader and writer waits on it. */
export function dataReady(): Promise<void> {
  ready ??= migrateData().catch(() => {
    // IndexedDB unavailable: nothing was removed from storage.local; the next worker start retries.
    ready = null;
  });
  return ready;
}
