/**
 * A create the user waits for, retried after a failure, while the background's timer wakes at the same
 * moment and runs the retry itself: the batch is made and then waits for the user's start. Nothing may
 * schedule it (a schedule with no start picked goes at the earliest allowed time, and the service dials).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { BatchPlacementsService } from '../../../lib/background/batch-placements';
import { writeKey } from '../../../lib/background/key-store';
import { storeSettings } from '../../../lib/background/settings-store';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { OWNER_KEY } from '../../../sandbox/keys';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';

const AGENT = SEED.A.agents.sales;

describe('a create retried while the timer runs the same retry', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, speed: 60 });
  });
  afterAll(async () => sb.close());
  beforeEach(async () => {
    fakeBrowser.reset();
    sb.reset();
    await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: sb.url });
    await writeKey(sb.url, OWNER_KEY, true);
  });

  it('makes the batch once and leaves it waiting for the user’s start: never scheduled', async () => {
    await fetch(`${sb.url}/__sandbox/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ method: 'POST', path: '/batches$', status: 503, count: 1 }) });
    let t = Date.now();
    let timerRuns = 0;
    // The create's wait for its backoff: the clock moves on, and the timer (due at the same moment) runs first.
    const service: BatchPlacementsService = new BatchPlacementsService(
      () => t,
      undefined,
      async (ms) => {
        t += ms;
        timerRuns++;
        await service.runDue();
      },
    );
    try {
      const made = await service.create({ id: 'upload-race-1', baseUrl: sb.url, agentId: AGENT, fileName: 'race.csv', csv: 'contact_number\n+14155551009\n' });
      await service.idle();
      expect(timerRuns).toBeGreaterThan(0); // the race was run: the retry came from the timer
      expect(made.batchId).toBeTruthy();
      const log = (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string; status: number }>;
      expect(log.filter((r) => r.method === 'POST' && /schedule/.test(r.path))).toEqual([]);
      expect(log.filter((r) => r.method === 'POST' && r.path === '/batches' && r.status === 201)).toHaveLength(1);
      const batch = await (await fetch(`${sb.url}/batches/${made.batchId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json();
      expect(batch.status).toBe('created');
      expect((await service.all()).find((r) => r.id === 'upload-race-1')).toMatchObject({ step: 'scheduling', at: null });
    } finally {
      service.dispose();
    }
  });
});
