import { describe, expect, it } from 'vitest';
import { callStore } from '../../../lib/background/call-store';
import { CallsService } from '../../../lib/background/calls-service';
import type { CallRecord } from '../../../lib/calls/call-record';
import { newCallRecord } from '../../../lib/calls/dial';
import { DATA } from '../../../lib/storage-keys';
import { readQuarantine, readRecord, writeRecord } from '../../../lib/store/data-db';

const call = (id: string): CallRecord => ({
  ...newCallRecord({ id, baseUrl: 'http://127.0.0.1:8787', agentId: 'agent-1', agentName: 'Sales', toNumber: '+14155552671', fromNumber: null, variables: {} }, 1),
  step: 'finished',
});
const now = () => 1_000;

describe('call store: nothing stored is silently lost', () => {
  it('round-trips the list as the current version', async () => {
    await callStore.write([call('a'), call('b')], now);
    expect(await readRecord(DATA.calls)).toMatchObject({ version: 2, calls: [{ id: 'a' }, { id: 'b' }] });
    expect((await callStore.list(now)).map((c) => c.id)).toEqual(['a', 'b']);
  });

  // Every kind of unusable stored value: kept aside whole, untouched, with the reason and time.
  for (const [label, stored, reason] of [
    ['not a list at all', 'garbage', /unreadable/],
    ['a container without calls', { version: 2 }, /unreadable/],
    ['a negative version', { version: -1, calls: [] }, /unreadable/],
    ['a newer version', { version: 3, calls: [{ id: 'future', shape: 'unknown' }] }, /newer version \(3\)/],
  ] as const) {
    it(`keeps aside ${label}, shows nothing of it, and a later save does not overwrite it`, async () => {
      await writeRecord(DATA.calls, stored);
      expect(await callStore.list(now)).toEqual([]);
      await callStore.write([call('later')], now);
      await callStore.write([call('later'), call('again')], now);
      expect(await readQuarantine()).toEqual([{ source: DATA.calls, reason: expect.stringMatching(reason), at: 1_000, value: stored }]);
      expect((await callStore.list(now)).map((c) => c.id)).toEqual(['later', 'again']);
    });
  }

  it('a save that was not preceded by a read still keeps the unreadable value aside first', async () => {
    await writeRecord(DATA.calls, { version: 99, calls: [] });
    await callStore.write([call('x')], now);
    expect((await readQuarantine()).map((e) => e.value)).toEqual([{ version: 99, calls: [] }]);
  });

  it('keeps aside only the records that do not parse; the readable ones stay in the history', async () => {
    const broken = { ...call('broken'), step: 'teleporting' };
    const partial = { id: 'partial' };
    await writeRecord(DATA.calls, { version: 1, calls: [call('a'), broken, call('b'), partial] });
    expect((await callStore.list(now)).map((c) => c.id)).toEqual(['a', 'b']);
    const kept = await readQuarantine();
    expect(kept.map((e) => e.value)).toEqual([broken, partial]);
    expect(kept[0]!.reason).toMatch(/step/);
    // Stored again without them (they are in the quarantine), so they are kept once, not on every read.
    expect(await readRecord(DATA.calls)).toMatchObject({ version: 2, calls: [{ id: 'a' }, { id: 'b' }] });
    await callStore.list(now);
    expect(await readQuarantine()).toHaveLength(2);
  });

  it("the calls service's persistence goes through the store (forget keeps the rest)", async () => {
    await callStore.write([call('a'), call('b')], now);
    const service = new CallsService(now);
    expect((await service.list()).map((c) => c.id)).toEqual(['a', 'b']);
    expect((await service.get('b'))?.id).toBe('b');
    await service.forget('a');
    expect((await callStore.list(now)).map((c) => c.id)).toEqual(['b']);
  });
});
