/**
 * The data store: everything from the service or about calls (DATA in lib/storage-keys.ts), kept in
 * the extension origin's IndexedDB where content scripts cannot reach it. The background is the only
 * writer; UI pages (same origin) read it directly so they render at once, and learn each change from
 * a BroadcastChannel, which reaches only this extension's own pages and workers.
 *
 * Values that could not be read (or were written by a newer version) are moved into the `quarantine`
 * store with the reason and time, untouched, before anything replaces them: never silently lost.
 * No zod here: UI pages import this module and must stay small; the background parses every record
 * with a schema (lib/store/records.ts, lib/calls/call-store.ts).
 */
import { database, onResult } from '../idb';
import { DATA, type DataName } from '../storage-keys';

const RECORDS = 'records';
const QUARANTINE = 'quarantine';
/** Each change is posted as a DataChange. */
export const DATA_CHANNEL = 'data-store';

export const dataDb = database('data', 1, [{ name: RECORDS }, { name: QUARANTINE, autoIncrement: true }]);

export interface DataChange {
  name: DataName;
  value: unknown;
}

/** What was kept aside: the stored value as it was found, why, and when. */
export interface QuarantineEntry {
  /** Where the value was: a DATA name (e.g. `calls`), or `settings` (storage.local). */
  source: string;
  reason: string;
  at: number;
  value: unknown;
}

/** Several records in one read; absent ones are undefined. */
export function readData(names: readonly DataName[]): Promise<Partial<Record<DataName, unknown>>> {
  return dataDb.transact([RECORDS], 'readonly', (tx, done) => {
    const found: Partial<Record<DataName, unknown>> = {};
    const store = tx.objectStore(RECORDS);
    for (const name of names) onResult(store.get(name), (value) => (found[name] = value));
    done(found);
  });
}

export async function readRecord(name: DataName): Promise<unknown> {
  return (await readData([name]))[name];
}

export function readQuarantine(): Promise<QuarantineEntry[]> {
  return dataDb.transact([QUARANTINE], 'readonly', (tx, done) => onResult(tx.objectStore(QUARANTINE).getAll(), (all) => done(all as QuarantineEntry[])));
}

/**
 * Adds entries to the quarantine inside a running transaction (that includes QUARANTINE). An entry
 * equal to one already kept (same source and value) is not added twice, so a value found unreadable
 * again (settings: read on every request until repaired) is kept once.
 */
export function quarantineIn(tx: IDBTransaction, entries: QuarantineEntry[], then: () => void = () => undefined): void {
  if (entries.length === 0) return then();
  const store = tx.objectStore(QUARANTINE);
  onResult(store.getAll(), (existing) => {
    const kept = new Set((existing as QuarantineEntry[]).map((e) => `${e.source}\n${JSON.stringify(e.value)}`));
    for (const entry of entries) {
      const id = `${entry.source}\n${JSON.stringify(entry.value)}`;
      if (!kept.has(id)) store.add(entry);
      kept.add(id);
    }
    then();
  });
}

export async function quarantine(entries: QuarantineEntry[]): Promise<void> {
  await dataDb.transact<void>([QUARANTINE], 'readwrite', (tx) => quarantineIn(tx, entries));
  if (entries.length) announce({ name: DATA.quarantine, value: undefined });
}

/**
 * Reads `name`, lets `update` decide (synchronously, inside one transaction) what to keep aside and
 * what to store instead, commits, then tells every listener. `next: undefined` leaves the record as it is.
 */
export async function updateRecord<T>(
  name: DataName,
  update: (stored: unknown) => { next?: unknown; remove?: boolean; keepAside?: QuarantineEntry[]; result: T },
): Promise<T> {
  let changed: { value: unknown } | null = null;
  let keptAside = false;
  const result = await dataDb.transact<T>([RECORDS, QUARANTINE], 'readwrite', (tx, done) => {
    const records = tx.objectStore(RECORDS);
    onResult(records.get(name), (stored) => {
      const decision = update(stored);
      done(decision.result);
      keptAside = (decision.keepAside ?? []).length > 0;
      quarantineIn(tx, decision.keepAside ?? [], () => {
        if (decision.remove) {
          records.delete(name);
          changed = { value: undefined };
        } else if (decision.next !== undefined) {
          records.put(decision.next, name);
          changed = { value: decision.next };
        }
      });
    });
  });
  if (changed) announce({ name, value: (changed as { value: unknown }).value });
  if (keptAside) announce({ name: DATA.quarantine, value: undefined });
  return result;
}

/** Replaces a record outright (caches, whose old value is worth nothing once replaced). */
export function writeRecord(name: DataName, value: unknown): Promise<void> {
  return updateRecord(name, () => ({ next: value, result: undefined }));
}

// ---- Change notices ----

type Listener = (change: DataChange) => void;
let channel: BroadcastChannel | null = null;

function openChannel(): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  channel ??= new BroadcastChannel(DATA_CHANNEL);
  return channel;
}

function announce(change: DataChange): void {
  openChannel()?.postMessage(change);
}

/**
 * Calls `listener` after every change, in any context of this extension (the background's own
 * writes included: a channel object hears every other object of its name). Returns the unsubscribe.
 */
export function watchData(listener: Listener): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const own = new BroadcastChannel(DATA_CHANNEL);
  own.onmessage = (event: MessageEvent) => {
    const change = event.data as DataChange | null;
    if (change && typeof change.name === 'string') listener(change);
  };
  return () => own.close();
}
