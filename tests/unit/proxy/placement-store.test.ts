/**
 * The placements' store (proxy/placements.ts `PlacementStore`), what the Workers' Durable Object
 * relies on, in Node against the real sandbox over HTTP: a step's attempt is stored before its
 * request reaches the service, and placements taken up from the store of others (a Durable Object
 * woken again) find the call by id and by Idempotency-Key, read it, stop it, and do not audit it twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WidgetPlacements, type AuditEntry, type HeldCall, type PlacementStore } from '../../../proxy/placements';
import { serviceClient } from '../../../proxy/service';
import { OWNER_KEY } from '../../../sandbox/keys';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { AGENT } from '../../support/proxy-harness';

let sb: Sandbox;
beforeAll(async () => {
  // Speed 6: a batch call waits 20 s before it starts, time enough to stop it from the second placements.
  sb = await startSandbox({ port: 0, speed: 6 });
});
afterAll(async () => {
  await sb?.close();
});

/** A store as the Durable Object's: copies in, copies out (structured clone, as its storage does). */
function copyingStore() {
  const kept = new Map<string, HeldCall>();
  const store: PlacementStore = {
    load: async () => [...kept.values()].map((c) => structuredClone(c)),
    save: async (call) => void kept.set(call.record.id, structuredClone(call)),
    drop: async (id) => void kept.delete(id),
  };
  return { store, kept };
}

const placer = { tokenId: 'token-1', who: 'store-test', origin: 'http://127.0.0.1:4101' };

describe('the placements write through their store', () => {
  it('a step that changes the service is stored counted before its request is sent', async () => {
    const { store, kept } = copyingStore();
    const storedAttemptsWhenSent: number[] = [];
    const watching: typeof fetch = async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      if ((init?.method ?? 'GET') === 'POST' && url.pathname === '/call') storedAttemptsWhenSent.push(...[...kept.values()].map((c) => c.record.startAttempts));
      return fetch(input, init);
    };
    const client = serviceClient({ baseUrl: sb.url, apiKey: OWNER_KEY, perMinute: 300, fetch: watching });
    const placements = new WidgetPlacements(client, { baseUrl: sb.url, audit: () => {}, store });
    const record = await placements.place({ agentId: AGENT, toNumber: '+14155553001', variables: {}, via: 'call' }, placer);
    expect(record.executionId).toEqual(expect.any(String));
    expect(storedAttemptsWhenSent).toEqual([1]);
    expect(kept.get(record.id)?.record).toEqual(record);
  });

  it('placements taken up from the store find the call, read it, stop it, and audit it once', async () => {
    const { store } = copyingStore();
    const audit: AuditEntry[] = [];
    const client = serviceClient({ baseUrl: sb.url, apiKey: OWNER_KEY, perMinute: 300 });
    const first = new WidgetPlacements(client, { baseUrl: sb.url, audit: (entry) => void audit.push(entry), store });
    const placed = await first.place({ agentId: AGENT, toNumber: '+14155553007', variables: {}, via: 'batch' }, placer, 'intent-0001');
    let seen = placed;
    while (!seen.executionId) seen = (await first.stepIfDue(placed.id)) ?? seen;
    expect(audit.map((a) => a.placementId)).toEqual([placed.id]);

    const second = new WidgetPlacements(client, { baseUrl: sb.url, audit: (entry) => void audit.push(entry), store });
    await second.restore();
    expect(second.get(placed.id, 'another-token')).toBeUndefined();
    expect(second.get(placed.id, placer.tokenId)).toMatchObject({ id: placed.id, executionId: seen.executionId, stopRequested: false });
    expect(second.byIntent(placer.tokenId, 'intent-0001')?.id).toBe(placed.id);
    let view = (await second.stop(placed.id, placer.tokenId))!;
    expect(view.stopRequested).toBe(true);
    for (let i = 0; view.step !== 'finished'; i++) {
      if (i > 200) throw new Error(`not finished: ${JSON.stringify(view)}`);
      await new Promise((r) => setTimeout(r, 50));
      view = (await second.stepIfDue(placed.id))!;
    }
    expect(view.status).toBe('stopped');
    const execution = await (await fetch(`${sb.url}/executions/${view.executionId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json();
    expect(execution.status).toBe('stopped');
    expect(audit.map((a) => a.placementId)).toEqual([placed.id]);
  });
});
