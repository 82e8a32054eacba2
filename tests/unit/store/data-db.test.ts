import { describe, expect, it } from 'vitest';
import { DATA } from '../../../lib/storage-keys';
import { quarantine, readData, readQuarantine, readRecord, updateRecord, watchData, writeRecord, type DataChange } from '../../../lib/store/data-db';

/** Waits until `changes` holds `n` notices (the channel delivers them as tasks). */
async function notices(changes: DataChange[], n: number): Promise<void> {
  for (let i = 0; i < 100 && changes.length < n; i++) await new Promise((r) => setTimeout(r, 0));
}

describe('data store (IndexedDB)', () => {
  it('stores records apart from each other and reads several in one go', async () => {
    await writeRecord(DATA.lastAgentId, 'agent-1');
    await writeRecord(DATA.keyState, { hasKey: true, keyHint: '••••wner' });
    expect(await readData([DATA.lastAgentId, DATA.keyState, DATA.calls])).toEqual({
      [DATA.lastAgentId]: 'agent-1',
      [DATA.keyState]: { hasKey: true, keyHint: '••••wner' },
      [DATA.calls]: undefined,
    });
  });

  it('tells every listener what changed, after it is stored', async () => {
    const changes: DataChange[] = [];
    const stop = watchData((change) => changes.push(change));
    await writeRecord(DATA.lastAgentId, 'agent-2');
    await notices(changes, 1);
    expect(changes).toEqual([{ name: DATA.lastAgentId, value: 'agent-2' }]);
    expect(await readRecord(DATA.lastAgentId)).toBe('agent-2');
    stop();
    await writeRecord(DATA.lastAgentId, 'agent-3');
    await notices(changes, 2);
    expect(changes).toHaveLength(1);
  });

  it('keeps aside in the same transaction that replaces, and announces the quarantine', async () => {
    await writeRecord(DATA.calls, 'garbage');
    const changes: DataChange[] = [];
    const stop = watchData((change) => changes.push(change));
    const result = await updateRecord(DATA.calls, (stored) => ({
      next: { version: 2, calls: [] },
      keepAside: [{ source: DATA.calls, reason: 'unreadable', at: 5, value: stored }],
      result: 'done',
    }));
    expect(result).toBe('done');
    expect(await readQuarantine()).toEqual([{ source: DATA.calls, reason: 'unreadable', at: 5, value: 'garbage' }]);
    expect(await readRecord(DATA.calls)).toEqual({ version: 2, calls: [] });
    await notices(changes, 2);
    expect(changes.map((c) => c.name)).toEqual([DATA.calls, DATA.quarantine]);
    stop();
  });

  it('an update that throws changes nothing', async () => {
    await writeRecord(DATA.calls, { version: 2, calls: [] });
    await expect(updateRecord(DATA.calls, () => { throw new Error('no'); })).rejects.toThrow('no');
    expect(await readRecord(DATA.calls)).toEqual({ version: 2, calls: [] });
  });

  it('keeps one copy of a value found unreadable again, and every different one', async () => {
    const entry = (value: unknown, at: number) => ({ source: 'settings', reason: 'bad', at, value });
    await quarantine([entry({ a: 1 }, 1)]);
    await quarantine([entry({ a: 1 }, 2)]);
    await quarantine([entry({ a: 2 }, 3), entry({ a: 2 }, 4)]);
    await quarantine([{ ...entry({ a: 1 }, 5), source: 'calls' }]);
    expect((await readQuarantine()).map((e) => [e.source, e.at])).toEqual([
      ['settings', 1],
      ['settings', 3],
      ['calls', 5],
    ]);
  });
});
