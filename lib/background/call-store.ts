/**
 * Call history in the data store (lib/store/data-db.ts), for CallsService's persistence methods.
 * Reads are schema-parsed (lib/calls/history.ts); whatever could not be read is moved into the
 * quarantine, untouched, in the same transaction that replaces it, so no save ever overwrites it.
 */
import type { CallRecord } from '../calls/call-record';
import { readCalls, writeCalls } from '../calls/history';
import { DATA } from '../storage-keys';
import { readRecord, updateRecord, type QuarantineEntry } from '../store/data-db';
import { dataReady } from '../store/migrate';

function keptAside(raw: unknown, now: number): { calls: CallRecord[]; entries: QuarantineEntry[] } {
  const read = readCalls(raw);
  return { calls: read.calls, entries: read.keepAside.map((k) => ({ source: DATA.calls, reason: k.reason, at: now, value: k.value })) };
}

export const callStore = {
  async list(now: () => number = Date.now): Promise<CallRecord[]> {
    await dataReady();
    const raw = await readRecord(DATA.calls);
    const read = readCalls(raw);
    if (read.keepAside.length === 0) return read.calls;
    // Something unreadable: keep it aside and store what was readable, in one transaction.
    return updateRecord(DATA.calls, (stored) => {
      const { calls, entries } = keptAside(stored, now());
      return { next: entries.length ? writeCalls(calls) : undefined, keepAside: entries, result: calls };
    });
  },

  /** Replaces the stored list; anything unreadable found there is kept aside first. */
  async write(calls: CallRecord[], now: () => number = Date.now): Promise<void> {
    await dataReady();
    await updateRecord(DATA.calls, (stored) => ({ next: writeCalls(calls), keepAside: keptAside(stored, now()).entries, result: undefined }));
  },
};
