/**
 * Test plans and their runs in the data store (records `plans` and `plans.runs`). Reads are
 * schema-checked (lib/plans/store.ts); whatever could not be read is moved into the quarantine,
 * untouched, in the same transaction that replaces it. Each change is one read-modify-write in one
 * transaction, so two writers never lose each other's change.
 */
import type { KeptAside } from '../calls/history';
import type { PlanRun } from '../plans/run-state';
import { readPlans, readRuns, writePlans, writeRuns, type StoredPlan, type StoreRead } from '../plans/store';
import { DATA, type DataName } from '../storage-keys';
import { readRecord, updateRecord } from '../store/data-db';
import { dataReady } from '../store/migrate';

function change<T, R>(
  name: DataName,
  read: (raw: unknown) => StoreRead<T>,
  write: (items: T[]) => unknown,
  edit: (items: T[]) => { items: T[] | null; result: R },
  now: number,
): Promise<R> {
  return updateRecord(name, (stored) => {
    const found = read(stored);
    const { items, result } = edit(found.items);
    const keepAside = found.keepAside.map((k: KeptAside) => ({ source: name, reason: k.reason, at: now, value: k.value }));
    return { next: items ? write(items) : undefined, keepAside: items ? keepAside : [], result };
  });
}

export const planStore = {
  async plans(): Promise<StoredPlan[]> {
    await dataReady();
    return readPlans(await readRecord(DATA.plans)).items;
  },

  async editPlans<R>(edit: (plans: StoredPlan[]) => { items: StoredPlan[] | null; result: R }, now = Date.now()): Promise<R> {
    await dataReady();
    return change(DATA.plans, readPlans, writePlans, edit, now);
  },

  async runs(): Promise<PlanRun[]> {
    await dataReady();
    return readRuns(await readRecord(DATA.planRuns)).items;
  },

  async editRuns<R>(edit: (runs: PlanRun[]) => { items: PlanRun[] | null; result: R }, now = Date.now()): Promise<R> {
    await dataReady();
    return change(DATA.planRuns, readRuns, writeRuns, edit, now);
  },
};
