/**
 * The Batches requests through the background's router against the real sandbox (spec and live
 * routes): a list far over one message's cap arrives in parts and becomes one batch; the
 * background checks the list and the start again and sends nothing that fails.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { writeKey } from '../../../lib/background/key-store';
import { BatchPlacementsService } from '../../../lib/background/batch-placements';
import { handleUiRequest, type RouterDeps } from '../../../lib/background/router';
import { storeSettings } from '../../../lib/background/settings-store';
import type { CallsService } from '../../../lib/background/calls-service';
import { splitParts } from '../../../lib/batches/upload';
import { MAX_MESSAGE_BYTES, uiRequest, type Reply, type UiRequest } from '../../../lib/messages';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { OWNER_KEY } from '../../../sandbox/keys';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';

const AGENT = SEED.A.agents.sales;
const deps: RouterDeps = { calls: {} as CallsService, openPanel: async () => undefined, now: () => Date.now() };
/** As the background's entrypoint does: size cap, strict parse, then the router. */
async function send(request: UiRequest): Promise<Reply<unknown>> {
  expect(JSON.stringify(request).length).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  return handleUiRequest(uiRequest.parse(request), deps);
}
const data = <T,>(reply: Reply<unknown>): T => {
  if (!reply.ok) throw new Error(`expected ok, got ${reply.error.message}`);
  return reply.data as T;
};

async function upload(uploadId: string, csv: string): Promise<void> {
  const parts = splitParts(csv);
  for (const [index, text] of parts.entries()) data(await send({ type: 'batches/upload-part', uploadId, index, total: parts.length, text }));
}

describe.each(['spec', 'live'] as const)('batches requests against the sandbox (%s routes)', (routes) => {
  let sb: Sandbox;
  const posts = async (path: RegExp) => {
    const log = (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string; status: number }>;
    return log.filter((r) => r.method === 'POST' && path.test(r.path));
  };

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, speed: 60, routes });
  });
  afterAll(async () => sb.close());
  beforeEach(async () => {
    fakeBrowser.reset();
    sb.reset();
    await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: sb.url });
    await writeKey(sb.url, OWNER_KEY, true);
  });

  it('a list of 3,000 contacts (about 100 KB) goes in parts and becomes one batch with every contact and variable', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `+1415${String(5550000 + i)},Person ${i},"note, with a comma"`);
    const csv = `contact_number,name,note\n${rows.join('\n')}\n`;
    expect(csv.length).toBeGreaterThan(MAX_MESSAGE_BYTES);
    await upload('big-1', csv);
    const { batchId } = data<{ batchId: string }>(await send({ type: 'batches/create', agentId: AGENT, uploadId: 'big-1', fileName: 'big.csv', country: 'US' }));
    const batches = data<Array<{ batch_id: string; total_contacts: number; file_name: string }>>(await send({ type: 'batches/list', agentId: AGENT }));
    expect(batches.find((b) => b.batch_id === batchId)).toMatchObject({ total_contacts: 3000, file_name: 'big.csv' });
    const executions = data<Array<{ id: string; to_number: string; status: string }>>(await send({ type: 'batches/executions', batchId }));
    expect(executions).toHaveLength(3000);
    expect(executions[2999]).toMatchObject({ to_number: '+14155552999', status: 'prepared' });
    const full = await (await fetch(`${sb.url}/executions/${executions[0]!.id}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json();
    expect(full.context_details.recipient_data).toEqual({ name: 'Person 0', note: 'note, with a comma' });
  });

  it('refuses a list with a bad row, or a part missing, before anything is sent', async () => {
    await upload('bad-1', 'contact_number\n+14155552671\n+14155552671\n');
    const dup = await send({ type: 'batches/create', agentId: AGENT, uploadId: 'bad-1', fileName: 'x.csv', country: 'US' });
    expect(dup).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringMatching(/line 3: The same number as line 2/) } });
    data(await send({ type: 'batches/upload-part', uploadId: 'half', index: 0, total: 2, text: 'contact_number\n' }));
    expect(await send({ type: 'batches/create', agentId: AGENT, uploadId: 'half', fileName: 'x.csv', country: 'US' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/missing/) },
    });
    expect(await posts(/^\/batches$/)).toEqual([]);
  });

  it('schedules at a time 3 minutes ahead; refuses a past time or an unreadable date without a request; stops and deletes', async () => {
    await upload('s-1', 'contact_number\n+14155551007\n');
    const { batchId } = data<{ batchId: string }>(await send({ type: 'batches/create', agentId: AGENT, uploadId: 's-1', fileName: 's.csv', country: 'US' }));
    const past = await send({ type: 'batches/schedule', batchId, scheduledAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past).toMatchObject({ ok: false, error: { message: 'The scheduled time must be at least 2 minutes in the future.' } });
    expect(await send({ type: 'batches/schedule', batchId, scheduledAt: 'tomorrow' })).toMatchObject({ ok: false, error: { message: 'The start time is not a valid date.' } });
    expect(await posts(/schedule/)).toEqual([]);
    const at = new Date(Date.now() + 3 * 60_000);
    const { scheduledAt } = data<{ scheduledAt: string }>(await send({ type: 'batches/schedule', batchId, scheduledAt: at.toISOString() }));
    expect(scheduledAt).toMatch(/\+00:00$/);
    // Live, the spec's form is tried first and answers 404: one schedule was accepted.
    expect((await posts(/schedule/)).filter((r) => r.status === 200)).toHaveLength(1);
    data(await send({ type: 'batches/stop', batchId }));
    const again = await send({ type: 'batches/stop', batchId });
    expect(again).toMatchObject({ ok: false, error: { message: expect.stringContaining('Batch is not queued or running') } });
    data(await send({ type: 'batches/delete', batchId }));
    const batches = data<Array<{ batch_id: string }>>(await send({ type: 'batches/list', agentId: AGENT }));
    expect(batches.map((b) => b.batch_id)).not.toContain(batchId);
  });

  it('Stop is done when the service says so: "stopping" while it fails, tried again by the background after a worker restart, then stopped', async () => {
    await upload('st-1', 'contact_number\n+14155551008\n');
    const { batchId } = data<{ batchId: string }>(await send({ type: 'batches/create', agentId: AGENT, uploadId: 'st-1', fileName: 'st.csv', country: 'US' }));
    data(await send({ type: 'batches/schedule', batchId, scheduledAt: new Date(Date.now() + 3 * 60_000).toISOString() }));
    const faults = (body?: unknown) =>
      fetch(`${sb.url}/__sandbox/faults`, { method: body ? 'POST' : 'DELETE', headers: { 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    await faults({ method: 'POST', path: '/stop$', status: 503, count: 1 });
    expect(data(await send({ type: 'batches/stop', batchId }))).toEqual({ stopping: true });
    expect((await (await fetch(`${sb.url}/batches/${batchId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json()).status).toBe('scheduled');
    await faults();
    // The background's next try, in a restarted worker (its alarm), brought forward here.
    const { batchPlacements, BatchPlacementsService } = await import('../../../lib/background/batch-placements');
    batchPlacements().dispose();
    const record = (await batchPlacements().all()).find((r) => r.batchId === batchId)!;
    expect(record).toMatchObject({ stopRequested: true, stopSent: false });
    const { updateRecord } = await import('../../../lib/store/data-db');
    await updateRecord('batches.placements', (stored) => ({ next: (stored as Array<{ id: string }>).map((r) => (r.id === record.id ? { ...r, nextPollAt: 0 } : r)), result: undefined }));
    const restarted = new BatchPlacementsService();
    await restarted.runDue();
    await restarted.idle();
    restarted.dispose();
    expect((await (await fetch(`${sb.url}/batches/${batchId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json()).status).toBe('stopped');
    expect((await batchPlacements().all()).find((r) => r.batchId === batchId)).toMatchObject({ stopSent: true });
  });

  // A create the user waits for, retried after a failure, while the background's timer wakes at the same
  // moment and runs the retry itself: nothing may schedule the batch (a schedule with no start picked
  // goes at the earliest allowed time, and the service dials).
  it('a create retried while the timer runs the same retry makes the batch once and leaves it waiting for the user’s start: never scheduled', async () => {
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
      const made = await service.create({ id: `upload-race-${routes}`, baseUrl: sb.url, agentId: AGENT, fileName: 'race.csv', csv: 'contact_number\n+14155551009\n' });
      await service.idle();
      expect(timerRuns).toBeGreaterThan(0); // the race was run: the retry came from the timer
      expect(made.batchId).toBeTruthy();
      const log = (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as Array<{ method: string; path: string; status: number }>;
      expect(log.filter((r) => r.method === 'POST' && /schedule/.test(r.path))).toEqual([]);
      expect(log.filter((r) => r.method === 'POST' && r.path === '/batches' && r.status === 201)).toHaveLength(1);
      const batch = await (await fetch(`${sb.url}/batches/${made.batchId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } })).json();
      expect(batch.status).toBe('created');
      expect((await service.all()).find((r) => r.id === `upload-race-${routes}`)).toMatchObject({ step: 'scheduling', at: null });
    } finally {
      service.dispose();
    }
  });
});
