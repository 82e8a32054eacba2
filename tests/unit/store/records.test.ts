import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { forgetHeldTabs, readTab, updateTab, tabKey } from '../../../lib/background/tab-numbers';
import { DATA } from '../../../lib/storage-keys';
import { writeRecord } from '../../../lib/store/data-db';
import { records } from '../../../lib/store/records';

beforeEach(() => fakeBrowser.reset());

// Caches and derived state: a stored value that does not match its schema reads as absent (it is
// refilled from the service or the key), never as a half-typed value.
describe('data store records are read through their schemas', () => {
  const agents = { baseUrl: 'http://x', agents: [{ id: 'a', name: 'A', status: null, manual: true }], fetchedAt: null, listRouteMissing: true };
  const cases = [
    ['agents cache', DATA.agentsCache, records.agentsCache.read, agents, [{ ...agents, agents: [{ id: 'a' }] }, { agents: [] }, 'x'], undefined],
    ['last agent', DATA.lastAgentId, records.lastAgentId.read, 'agent-1', ['', 42, { id: 'a' }], undefined],
    ['key state', DATA.keyState, records.keyState.read, { hasKey: true, keyHint: null, keyOrigin: 'http://127.0.0.1:8787' }, [{ hasKey: 'yes', keyHint: null }, true], undefined],
    ['route memory', DATA.routeMemory, records.routeMemory.read, { 'http://x': { 'batch.schedule': 'live' } }, [{ 'http://x': { 'batch.schedule': 'other' } }, []], {}],
  ] as const;
  for (const [label, name, read, good, bad, absent] of cases) {
    it(`${label}: a valid value reads back; invalid ones read as absent`, async () => {
      await writeRecord(name, good);
      expect(await read()).toEqual(good);
      for (const value of bad) {
        await writeRecord(name, value);
        expect(await read()).toEqual(absent);
      }
    });
  }

  it("page numbers in storage.session: valid ones read back, a value of another shape reads as none", async () => {
    const tab = { host: 'crm.example.com', frames: { '0': [{ raw: '(415) 555-2671', e164: '+14155552671' }] } };
    await updateTab(7, 'crm.example.com', () => tab);
    expect(await readTab(7)).toEqual(tab);
    // What a restarted worker reads (it holds nothing of its own yet).
    await fakeBrowser.storage.session.set({ [tabKey(7)]: { host: 'x', frames: { '0': ['+1415'] } } });
    forgetHeldTabs();
    expect(await readTab(7)).toBeNull();
    // Stored as its JSON text: text that is not JSON reads as none too.
    await updateTab(8, 'crm.example.com', () => tab);
    expect(JSON.parse(String((await fakeBrowser.storage.session.get(tabKey(8)))[tabKey(8)]))).toEqual(tab);
    await fakeBrowser.storage.session.set({ [tabKey(8)]: '{"host":' });
    forgetHeldTabs();
    expect(await readTab(8)).toBeNull();
  });
});
