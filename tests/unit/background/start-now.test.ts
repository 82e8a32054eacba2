/**
 * The calls service (lib/background/calls-service.ts) placing calls at once with `POST /call`: the call
 * follows its execution directly; a service without the route gets the single-call batch instead; the
 * batch path's guarantees hold on this path too: one intent is one call (also after a lost answer),
 * and Stop at every step stops what the service placed. The fake service keeps real state.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { CallsService } from '../../../lib/background/calls-service';
import type { CallRecord } from '../../../lib/calls/call-record';
import { newCallRecord, type NewCall } from '../../../lib/calls/dial';
import { writeCalls } from '../../../lib/calls/history';
import { seedData } from '../ui/helpers';
import { AGENT, FakeService, httpError, lostAnswer, TO } from './start-now-fake';
import { LOOKUP_MAX_PAGES } from '../../../lib/placement/call-steps';

const key = vi.hoisted(() => ({ value: 'va_test_owner' as string | null }));
vi.mock('../../../lib/background/key-store', () => ({
  originOf: (baseUrl: string) => new URL(baseUrl).origin,
  readKeyFor: async (origin: string) => (key.value ? { origin, key: key.value, remember: true } : null),
}));

const T0 = Date.parse('2026-11-21T12:00:00Z');

let service: FakeService;
let calls: CallsService;
let clock: number;

const input = (over: Partial<NewCall> = {}): NewCall => ({
  id: 'call-1',
  baseUrl: 'http://sandbox',
  agentId: AGENT,
  agentName: 'Sales',
  toNumber: TO,
  fromNumber: null,
  variables: { name: 'Ada' },
  via: 'call',
  ...over,
});

const stored = (id = 'call-1'): Promise<CallRecord | undefined> => calls.get(id);
const realTimeout = globalThis.setTimeout.bind(globalThis);

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (await condition()) return;
    await new Promise((r) => realTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

/** Runs the call's due steps, as the tracker's timer would, until `predicate` holds. */
async function runUntil(predicate: (call: CallRecord) => boolean, id = 'call-1'): Promise<CallRecord> {
  for (let i = 0; i < 20; i++) {
    await calls.idle();
    const call = await stored(id);
    if (call && predicate(call)) return call;
    clock += 60_000;
    await calls.runDue();
  }
  throw new Error(`the call never reached the expected state: ${JSON.stringify(await stored(id))}`);
}

/** The service moves its only immediate call to `status`. */
function serviceMoves(status: string): void {
  for (const e of service.placed()) e.status = status;
}

beforeEach(() => {
  fakeBrowser.reset();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  key.value = 'va_test_owner';
  clock = T0;
  service = new FakeService(() => clock);
  calls = new CallsService(() => clock, () => service.client());
});
afterEach(async () => {
  await calls.idle();
  vi.useRealTimers();
});

describe('started now', () => {
  it('one POST /call with the call’s number and variables, then the execution is followed directly to its end', async () => {
    const dialled = await calls.dial(input({ fromNumber: '+14155550100' }));
    expect(dialled).toMatchObject({ via: 'call', step: 'starting-call' });
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(tracking).toMatchObject({ via: 'call', executionId: 'exec-1', status: 'queued', batchId: null });
    // The placement's id travels with the variables, so a lost answer finds this call by it.
    expect(service.placed()).toEqual([
      expect.objectContaining({ to_number: TO, agent_id: AGENT, user_data: { name: 'Ada', placement_id: 'call-1' }, from_number: '+14155550100' }),
    ]);
    serviceMoves('completed');
    const done = await runUntil((c) => c.step === 'finished');
    expect(done.status).toBe('completed');
    expect(service.count('startCall')).toBe(1);
    // No batch steps at all.
    expect(service.requests.filter((m) => /Batch/.test(m))).toEqual([]);
  });

  it('the batch stays the default: a call without `via` never uses POST /call', async () => {
    await calls.dial(input({ via: undefined }));
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(tracking.via).toBe('batch');
    expect(service.count('startCall')).toBe(0);
    expect(service.count('createBatch')).toBe(1);
  });
});

describe('a service without POST /call', () => {
  it('the route 404 makes the call go out as a single-call batch, and says so', async () => {
    service.missingRoute = true;
    await calls.dial(input());
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(tracking).toMatchObject({ via: 'batch', failure: null });
    expect(tracking.batchId).not.toBeNull();
    expect(service.count('startCall')).toBe(1);
    expect(service.count('createBatch')).toBe(1);
    expect(service.placed()).toEqual([]);
  });

  it('once known missing for the service, the next call goes straight to the batch (no POST /call)', async () => {
    service.remembered = false;
    await calls.dial(input());
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(tracking.via).toBe('batch');
    expect(service.count('startCall')).toBe(0);
  });

  it('a resource 404 (unknown agent) is not a missing route: the step fails with the service’s message, no batch', async () => {
    service.fail('startCall', () => httpError(404, 'Agent not found'));
    await calls.dial(input());
    const failed = await runUntil((c) => c.failure !== null);
    expect(failed.failure).toMatchObject({ step: 'starting-call', message: 'Agent not found' });
    expect(failed.via).toBe('call');
    expect(service.count('createBatch')).toBe(0);
  });
});

describe('one intent, one call', () => {
  it('the same dial id twice is one call and one POST /call', async () => {
    const held = service.hold('startCall');
    const [a, b] = await Promise.all([calls.dial(input()), calls.dial(input())]);
    await held.arrived;
    const c = await calls.dial(input());
    held.release();
    await calls.idle();
    expect(new Set([a.id, b.id, c.id])).toEqual(new Set(['call-1']));
    expect(service.count('startCall')).toBe(1);
    expect(service.placed()).toHaveLength(1);
  });

  it('a lost answer after the service placed the call: the retry finds that call and places none', async () => {
    service.fail('startCall', lostAnswer, true);
    await calls.dial(input());
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(service.count('startCall')).toBe(1);
    expect(service.count('listAgentExecutions')).toBe(1);
    expect(service.placed()).toHaveLength(1);
    expect(tracking.executionId).toBe(service.placed()[0]!.id);
  });

  it('a lost answer while the agent is busy: the retry reads past the first page of its calls, finds this one, places none', async () => {
    service.fail('startCall', lostAnswer, true);
    await calls.dial(input());
    // 70 calls to other numbers land after ours (a plan run on the same agent): ours is on the second page of 50.
    for (let i = 0; i < 70; i++) {
      service.executions.set(`busy-${i}`, { id: `busy-${i}`, agent_id: AGENT, to_number: `+1415555${1000 + i}`, batch_id: null, status: 'queued', created_at: new Date(T0 + 30_000 + i).toISOString() });
    }
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(service.count('startCall')).toBe(1);
    expect(service.count('listAgentExecutions')).toBe(2);
    expect(service.placed().filter((e) => e.to_number === TO)).toHaveLength(1);
    expect(tracking.executionId).toBe(service.placed().find((e) => e.to_number === TO)!.id);
  });

  it('a lost answer at a service whose clock runs fast (the sandbox at speed 60): the look spans the service’s time, finds this call, places none', async () => {
    service.speed = 60;
    service.fail('startCall', lostAnswer, true);
    await calls.dial(input());
    // The retry comes a minute later on our clock: an hour on the service's.
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(service.count('startCall')).toBe(1);
    expect(service.placed()).toHaveLength(1);
    expect(tracking.executionId).toBe(service.placed()[0]!.id);
  });

  it('a lookup that cannot read every page of the window says it cannot tell, and sends nothing again', async () => {
    service.fail('startCall', lostAnswer);
    await calls.dial(input());
    for (let i = 0; i < 50 * LOOKUP_MAX_PAGES + 5; i++) {
      service.executions.set(`busy-${i}`, { id: `busy-${i}`, agent_id: AGENT, to_number: `+1415${String(5550000 + i)}`, batch_id: null, status: 'queued', created_at: new Date(T0 + 30_000 + i).toISOString() });
    }
    const stopped = await runUntil((c) => !!c.failure);
    expect(service.count('startCall')).toBe(1);
    expect(service.count('listAgentExecutions')).toBe(LOOKUP_MAX_PAGES);
    expect(stopped.lastError).toMatch(/Nothing was sent again/);
  });

  it('a request that never reached the service: the retry looks, finds nothing, and places the call once', async () => {
    service.fail('startCall', lostAnswer);
    await calls.dial(input());
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(service.count('startCall')).toBe(2);
    expect(service.count('listAgentExecutions')).toBe(1);
    expect(service.placed()).toHaveLength(1);
    expect(tracking.executionId).toBe(service.placed()[0]!.id);
  });

  it('the look ignores calls that are not this one: another number, a batch row, or made before this call', async () => {
    const old = new Date(T0 - 10 * 60_000).toISOString();
    service.executions.set('other-number', { id: 'other-number', agent_id: AGENT, to_number: '+14155550999', batch_id: null, status: 'queued', created_at: new Date(T0).toISOString() });
    service.executions.set('batch-row', { id: 'batch-row', agent_id: AGENT, to_number: TO, batch_id: 'b'.repeat(32), status: 'queued', created_at: new Date(T0).toISOString() });
    service.executions.set('earlier', { id: 'earlier', agent_id: AGENT, to_number: TO, batch_id: null, status: 'completed', created_at: old });
    service.fail('startCall', lostAnswer);
    await calls.dial(input());
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(service.count('startCall')).toBe(2);
    expect(tracking.executionId).toMatch(/^exec-/);
  });

  it('the startup resume of a call whose POST /call was in flight when the worker died finds that call, places none', async () => {
    // The worker counted the try, sent POST /call (the service placed the call), then died.
    service.executions.set('placed', { id: 'placed', agent_id: AGENT, to_number: TO, batch_id: null, status: 'queued', created_at: new Date(T0).toISOString(), user_data: { placement_id: 'call-1' } });
    await seedData({ calls: writeCalls([{ ...newCallRecord(input(), T0), startAttempts: 1 }]) });
    await calls.runDue();
    const tracking = await runUntil((c) => c.step === 'tracking');
    expect(service.count('startCall')).toBe(0);
    expect(tracking.executionId).toBe('placed');
  });
});

describe('an execution belongs to one placement', () => {
  it('two calls to one number within two minutes, the second answer lost: the second finds its own call, not the first', async () => {
    await calls.dial(input({ id: 'first' }));
    const first = await runUntil((c) => c.step === 'tracking', 'first');
    serviceMoves('no-answer');
    await runUntil((c) => c.step === 'finished', 'first');
    clock += 30_000;
    // The service places the second call, and its answer is lost on the way back.
    service.fail('startCall', lostAnswer, true);
    await calls.dial(input({ id: 'second' }), { again: true });
    const second = await runUntil((c) => c.step === 'tracking', 'second');
    expect(second.executionId).not.toBe(first.executionId);
    expect(second.status).toBe('queued');
    expect(service.count('startCall')).toBe(2);
    // Stop acts on the second call, never on the first.
    await calls.stop('second');
    const stopped = await runUntil((c) => c.step === 'finished', 'second');
    expect(stopped.status).toBe('stopped');
    expect(service.executions.get(first.executionId!)!.status).toBe('no-answer');
    expect(service.executions.get(second.executionId!)!.status).toBe('stopped');
  });

  it('a service whose records do not say which call is which: the lookup refuses to guess, says so, and sends nothing again', async () => {
    service.dropsUserData = true;
    service.fail('startCall', lostAnswer, true);
    await calls.dial(input());
    const call = await runUntil((c) => c.failure !== null);
    expect(call.executionId).toBeNull();
    expect(call.failure?.message).toMatch(/does not say which of its calls/);
    expect(service.count('startCall')).toBe(1);
  });

  it('a call another record already follows is never adopted, even with no id to read', async () => {
    service.dropsUserData = true;
    await calls.dial(input({ id: 'first' }));
    const first = await runUntil((c) => c.step === 'tracking', 'first');
    service.fail('startCall', lostAnswer);
    await calls.dial(input({ id: 'second' }), { again: true });
    const second = await runUntil((c) => c.step === 'tracking' || c.failure !== null, 'second');
    // The first call's execution is owned: the second call's lookup skips it and places its own call.
    expect(second.executionId).not.toBe(first.executionId);
    expect(service.count('startCall')).toBe(3);
  });
});

describe('Stop at every step', () => {
  it('before POST /call is sent: the call ends here, nothing is asked of the service', async () => {
    // A call stored, its first step not run yet (e.g. the worker stopped right after the dial).
    await seedData({ calls: writeCalls([newCallRecord(input(), T0)]) });
    const call = await calls.stop('call-1');
    expect(call).toMatchObject({ step: 'finished', status: 'stopped' });
    expect(service.requests).toEqual([]);
  });

  it('while POST /call is in flight: the call it placed is stopped at the service', async () => {
    const held = service.hold('startCall');
    await calls.dial(input());
    await held.arrived;
    const stop = calls.stop('call-1');
    await until(async () => (await stored())?.stopRequested === true, 'the Stop flag stored while POST /call is held');
    held.release();
    await stop;
    const call = await runUntil((c) => c.step === 'finished');
    expect(call.status).toBe('stopped');
    expect(service.placed().map((e) => e.status)).toEqual(['stopped']);
    expect(service.count('stopCall')).toBe(1);
  });

  it('while queued: POST /call/{id}/stop, and the service’s stopped status ends the call', async () => {
    await calls.dial(input());
    await runUntil((c) => c.status === 'queued');
    await calls.stop('call-1');
    const call = await runUntil((c) => c.step === 'finished');
    expect(call.status).toBe('stopped');
    expect(call.stopRefused).toBeNull();
    expect(service.placed().map((e) => e.status)).toEqual(['stopped']);
    expect(service.count('stopBatch')).toBe(0);
  });

  it('after a lost POST /call answer: the call the service placed is found and stopped', async () => {
    service.fail('startCall', lostAnswer, true);
    const held = service.hold('listAgentExecutions');
    await calls.dial(input());
    await calls.idle();
    // The automatic retry is due later; Stop comes first and must find the call to stop it.
    const stop = calls.stop('call-1');
    await held.arrived;
    held.release();
    await stop;
    const call = await runUntil((c) => c.step === 'finished');
    expect(call.status).toBe('stopped');
    expect(service.placed().map((e) => e.status)).toEqual(['stopped']);
    expect(service.count('startCall')).toBe(1);
  });

  it('after a POST /call that placed nothing: the call ends here, nothing to stop', async () => {
    service.fail('startCall', () => httpError(422, 'recipient_phone_number is not an E.164 phone number'));
    await calls.dial(input());
    await runUntil((c) => c.failure !== null);
    const call = await calls.stop('call-1');
    expect(call).toMatchObject({ step: 'finished', status: 'stopped' });
    expect(service.count('stopCall')).toBe(0);
    expect(service.placed()).toEqual([]);
  });

  it('once under way the service refuses: its reason is kept and the call is followed to its end', async () => {
    await calls.dial(input());
    await runUntil((c) => c.status === 'queued');
    serviceMoves('in-progress');
    await runUntil((c) => c.status === 'in-progress');
    await calls.stop('call-1');
    const refused = await runUntil((c) => c.stopRefused !== null);
    expect(refused.stopRefused).toMatch(/only a queued or scheduled call can be stopped/);
    expect(refused.step).not.toBe('finished');
    serviceMoves('completed');
    const done = await runUntil((c) => c.step === 'finished');
    expect(done.status).toBe('completed');
    expect(service.count('stopCall')).toBe(1);
  });
});
