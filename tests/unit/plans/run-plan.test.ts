/**
 * runPlan's contract, pinned against the real sandbox over HTTP with the real client: a cancel or a
 * deadline stops the batch and waits for the service to confirm; "stopped" is said only when the service
 * read back says so; a batch that may still dial is named. What happened is read from the sandbox itself.
 *
 * Speed 1: the batch's start is two real minutes away, so the run is always cancelled before it; after
 * the run, advancing the sandbox's clock makes anything still pending happen at once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clockReadingFetch } from '../../../lib/api/clock';
import { createClient } from '../../../lib/api/client';
import { PlanNotStarted, runPlan, type PlanClient, type RunEvent } from '../../../lib/plans/run';
import { OWNER_KEY } from '../../../sandbox/keys';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { call } from '../../../sandbox/testing';
import { plan } from './fixtures';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 1 });
});
afterAll(() => sb.close());
beforeEach(async () => {
  sb.reset();
  await call(sb.url, 'POST', '/__sandbox/clock', { key: null, body: { speed: 1 } });
});

const client = (): PlanClient => {
  const { fetch: reading, clock } = clockReadingFetch();
  return Object.assign(createClient({ baseUrl: sb.url, apiKey: OWNER_KEY, fetch: reading }), clock);
};
const p = () =>
  plan({
    agent_id: SEED.A.agents.sales,
    cases: [
      { id: 'ok', label: 'Callback', contact_number: '+14155550401', expect: { status: 'completed' } },
      { id: 'busy', label: 'Busy', contact_number: '+14155551001', expect: { status: 'busy' } },
    ],
  });
const control = (method: string, path: string, body?: unknown) => call(sb.url, method, `/__sandbox/${path}`, { key: null, body });
const fault = (body: Record<string, unknown>) => control('POST', 'faults', body);
const log = async (): Promise<Array<{ method: string; path: string; status: number }>> => (await control('GET', 'requests')).body;
const batchStatus = async (id: string) => {
  const r = await call(sb.url, 'GET', `/batches/${id}`);
  return r.status === 404 ? 'gone' : (r.body.status as string);
};
/** Fires everything pending in the sandbox, then answers every status an execution reached by dialling. */
async function dialled(): Promise<string[]> {
  for (let i = 0; i < 6; i++) await control('POST', 'clock', { advance: true });
  const events: Array<{ status: string }> = (await control('GET', 'events')).body;
  return events.map((e) => e.status).filter((s) => !['prepared', 'scheduled', 'stopped'].includes(s));
}
/** Aborts when the run reaches `type`. */
function abortAt(type: RunEvent['type']) {
  const controller = new AbortController();
  const events: RunEvent[] = [];
  return { signal: controller.signal, events, onEvent: (e: RunEvent) => (events.push(e), e.type === type && controller.abort()) };
}

describe('runPlan: cancel', () => {
  it('aborted while the batch waits for its start: stopped, confirmed by the service, every case cancelled, nothing dialled', async () => {
    const a = abortAt('scheduled');
    const out = await runPlan(p(), client(), { signal: a.signal, onEvent: a.onEvent });
    expect(out).toMatchObject({ ended: 'cancelled', leftRunning: null, stop: { confirmed: true, state: 'stopped' } });
    expect(out.result.interrupted).toBe('cancelled');
    expect(out.result.cases.map((c) => [c.caseId, c.verdict, c.unfinished])).toEqual([
      ['ok', 'error', 'cancelled'],
      ['busy', 'error', 'cancelled'],
    ]);
    expect(out.result.cases[0]!.error).toMatch(/^Cancelled: /);
    expect(await batchStatus(out.batchId!)).toBe('stopped');
    expect(await dialled()).toEqual([]);
    expect(a.events.map((e) => e.type).slice(0, 4)).toEqual(['batch-created', 'scheduled', 'stopping', 'stop-result']);
    // Then the last read: each row, ended by the stop, is read once and named by its case.
    expect(a.events.slice(4).map((e) => e.type === 'finished' && [e.caseId, e.status]).sort()).toEqual([
      ['busy', 'stopped'],
      ['ok', 'stopped'],
    ]);
  });

  it('aborted before the schedule was sent: the batch (read back created) is deleted, never scheduled', async () => {
    const a = abortAt('batch-created');
    const out = await runPlan(p(), client(), { signal: a.signal, onEvent: a.onEvent });
    expect(out).toMatchObject({ ended: 'cancelled', leftRunning: null, stop: { confirmed: true, state: 'deleted' } });
    const requests = await log();
    expect(await batchStatus(out.batchId!)).toBe('gone');
    expect(requests.some((q) => /schedule/.test(q.path))).toBe(false);
    // Never asked to schedule, it could not dial: deleted at once, no stop needed.
    expect(requests.filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.status}`)).toEqual(['POST 201', 'DELETE 200']);
    expect(await dialled()).toEqual([]);
  });

  it('a stop answered 404 while the batch still reads scheduled is tried again until the service stops it', async () => {
    await fault({ method: 'POST', path: '/stop$', status: 404, body: { error: 404, message: 'Batch is not queued or running' } });
    const a = abortAt('scheduled');
    const out = await runPlan(p(), client(), { signal: a.signal, onEvent: a.onEvent });
    expect(out.stop).toMatchObject({ confirmed: true, state: 'stopped' });
    expect((await log()).filter((q) => q.path.endsWith('/stop')).map((q) => q.status)).toEqual([404, 200]);
    expect(await dialled()).toEqual([]);
  });

  it('a service that never confirms: the stop gives up after stopWaitMs, unconfirmed, and the batch is named as left running', async () => {
    await fault({ method: 'POST', path: '/stop$', status: 503, count: 1000 });
    await fault({ method: 'GET', path: '^/batches/[0-9a-f]{32}$', status: 503, count: 1000 });
    const a = abortAt('scheduled');
    const out = await runPlan(p(), client(), { signal: a.signal, onEvent: a.onEvent, stopWaitMs: 1_500 });
    expect(out.stop).toMatchObject({ confirmed: false, state: 'unconfirmed' });
    expect(out.leftRunning).toBe(out.batchId);
    expect(out.result.cases.every((c) => c.unfinished === 'cancelled')).toBe(true);
    await control('DELETE', 'faults');
    expect(await batchStatus(out.batchId!)).toBe('scheduled');
    await call(sb.url, 'POST', `/batches/${out.batchId}/stop`);
  });
});

describe('runPlan: could not start', () => {
  it('a schedule the service took but whose answer was lost is read back and followed, never sent twice', async () => {
    await fault({ method: 'POST', path: '/schedule$', dropAfter: true });
    const a = abortAt('scheduled');
    const out = await runPlan(p(), client(), { signal: a.signal, onEvent: a.onEvent });
    expect(out).toMatchObject({ ended: 'cancelled', stop: { confirmed: true, state: 'stopped' } });
    expect((await log()).filter((q) => /schedule$/.test(q.path))).toHaveLength(1);
    expect(await batchStatus(out.batchId!)).toBe('stopped');
    expect(await dialled()).toEqual([]);
  });

  it('a schedule refused: the batch, never scheduled, is deleted', async () => {
    await fault({ method: 'POST', path: '/schedule$', status: 400, body: { error: 400, message: 'scheduled_at is in the past' } });
    const error = await runPlan(p(), client()).catch((e) => e);
    expect(error).toBeInstanceOf(PlanNotStarted);
    expect(error.stop).toMatchObject({ confirmed: true, state: 'deleted' });
    expect(await batchStatus(error.batchId)).toBe('gone');
  });
});

describe('runPlan: maxWaitMs bounds the whole run', () => {
  it('a deadline before the start stops the batch; the cases are not finished', async () => {
    const out = await runPlan(p(), client(), { maxWaitMs: 300 });
    expect(out).toMatchObject({ ended: 'deadline', leftRunning: null, stop: { confirmed: true, state: 'stopped' } });
    expect(out.result.interrupted).toBe('not-finished');
    expect(out.result.cases.every((c) => c.unfinished === 'not-finished' && /^Not finished: /.test(c.error!))).toBe(true);
    expect(await dialled()).toEqual([]);
  });

  it("atDeadline 'leave-running': no stop is sent, the batch is named as left running", async () => {
    const events: RunEvent[] = [];
    const out = await runPlan(p(), client(), { maxWaitMs: 300, atDeadline: 'leave-running', onEvent: (e) => events.push(e) });
    expect(out).toMatchObject({ ended: 'deadline', stop: null });
    expect(out.leftRunning).toBe(out.batchId);
    expect(events.find((e) => e.type === 'deadline')).toMatchObject({ leaveRunning: true });
    expect((await log()).some((q) => q.path.endsWith('/stop'))).toBe(false);
    expect(await batchStatus(out.batchId!)).toBe('scheduled');
    await call(sb.url, 'POST', `/batches/${out.batchId}/stop`);
  });
});

describe('the stop (the placement engine\'s, lib/placement/batch-steps.ts)', () => {
  it('keeps trying through 503s and Retry-After until the service answers', async () => {
    await fault({ method: 'POST', path: '/stop$', status: 503, count: 2, retryAfter: 1 });
    const a = abortAt('scheduled');
    const out = await runPlan(p(), client(), { signal: a.signal, onEvent: a.onEvent });
    expect(out.stop).toMatchObject({ confirmed: true, state: 'stopped' });
    expect((await log()).filter((q) => q.path.endsWith('/stop')).map((q) => q.status)).toEqual([503, 503, 200]);
  });
});
