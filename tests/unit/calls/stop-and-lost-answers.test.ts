/**
 * The pure decisions behind "Stop always stops", "One intent, one call" and "the service's own pace":
 * a Stop at every step, a second try after a lost answer, waits the service asks for, and its clock.
 */
import { describe, expect, it } from 'vitest';
import { batch } from '../../../lib/api/schemas/batch';
import { execution } from '../../../lib/api/schemas/execution';
import { clockOffsetFrom } from '../../../lib/api/clock';
import type { CallRecord } from '../../../lib/calls/call-record';
import {
  advanceCall,
  batchFileName,
  markAttempt,
  newCallRecord,
  requestStop,
  retryCall,
  WRITE_TRIES,
  type DialClient,
  type StepError,
} from '../../../lib/calls/dial';
import { activeCallTo, mergeOnLatest } from '../../../lib/calls/latest';
import { applyPollFailure, expectedStarts, isActive } from '../../../lib/placement/tracker';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const BATCH = 'b'.repeat(32);

class Refused extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly transient = false,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
const describe_ = (e: unknown): StepError =>
  e instanceof Refused
    ? { message: e.message, status: e.status, transient: e.transient, retryAfterMs: e.retryAfterMs }
    : { message: String(e), transient: true };

type Script = Partial<Record<keyof DialClient, (...args: any[]) => Promise<any>>>;
function fakeClient(script: Script = {}, offset?: number) {
  const calls: { method: string; args: unknown[] }[] = [];
  const record =
    (method: string, impl: (...a: any[]) => Promise<any>) =>
    (...args: any[]) => {
      calls.push({ method, args });
      return impl(...args);
    };
  const client: DialClient = {
    createBatch: record('createBatch', script.createBatch ?? (async () => ({ batch_id: BATCH }))),
    scheduleBatch: record('scheduleBatch', script.scheduleBatch ?? (async () => ({ state: 'scheduled' }))),
    listBatchExecutions: record('listBatchExecutions', script.listBatchExecutions ?? (async () => [execution.parse({ id: 'e1', status: 'scheduled' })])),
    getExecution: record('getExecution', script.getExecution ?? (async () => execution.parse({ id: 'e1', status: 'scheduled' }))),
    getBatch: record('getBatch', script.getBatch ?? (async () => batch.parse({ batch_id: BATCH, status: 'scheduled' }))),
    stopBatch: record('stopBatch', script.stopBatch ?? (async () => ({ state: 'stopped' }))),
    listAgentBatches: record('listAgentBatches', script.listAgentBatches ?? (async () => [])),
    deleteBatch: record('deleteBatch', script.deleteBatch ?? (async () => ({ state: 'deleted' }))),
    // The batch path never places or lists immediate calls.
    startCall: record('startCall', script.startCall ?? (async () => { throw new Error('startCall is not part of the batch path'); })),
    stopCall: record('stopCall', script.stopCall ?? (async () => { throw new Error('stopCall is not part of the batch path'); })),
    listAgentExecutions: record('listAgentExecutions', script.listAgentExecutions ?? (async () => { throw new Error('listAgentExecutions is not part of the batch path'); })),
    timeScale: () => 1,
    clockOffset: () => offset,
  };
  const methods = () => calls.map((c) => c.method);
  return { client, calls, methods };
}

const fresh = (): CallRecord =>
  newCallRecord({ id: 'c1', baseUrl: 'http://x', agentId: 'agent-1', agentName: 'Sales', toNumber: '+14155552671', fromNumber: null, variables: {} }, T0);

/** The record as the shell has it at each step: attempts counted before a create or schedule. */
const at = (step: CallRecord['step'], over: Partial<CallRecord> = {}): CallRecord => ({
  ...fresh(),
  step,
  createAttempts: 1,
  batchId: step === 'creating-batch' ? null : BATCH,
  scheduleAttempts: step === 'creating-batch' || step === 'scheduling' ? 0 : 1,
  executionId: step === 'tracking' ? 'e1' : null,
  ...over,
});

const step = (call: CallRecord, client: DialClient, now = T0) => advanceCall(call, client, describe_, () => now);

describe('Stop, performed as the call’s next step on the latest record', () => {
  it('before the create was sent: the call ends, nothing is asked of the service', async () => {
    const { client, methods } = fakeClient();
    const { call, changed } = await step(requestStop(at('creating-batch', { createAttempts: 0 }), T0), client);
    expect(call).toMatchObject({ step: 'finished', status: 'stopped', stopSent: true, nextPollAt: null });
    expect(changed).toEqual(['stopped']);
    expect(methods()).toEqual([]);
  });

  it('while the batch is being created (sent, no answer yet): the batches named for the call are looked up; none, so the call ends', async () => {
    const { client, methods } = fakeClient();
    const { call } = await step(requestStop(at('creating-batch', { createAttempts: 1 }), T0), client);
    expect(call).toMatchObject({ step: 'finished', status: 'stopped', stopSent: true, nextPollAt: null });
    expect(methods()).toEqual(['listAgentBatches']);
  });

  it('a create whose answer was lost made a batch: Stop finds it by its name and deletes it', async () => {
    const { client, methods, calls } = fakeClient({
      listAgentBatches: async () => [batch.parse({ batch_id: BATCH, status: 'created', file_name: 'call-c1.csv' })],
    });
    const { call } = await step(requestStop(at('creating-batch', { createAttempts: 1 }), T0), client);
    expect(call).toMatchObject({ step: 'finished', status: 'stopped' });
    expect(methods()).toEqual(['listAgentBatches', 'deleteBatch']);
    expect(calls.filter((c) => c.method === 'deleteBatch').map((c) => c.args)).toEqual([[BATCH]]);
  });

  it('Stop while the look-up cannot reach the service: "Stopping…" stays and is tried again, never "stopped"', async () => {
    const { client } = fakeClient({
      listAgentBatches: async () => {
        throw new Refused('network', 0, true);
      },
    });
    const { call } = await step(requestStop(at('creating-batch', { createAttempts: 1 }), T0), client);
    expect(call).toMatchObject({ step: 'creating-batch', stopRequested: true, stopSent: false, trackingPaused: false });
    expect(call.nextPollAt).toBeGreaterThan(T0);
    expect(isActive(call)).toBe(true);
  });

  it('after the batch was made but before any schedule was sent: the batch is deleted, never scheduled', async () => {
    const { client, methods } = fakeClient();
    const { call } = await step(requestStop(at('scheduling'), T0), client);
    expect(call).toMatchObject({ step: 'finished', status: 'stopped' });
    expect(methods()).toEqual(['deleteBatch']);
    // Nothing can schedule it afterwards: a finished call takes no step, a Retry does nothing.
    expect((await step(retryCall(call, T0), client)).call.step).toBe('finished');
    expect(methods()).toEqual(['deleteBatch']);
  });

  it('a schedule was sent (its answer may be lost): the batch is stopped at the service and the call followed', async () => {
    const { client, methods } = fakeClient();
    const lost = at('scheduling', { scheduleAttempts: 1, failure: { step: 'scheduling', message: 'network', at: T0 } });
    expect(isActive(lost)).toBe(false);
    const stopping = requestStop(lost, T0);
    expect(isActive(stopping)).toBe(true);
    const { call } = await step(stopping, client);
    expect(methods()).toEqual(['stopBatch']);
    expect(call).toMatchObject({ step: 'finding-execution', stopSent: true, failure: null, nextPollAt: T0 });
  });

  it('a schedule was sent but not taken (404 and the batch is still created): ends without ringing', async () => {
    const { client, methods } = fakeClient({
      stopBatch: async () => {
        throw new Refused('Batch is not queued or running', 404);
      },
      getBatch: async () => batch.parse({ batch_id: BATCH, status: 'created' }),
    });
    const { call } = await step(requestStop(at('scheduling', { scheduleAttempts: 1 }), T0), client);
    // Read back as `created` after a schedule that may still land: deleted, so a late schedule finds nothing to dial.
    expect(methods()).toEqual(['stopBatch', 'getBatch', 'deleteBatch']);
    expect(call).toMatchObject({ step: 'finished', status: 'stopped' });
  });

  it('the delete of a batch read back as created fails: not "stopped" yet, and the stop is tried again', async () => {
    const { client, methods } = fakeClient({
      stopBatch: async () => {
        throw new Refused('Batch is not queued or running', 404);
      },
      getBatch: async () => batch.parse({ batch_id: BATCH, status: 'created' }),
      deleteBatch: async () => {
        throw new Refused('Service unavailable', 503, true);
      },
    });
    const { call } = await step(requestStop(at('scheduling', { scheduleAttempts: 1 }), T0), client);
    expect(methods()).toEqual(['stopBatch', 'getBatch', 'deleteBatch']);
    expect(call).toMatchObject({ step: 'scheduling', stopRequested: true, stopSent: false });
    expect(isActive(call)).toBe(true);
  });

  for (const s of ['finding-execution', 'tracking'] as const) {
    it(`while ${s}: stops the batch, then follows until the service says it is over`, async () => {
      const { client, methods } = fakeClient({ getExecution: async () => execution.parse({ id: 'e1', status: 'stopped' }) });
      let { call } = await step(requestStop(at(s), T0), client);
      expect(methods()).toEqual(['stopBatch']);
      expect(call).toMatchObject({ step: s, stopRequested: true, stopSent: true });
      call = (await step(call, client)).call;
      expect(call).toMatchObject({ step: 'finished', status: 'stopped' });
      expect(methods().filter((m) => m === 'stopBatch')).toHaveLength(1);
    });
  }

  it('a stop the service could not take (503) stays pending and is tried again by the next step', async () => {
    let tries = 0;
    const { client, methods } = fakeClient({
      stopBatch: async () => {
        if (tries++ === 0) throw new Refused('Service Unavailable', 503, true);
        return { state: 'stopped' };
      },
    });
    let { call } = await step(requestStop(at('tracking'), T0), client);
    expect(call).toMatchObject({ stopRequested: true, stopSent: false, lastError: 'Service Unavailable' });
    expect(call.nextPollAt).toBeGreaterThan(T0);
    expect(isActive(call)).toBe(true);
    call = (await step(call, client, call.nextPollAt!)).call;
    expect(methods()).toEqual(['stopBatch', 'stopBatch']);
    expect(call.stopSent).toBe(true);
  });

  it('a stop refused outright (403) pauses with the reason; Retry tries the stop again', async () => {
    let tries = 0;
    const { client, methods } = fakeClient({
      stopBatch: async () => {
        if (tries++ === 0) throw new Refused('read-only key', 403);
        return {};
      },
    });
    let { call } = await step(requestStop(at('tracking'), T0), client);
    expect(call).toMatchObject({ trackingPaused: true, stopSent: false, lastError: 'read-only key' });
    expect(isActive(call)).toBe(false);
    call = (await step(retryCall(call, T0), client)).call;
    expect(methods()).toEqual(['stopBatch', 'stopBatch']);
    expect(call.stopSent).toBe(true);
  });
});

describe('a second try after a lost answer looks before acting again', () => {
  it('the first create names the CSV after the call and does not look first', async () => {
    const { client, calls, methods } = fakeClient();
    const call = markAttempt(fresh())!;
    expect(call.createAttempts).toBe(1);
    await step(call, client);
    expect(methods()[0]).toBe('createBatch');
    expect((calls[0]!.args[0] as { file_name: string }).file_name).toBe(batchFileName('c1'));
    expect(batchFileName('c1')).toBe('call-c1.csv');
  });

  it('a later create finds the batch the lost answer made (by file name) and makes none', async () => {
    const { client, methods } = fakeClient({
      listAgentBatches: async () => [
        batch.parse({ batch_id: 'a'.repeat(32), status: 'created', file_name: 'call-other.csv' }),
        batch.parse({ batch_id: 'f'.repeat(32), status: 'created', file_name: 'call-c1.csv' }),
      ],
    });
    const { call } = await step({ ...fresh(), createAttempts: 2 }, client);
    expect(methods()).toEqual(['listAgentBatches']);
    expect(call).toMatchObject({ step: 'scheduling', batchId: 'f'.repeat(32) });
  });

  it('a later create that finds nothing creates', async () => {
    const { client, methods } = fakeClient({ listAgentBatches: async () => [batch.parse({ batch_id: 'a'.repeat(32), status: 'created', file_name: 'contacts.csv' })] });
    const { call } = await step({ ...fresh(), createAttempts: 2 }, client);
    expect(methods()).toEqual(['listAgentBatches', 'createBatch', 'listAgentBatches']);
    expect(call.batchId).toBe(BATCH);
  });

  it('a twin the browser made by sending the create again (still created, named for the call) is deleted; ours and others are kept', async () => {
    const { client, calls } = fakeClient({
      listAgentBatches: async () => [
        batch.parse({ batch_id: BATCH, status: 'created', file_name: 'call-c1.csv' }),
        batch.parse({ batch_id: 't'.repeat(32), status: 'created', file_name: 'call-c1.csv' }),
        batch.parse({ batch_id: 'o'.repeat(32), status: 'created', file_name: 'call-other.csv' }),
      ],
    });
    const { call } = await step(markAttempt(fresh())!, client);
    expect(call).toMatchObject({ step: 'scheduling', batchId: BATCH });
    expect(calls.filter((c) => c.method === 'deleteBatch').map((c) => c.args[0])).toEqual(['t'.repeat(32)]);
  });

  it('tidying up is best effort: a failed list does not fail the create', async () => {
    const { client } = fakeClient({
      listAgentBatches: async () => {
        throw new Refused('Service Unavailable', 503, true);
      },
    });
    const { call } = await step(markAttempt(fresh())!, client);
    expect(call).toMatchObject({ step: 'scheduling', batchId: BATCH, failure: null });
  });

  for (const status of ['scheduled', 'running', 'completed', 'queued', 'stopped']) {
    it(`a later schedule reads the batch first: ${status} is followed, not scheduled again`, async () => {
      const { client, methods } = fakeClient({ getBatch: async () => batch.parse({ batch_id: BATCH, status, scheduled_at: '2026-11-21T12:02:15+00:00' }) });
      const { call } = await step(at('scheduling', { scheduleAttempts: 2 }), client);
      expect(methods()).toEqual(['getBatch']);
      expect(call).toMatchObject({ step: 'finding-execution', status: 'scheduled', scheduledAt: '2026-11-21T12:02:15+00:00', failure: null });
    });
  }

  it('a later schedule of a batch still created schedules it', async () => {
    const { client, methods } = fakeClient({ getBatch: async () => batch.parse({ batch_id: BATCH, status: 'created' }) });
    const { call } = await step(at('scheduling', { scheduleAttempts: 2 }), client);
    expect(methods()).toEqual(['getBatch', 'scheduleBatch']);
    expect(call.step).toBe('finding-execution');
  });

  it('attempts are counted only for the steps that change the service, and not for a call that is stopping or failed', () => {
    expect(markAttempt(at('creating-batch'))?.createAttempts).toBe(2);
    expect(markAttempt(at('scheduling'))?.scheduleAttempts).toBe(1);
    expect(markAttempt(at('tracking'))).toBeNull();
    expect(markAttempt(requestStop(at('scheduling'), T0))).toBeNull();
    expect(markAttempt(at('scheduling', { failure: { step: 'scheduling', message: 'x', at: T0 } }))).toBeNull();
  });
});

describe('the service’s pace: passing refusals of a create or schedule', () => {
  it('Retry-After is honoured as sent and shown; no failure is recorded', async () => {
    const { client } = fakeClient({
      scheduleBatch: async () => {
        throw new Refused('Too many requests', 429, true, 45_000);
      },
    });
    const { call } = await step(at('scheduling', { scheduleAttempts: 1 }), client);
    expect(call.failure).toBeNull();
    expect(call.nextPollAt).toBe(T0 + 45_000);
    expect(call.serviceWait).toEqual({ askedMs: 45_000, until: T0 + 45_000 });
    expect(isActive(call)).toBe(true);
  });

  it('a long Retry-After (10 min) is kept too: the call tries again then', async () => {
    const { client } = fakeClient({
      createBatch: async () => {
        throw new Refused('Too many requests', 429, true, 600_000);
      },
    });
    const { call } = await step(markAttempt(fresh())!, client);
    expect(call).toMatchObject({ nextPollAt: T0 + 600_000, serviceWait: { askedMs: 600_000 }, failure: null });
  });

  it('network trouble and 5xx back off by themselves, then after WRITE_TRIES ask the user', async () => {
    const { client, methods } = fakeClient({
      createBatch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    let call = markAttempt(fresh())!;
    let now = T0;
    for (let i = 1; i < WRITE_TRIES; i++) {
      call = (await step(call, client, now)).call;
      expect(call.failure).toBeNull();
      expect(call.serviceWait).toBeNull();
      expect(call.nextPollAt).toBeGreaterThan(now);
      now = call.nextPollAt!;
      call = markAttempt(call)!;
    }
    call = (await step(call, client, now)).call;
    expect(call.failure).toMatchObject({ step: 'creating-batch' });
    // Each try after the first looked for the batch before creating.
    expect(methods().filter((m) => m === 'listAgentBatches')).toHaveLength(WRITE_TRIES - 1);
  });

  it('a refusal that will not pass (400) is shown at once with a Retry', async () => {
    const { client } = fakeClient({
      scheduleBatch: async () => {
        throw new Refused('the scheduled time must be at least 2 minutes in the future', 400);
      },
    });
    const { call } = await step(at('scheduling', { scheduleAttempts: 1 }), client);
    expect(call.failure).toMatchObject({ step: 'scheduling', status: 400 });
  });

  it('a poll’s Retry-After is honoured as sent, even beyond our own backoff', () => {
    const call = applyPollFailure(at('tracking'), { message: 'slow down', retryAfterMs: 50_000 }, T0, () => 0);
    expect(call.nextPollAt).toBe(T0 + 50_000);
    expect(call.serviceWait).toEqual({ askedMs: 50_000, until: T0 + 50_000 });
    expect(applyPollFailure(at('tracking'), { message: 'x' }, T0, () => 0).serviceWait).toBeNull();
  });
});

describe('the service’s clock', () => {
  it('reads the offset from a Date header', () => {
    expect(clockOffsetFrom('Sat, 21 Nov 2026 12:05:00 GMT', T0)).toBe(300_000);
    expect(clockOffsetFrom(null, T0)).toBeUndefined();
    expect(clockOffsetFrom('not a date', T0)).toBeUndefined();
  });

  for (const [what, offset] of [
    ['5 min slow', 300_000],
    ['5 min fast', -300_000],
  ] as const) {
    it(`a local clock ${what} still schedules ≥ 2 min ahead on the service’s clock, on the first try`, async () => {
      const { client, calls } = fakeClient({}, offset);
      const { call } = await step(at('scheduling', { scheduleAttempts: 1 }), client);
      const sent = calls.find((c) => c.method === 'scheduleBatch')!.args[1] as string;
      const serviceNow = T0 + offset;
      expect(Date.parse(sent) - serviceNow).toBeGreaterThanOrEqual(120_000);
      expect(Date.parse(sent) - serviceNow).toBeLessThan(150_000);
      expect(call.clockOffset).toBe(offset);
      // The countdown is placed back on our clock: the start is ~2 min 15 s from now, locally too.
      expect(expectedStarts(call)[0]! - T0).toBe(Date.parse(sent) - serviceNow);
    });
  }

  it('uses the offset stored on the call when this step’s client has not seen a Date header yet', async () => {
    const { client, calls } = fakeClient({}, undefined);
    await step(at('scheduling', { scheduleAttempts: 1, clockOffset: 300_000 }), client);
    const sent = calls.find((c) => c.method === 'scheduleBatch')!.args[1] as string;
    expect(Date.parse(sent) - (T0 + 300_000)).toBeGreaterThanOrEqual(120_000);
  });

  it('every step keeps the latest offset it saw', async () => {
    const { client } = fakeClient({}, -42_000);
    const { call } = await step(at('tracking'), client);
    expect(call.clockOffset).toBe(-42_000);
  });
});

describe('writing on the latest record', () => {
  it('a step that was in flight keeps a Stop pressed meanwhile; a finished call stays finished', () => {
    const before = at('scheduling', { scheduleAttempts: 1 });
    const stored = requestStop(before, T0 + 5);
    const stepResult: CallRecord = { ...before, step: 'finding-execution', status: 'scheduled', nextPollAt: T0 + 10 };
    const merged = mergeOnLatest(stored, stepResult);
    expect(merged).toMatchObject({ step: 'finding-execution', stopRequested: true, stopSent: false });
    const finished: CallRecord = { ...before, step: 'finished', status: 'completed' };
    expect(mergeOnLatest(stored, finished).stopRequested).toBe(false);
    expect(mergeOnLatest({ ...before, notified: true }, finished).notified).toBe(true);
  });

  it('an active call to the same number is found; finished ones and the call itself are not', () => {
    const calls = [at('tracking', { id: 'a' }), { ...at('tracking', { id: 'b' }), step: 'finished' as const }];
    expect(activeCallTo(calls, '+14155552671')?.id).toBe('a');
    expect(activeCallTo(calls, '+14155552671', 'a')).toBeUndefined();
    expect(activeCallTo(calls, '+14155550000')).toBeUndefined();
  });
});

describe('a twin batch that lands late', () => {
  const ended = async () => execution.parse({ id: 'e1', status: 'completed' });
  const named = (id: string, status: string) => batch.parse({ batch_id: id, status, file_name: batchFileName('c1'), agent_id: 'agent-1' });

  it('after a retried create, the call ending tidies the unscheduled twin named for it, never its own batch', async () => {
    const twin = 't'.repeat(32);
    const { client, calls } = fakeClient({ getExecution: ended, listAgentBatches: async () => [named(BATCH, 'completed'), named(twin, 'created')] });
    const result = await advanceCall(at('tracking', { createAttempts: 2, executionId: 'e1' }), client, describe_, () => T0);
    expect(result.call.step).toBe('finished');
    expect(calls.filter((c) => c.method === 'deleteBatch').map((c) => c.args[0])).toEqual([twin]);
  });

  it('a call whose create went out once costs no extra request when it ends', async () => {
    const { client, methods } = fakeClient({ getExecution: ended });
    await advanceCall(at('tracking', { createAttempts: 1, executionId: 'e1' }), client, describe_, () => T0);
    expect(methods()).toEqual(['getExecution']);
  });
});
