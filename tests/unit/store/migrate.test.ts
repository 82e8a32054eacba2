import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { callStore } from '../../../lib/background/call-store';
import { newCallRecord } from '../../../lib/calls/dial';
import { DATA, LEGACY_LOCAL } from '../../../lib/storage-keys';
import { readData, readQuarantine, readRecord, writeRecord } from '../../../lib/store/data-db';
import { DATA_VERSION, migrateData } from '../../../lib/store/migrate';
import { records } from '../../../lib/store/records';

const call = (id: string) => ({
  ...newCallRecord({ id, baseUrl: 'http://127.0.0.1:8787', agentId: 'agent-1', agentName: 'Sales', toNumber: '+14155552671', fromNumber: null, variables: {} }, 1),
  step: 'finished' as const,
});
const agents = { baseUrl: 'http://127.0.0.1:8787', agents: [{ id: 'agent-1', name: 'Sales', status: null, manual: false }], fetchedAt: 9, listRouteMissing: false };
const settings = { version: 1, baseUrl: 'http://127.0.0.1:8787', defaultCountry: 'GB', rememberKey: true, sites: { mode: 'everywhere', listed: [], paused: [], countries: {} } };

/** What storage.local held under version 0 of the data store. */
const version0 = (calls: unknown) => ({
  settings,
  [LEGACY_LOCAL.calls]: calls,
  [LEGACY_LOCAL.agentsCache]: agents,
  [LEGACY_LOCAL.lastAgentId]: 'agent-1',
  [LEGACY_LOCAL.routeMemory]: { 'http://127.0.0.1:8787': { 'batch.schedule': 'live' } },
  [LEGACY_LOCAL.hasKey]: true,
  [LEGACY_LOCAL.keyHint]: '••••••••wner',
});

beforeEach(() => fakeBrowser.reset());

describe('data store migration', () => {
  // Call history had two shapes in storage.local: a bare array (calls v0), then {version: 1, calls}.
  for (const [label, stored] of [
    ['calls v0 (bare array)', [call('a'), call('b')]],
    ['calls v1 ({version: 1, calls})', { version: 1, calls: [call('a'), call('b')] }],
  ] as const) {
    it(`moves everything from storage.local (with ${label}) into IndexedDB once, leaving only settings`, async () => {
      await fakeBrowser.storage.local.set(version0(stored));
      await migrateData(100);

      expect(await fakeBrowser.storage.local.get(null)).toEqual({ settings });
      const moved = await readData([DATA.calls, DATA.agentsCache, DATA.lastAgentId, DATA.routeMemory, DATA.keyState, DATA.version]);
      expect(moved[DATA.calls]).toEqual(stored); // untouched: the reader migrates the shape
      expect(moved[DATA.version]).toBe(DATA_VERSION);
      expect(await records.agentsCache.read()).toEqual(agents);
      expect(await records.lastAgentId.read()).toBe('agent-1');
      expect(await records.routeMemory.read()).toEqual({ 'http://127.0.0.1:8787': { 'batch.schedule': 'live' } });
      expect(await records.keyState.read()).toEqual({ hasKey: true, keyHint: '••••••••wner', keyOrigin: null });
      // calls v0/v1 → the current version on the next save, with every record.
      expect((await callStore.list()).map((c) => c.id)).toEqual(['a', 'b']);
      await callStore.write(await callStore.list());
      expect(await readRecord(DATA.calls)).toMatchObject({ version: 2, calls: [{ id: 'a' }, { id: 'b' }] });
      expect(await readQuarantine()).toEqual([]);
    });
  }

  it('runs once: a second run changes nothing', async () => {
    await fakeBrowser.storage.local.set(version0([call('a')]));
    await migrateData(100);
    await writeRecord(DATA.lastAgentId, 'agent-9');
    await migrateData(200);
    expect(await records.lastAgentId.read()).toBe('agent-9');
    expect(await readQuarantine()).toEqual([]);
  });

  it('an old key found again after the move never replaces the store; old call history is kept aside', async () => {
    await writeRecord(DATA.version, 1);
    await writeRecord(DATA.calls, { version: 2, calls: [call('new')] });
    await writeRecord(DATA.lastAgentId, 'agent-new');
    await fakeBrowser.storage.local.set({ [LEGACY_LOCAL.calls]: { version: 1, calls: [call('old')] }, [LEGACY_LOCAL.lastAgentId]: 'agent-old' });
    await migrateData(300);
    expect((await callStore.list()).map((c) => c.id)).toEqual(['new']);
    expect(await records.lastAgentId.read()).toBe('agent-new');
    expect(await readQuarantine()).toEqual([
      { source: DATA.calls, reason: expect.stringMatching(/older copy/), at: 300, value: { version: 1, calls: [call('old')] } },
    ]);
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
  });

  it('leaves a store written by a newer version alone (and storage.local too)', async () => {
    await writeRecord(DATA.version, DATA_VERSION + 1);
    await fakeBrowser.storage.local.set({ [LEGACY_LOCAL.lastAgentId]: 'agent-old' });
    await migrateData(400);
    expect(await readRecord(DATA.lastAgentId)).toBeUndefined();
    expect(await fakeBrowser.storage.local.get(null)).toEqual({ [LEGACY_LOCAL.lastAgentId]: 'agent-old' });
  });

  it('a fresh install has nothing to move and is at the current version', async () => {
    await migrateData(1);
    expect(await readRecord(DATA.version)).toBe(DATA_VERSION);
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
  });
});
