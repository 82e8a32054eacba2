/**
 * The background's run follower (lib/background/plan-runs.ts) against the real sandbox: a run goes from
 * Confirm to verdicts on its own, is picked up by a new worker from what was stored, stops, and never
 * makes a second batch when a create's answer was lost.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { planStore } from '../../../lib/background/plan-store';
import { PlanRunsService } from '../../../lib/background/plan-runs';
import { clientFor } from '../../../lib/background/service';
import { planCsv } from '../../../lib/plans/batch';
import { isRunActive, markAttempt, newRun, runFileName, upsertRun, type PlanRun } from '../../../lib/plans/run-state';
import { batchForm, call, waitFor } from '../../../sandbox/testing';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { SEED } from '../../../sandbox/seed';
import { plan } from './fixtures';

vi.mock('../../../lib/background/key-store', () => ({
  originOf: (baseUrl: string) => new URL(baseUrl).origin,
  readKeyFor: async (origin: string) => ({ origin, key: 'va_test_owner', remember: true }),
}));

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 600 });
});
afterAll(() => sb.close());

const services: PlanRunsService[] = [];
const service = () => {
  const s = new PlanRunsService(Date.now, clientFor);
  services.push(s);
  return s;
};
beforeEach(() => {
  fakeBrowser.reset();
  sb.reset();
});
afterEach(async () => {
  for (const s of services.splice(0)) {
    s.dispose();
    await s.idle();
  }
});

const AGENT = SEED.A.agents.sales;
const p = () =>
  plan({
    agent_id: AGENT,
    cases: [
      { id: 'ok', label: 'Callback', contact_number: '+14155550401', variables: { intent: 'callback' }, expect: { extracted: { interested: { equals: true } } } },
      { id: 'busy', label: 'Busy', contact_number: '+14155551001', expect: { status: 'busy' } },
    ],
  });

const stored = async (id: string) => (await planStore.runs()).find((r) => r.id === id);
const ended = (id: string) => waitFor(async () => ((await stored(id))?.result && !['creating', 'scheduling', 'following'].includes((await stored(id))!.phase) ? stored(id) : undefined), { timeoutMs: 20_000, what: 'the run to end' });
const batchesNamed = async (name: string) => ((await call(sb.url, 'GET', `/batches/${AGENT}/all`)).body as { file_name?: string; status: string }[]).filter((b) => b.file_name === name);

describe('PlanRunsService', () => {
  it('takes a confirmed run to its verdicts on its own, and a new worker picks up a stored run where it was', async () => {
    const first = service();
    const run = await first.start({ id: 'run-a', planId: 'plan-1', plan: p(), baseUrl: sb.url });
    expect(run.phase).toBe('creating');
    // The worker goes away once the batch is scheduled; a new one resumes from storage.
    await waitFor(async () => (await stored('run-a'))?.phase === 'following');
    first.dispose();
    await first.idle();
    const second = service();
    await second.runDue();
    const done = (await ended('run-a'))!;
    expect(done.phase).toBe('finished');
    expect(done.result!.cases.map((c) => [c.caseId, c.verdict])).toEqual([
      ['ok', 'pass'],
      ['busy', 'pass'],
    ]);
    expect(await batchesNamed(runFileName('run-a'))).toHaveLength(1);
    // The same run id again (a double click) is the same run, not a second batch.
    await second.start({ id: 'run-a', planId: 'plan-1', plan: p(), baseUrl: sb.url });
    expect(await batchesNamed(runFileName('run-a'))).toHaveLength(1);
  });

  it('Stop stops the batch and judges what finished: the call that never ended is in error', async () => {
    const s = service();
    const long = plan({ agent_id: AGENT, cases: [{ id: 'long', label: 'Long call', contact_number: '+14155551007' }] });
    await s.start({ id: 'run-b', planId: 'plan-1', plan: long, baseUrl: sb.url });
    await waitFor(async () => (await stored('run-b'))?.phase === 'following');
    await s.stop('run-b');
    const done = (await ended('run-b'))!;
    expect(done.stopRequested).toBe(true);
    expect(done.result!.cases[0]!.verdict).toBe('error');
    expect((await batchesNamed(runFileName('run-b')))[0]!.status).toBe('stopped');
  });

  it('a create whose answer was lost is found by its name, not made twice', async () => {
    const run: PlanRun = markAttempt(newRun({ id: 'run-c', planId: 'plan-1', plan: p(), baseUrl: sb.url }, Date.now()));
    // The service made the batch; the worker died before it stored the answer.
    const made = await call(sb.url, 'POST', '/batches', { body: batchForm(AGENT, [{ contact_number: '+14155550401' }]) });
    expect(made.status).toBeLessThan(300);
    const form = new FormData();
    form.append('agent_id', AGENT);
    form.append('file', new Blob([planCsv(run.plan)], { type: 'text/csv' }), runFileName('run-c'));
    expect((await call(sb.url, 'POST', '/batches', { body: form })).status).toBeLessThan(300);
    await planStore.editRuns((runs) => ({ items: upsertRun(runs, run), result: undefined }));
    await service().runDue();
    const after = (await stored('run-c'))!;
    expect(after.createAttempts).toBe(2);
    expect(after.phase).not.toBe('failed');
    expect(await batchesNamed(runFileName('run-c'))).toHaveLength(1);
    expect((await ended('run-c'))!.result!.verdict).toBe('pass');
  });

  it('a create the service refuses fails the run with the service’s message and every case in error', async () => {
    const s = service();
    const unknown = plan({ agent_id: '00000000-0000-4000-8000-000000000000', cases: [{ id: 'a', label: 'A', contact_number: '+14155550401' }] });
    await s.start({ id: 'run-d', planId: 'plan-1', plan: unknown, baseUrl: sb.url });
    const done = (await ended('run-d'))!;
    expect(done.phase).toBe('failed');
    expect(done.lastError).toMatch(/agent/i);
    expect(done.result!.cases[0]!.verdict).toBe('error');
  });

  const scheduleStatuses = async () => {
    const log = await (await fetch(`${sb.url}/__sandbox/requests`)).json();
    return ((Array.isArray(log) ? log : log.requests) as { path: string; status: number }[]).filter((r) => /schedule/.test(r.path)).map((r) => r.status);
  };
  const fault = (body: Record<string, unknown>) => fetch(`${sb.url}/__sandbox/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('a schedule taken by the service whose answer was lost is followed, not refused and not deleted', async () => {
    await fault({ method: 'POST', path: 'schedule', dropAfter: true, count: 10 });
    await service().start({ id: 'run-e', planId: 'plan-1', plan: p(), baseUrl: sb.url });
    const done = (await ended('run-e'))!;
    expect(done.phase).toBe('finished');
    expect(done.result!.verdict).toBe('pass');
    expect(await scheduleStatuses()).toContain(0);
  });

  const requested = async (path: RegExp) => {
    const log = await (await fetch(`${sb.url}/__sandbox/requests`)).json();
    return ((Array.isArray(log) ? log : log.requests) as { path: string }[]).filter((r) => path.test(r.path)).length;
  };
  const setSpeed = (speed: number) => fetch(`${sb.url}/__sandbox/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ speed }) });

  it('Stop while the batch is being scheduled (its answer lost) and the network is down: "Stopping…" until the service confirms, then the batch is stopped and nothing rings', async () => {
    await setSpeed(1); // the batch's two minutes are real: nothing may dial during this test
    try {
      // The schedule is held a moment, then taken, and its answer lost.
      await fault({ method: 'POST', path: 'schedule', dropAfter: true, delayMs: 1_500, count: 1 });
      const s = service();
      await s.start({ id: 'run-g', planId: 'plan-1', plan: p(), baseUrl: sb.url });
      await waitFor(async () => ((await stored('run-g'))?.scheduleAttempts === 1 ? true : undefined), { what: 'the schedule to be sent' });
      // Stop is pressed while it is in flight, and the network goes down for every later batch request.
      await s.stop('run-g');
      await fault({ path: '^/batches', drop: true, count: 10_000 });
      await waitFor(async () => ((await requested(/\/stop$/)) >= 2 ? true : undefined), { timeoutMs: 15_000, what: 'the stop tried twice' });
      const meanwhile = (await stored('run-g'))!;
      // Not "stopped", not "nothing was placed": the service has not said so.
      expect(meanwhile).toMatchObject({ stopRequested: true, stopSent: false, result: null });
      expect(isRunActive(meanwhile)).toBe(true);
      // The network comes back: the stop goes through and is confirmed.
      await fetch(`${sb.url}/__sandbox/faults`, { method: 'DELETE' });
      const done = (await waitFor(async () => ((await stored('run-g'))?.result ? stored('run-g') : undefined), { timeoutMs: 20_000, what: 'the run to end' }))!;
      const [made] = await batchesNamed(runFileName('run-g'));
      expect(made?.status).toBe('stopped');
      expect(done.result!.cases.every((c) => c.verdict === 'error')).toBe(true);
      const rows = (await call(sb.url, 'GET', `/batches/${done.batchId}/executions`)).body as { status: string }[];
      expect(rows.filter((r) => !['scheduled', 'stopped', 'prepared'].includes(r.status))).toEqual([]);
    } finally {
      await setSpeed(600);
    }
  });

  it('a schedule the service refuses removes the unscheduled batch and fails the run with the service’s message', async () => {
    await fault({ method: 'POST', path: 'schedule', status: 400, body: { error: 400, message: 'scheduled_at is too soon' }, count: 10 });
    await service().start({ id: 'run-f', planId: 'plan-1', plan: p(), baseUrl: sb.url });
    const done = (await ended('run-f'))!;
    expect(done.phase).toBe('failed');
    expect(done.lastError).toMatch(/too soon/);
    expect(await batchesNamed(runFileName('run-f'))).toEqual([]);
    expect(await scheduleStatuses()).toContain(400);
  });
});
