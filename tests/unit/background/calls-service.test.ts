/**
 * The calls service shell (lib/background/calls-service.ts) with a fake service: one step in flight per
 * call whatever triggers it, Stop at every step, one call per dial id, no call coming back after Forget.
 * The fake service keeps real state (batches, their statuses), so each test asserts what the service saw.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ApiError } from '../../../lib/api/errors';
import { batch as batchSchema, type Batch } from '../../../lib/api/schemas/batch';
import { execution } from '../../../lib/api/schemas/execution';
import { CallsService } from '../../../lib/background/calls-service';
import type { ServiceClient } from '../../../lib/background/service';
import type { CallRecord } from '../../../lib/calls/call-record';
import { batchFileName, newCallRecord, type NewCall } from '../../../lib/calls/dial';
import { writeCalls } from '../../../lib/calls/history';
import { ActiveCallError } from '../../../lib/calls/latest';
import { seedData } from '../ui/helpers';
import { FaultyRequests } from './fake-faults';

// The key store's IndexedDB is not part of this test: the shell only asks whether there is a key.
const key = vi.hoisted(() => ({ value: 'va_test_owner' as string | null }));
vi.mock('../../../lib/background/key-store', () => ({
  originOf: (baseUrl: string) => new URL(baseUrl).origin,
  readKeyFor: async (origin: string) => (key.value ? { origin, key: key.value, remember: true } : null),
}));

const T0 = Date.parse('2026-11-21T12:00:00Z');
const AGENT = 'agent-1';

type Method = 'createBatch' | 'scheduleBatch' | 'stopBatch' | 'getBatch' | 'listBatchExecutions' | 'getExecution' | 'listAgentBatches' | 'deleteBatch';

const httpError = (status: number, message: string) => new ApiError({ kind: 'http', status, message, serviceMessage: message, method: 'POST', path: '/x' });
const lostAnswer = () => new ApiError({ kind: 'network', message: 'Could not reach the service (socket hang up).', method: 'POST', path: '/x' });

/** A small stand-in for the service: batches with statuses, one execution per batch. */
class FakeService extends FaultyRequests<Method> {
  batches = new Map<string, { status: string; file_name: string; agent_id: string }>();
  private next = 1;
  /** The next create is made twice, as when a browser sends a POST again by itself; the answer is the second's. */
  resendNextCreate = false;

  private wire(id: string): Batch {
    const b = this.batches.get(id)!;
    return batchSchema.parse({ batch_id: id, status: b.status, file_name: b.file_name, agent_id: b.agent_id });
  }

  private execStatus(id: string): string {
    const status = this.batches.get(id)!.status;
    return status === 'created' ? 'prepared' : status;
  }

  client(): ServiceClient {
    const after = <T>(method: Method, act: () => T): Promise<T> => this.answer(method, act);
    const fake = {
      baseUrl: 'http://sandbox',
      timeScale: () => 1,
      clockOffset: () => undefined,
      createBatch: (req: { agent_id: string; file_name?: string }) =>
        after('createBatch', () => {
          if (this.resendNextCreate) {
            this.resendNextCreate = false;
            this.batches.set(String(this.next++).padStart(32, '0'), { status: 'created', file_name: req.file_name ?? 'contacts.csv', agent_id: req.agent_id });
          }
          const id = String(this.next++).padStart(32, '0');
          this.batches.set(id, { status: 'created', file_name: req.file_name ?? 'contacts.csv', agent_id: req.agent_id });
          return { batch_id: id };
        }),
      scheduleBatch: (id: string) =>
        after('scheduleBatch', () => {
          const b = this.batches.get(id)!;
          if (b.status !== 'created') throw httpError(400, `batch is ${b.status} and can no longer be scheduled`);
          b.status = 'scheduled';
          return { state: 'scheduled' };
        }),
      stopBatch: (id: string) =>
        after('stopBatch', () => {
          const b = this.batches.get(id)!;
          if (b.status !== 'scheduled' && b.status !== 'running') throw httpError(404, 'Batch is not queued or running');
          b.status = 'stopped';
          return { state: 'stopped' };
        }),
      getBatch: (id: string) => after('getBatch', () => this.wire(id)),
      deleteBatch: (id: string) => after('deleteBatch', () => this.batches.delete(id)),
      listAgentBatches: (agentId: string) => after('listAgentBatches', () => [...this.batches.keys()].map((id) => this.wire(id)).filter((b) => b.agent_id === agentId)),
      listBatchExecutions: (id: string) => after('listBatchExecutions', () => [execution.parse({ id: `e-${id}`, status: this.execStatus(id) })]),
      getExecution: (executionId: string) => after('getExecution', () => execution.parse({ id: executionId, status: this.execStatus(executionId.slice(2)) })),
    };
    return fake as unknown as ServiceClient;
  }

  count(method: Method): number {
    return this.requests.filter((m) => m === method).length;
  }
}

let service: FakeService;
let calls: CallsService;
let clock: number;

const input = (over: Partial<NewCall> = {}): NewCall => ({
  id: 'call-1',
  baseUrl: 'http://sandbox',
  agentId: AGENT,
  agentName: 'Sales',
  toNumber: '+14155552671',
  fromNumber: null,
  variables: {},
  ...over,
});

async function stored(id = 'call-1'): Promise<CallRecord | undefined> {
  return calls.get(id);
}

/** The real timer, taken before beforeEach fakes setTimeout (storage answers on the real event loop). */
const realTimeout = globalThis.setTimeout.bind(globalThis);

/** Lets the shell's promise chains (storage, queues) run. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => realTimeout(r, 20));
};

/** Waits (on the real clock, at most ~4 s) until `condition` holds. */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (await condition()) return;
    await new Promise((r) => realTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

/** Runs the call to where it waits on the service: each due step, as the tracker's timer would. */
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

beforeEach(async () => {
  fakeBrowser.reset();
  // The tracker's own timer is driven by the tests (runDue), never by real time.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  key.value = 'va_test_owner';
  service = new FakeService();
  clock = T0;
  calls = new CallsService(() => clock, () => service.client());
});
afterEach(async () => {
  await calls.idle();
  vi.useRealTimers();
});

describe('one step in flight per call, whatever triggers it', () => {
  it('Retry pressed while the timer and the alarm fire: one create, then one schedule', async () => {
    // A create refused outright (403), so the call waits for Retry.
    service.fail('createBatch', () => httpError(403, 'read-only'));
    await calls.dial(input());
    await calls.idle();
    expect((await stored())!.failure?.step).toBe('creating-batch');

    const held = service.hold('createBatch');
    const retry = calls.retry('call-1');
    // Every other trigger fires while the create is in flight.
    const triggers = [calls.runDue(), calls.runDue()];
    await held.arrived;
    triggers.push(calls.runDue(), vi.runOnlyPendingTimersAsync().then(() => undefined));
    await settle();
    held.release();
    await Promise.all([retry, ...triggers]);
    await runUntil((c) => c.step === 'tracking');
    expect(service.count('createBatch')).toBe(2); // the refused one and the retry
    expect(service.count('scheduleBatch')).toBe(1);
    expect([...service.batches.values()].filter((b) => b.status !== 'created')).toHaveLength(1);
  });

  it('two arms at once (a step ends as the timer fires) leave one timer, not two', async () => {
    // A timer left over ran runDue again; a service left from one test case stepped the next case's call.
    await seedData({ calls: writeCalls([{ ...newCallRecord(input(), clock), nextPollAt: clock + 1_000 }]) });
    await Promise.all([calls.arm(), calls.arm(), calls.arm()]);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('the startup resume of a call whose create was in flight when the worker died finds that batch, makes none', async () => {
    // The worker counted the try, sent the create (the service made the batch), then died.
    service.batches.set('9'.repeat(32), { status: 'created', file_name: batchFileName('call-1'), agent_id: AGENT });
    const call = { ...newCallRecord(input(), T0), createAttempts: 1 };
    await seedData({ calls: writeCalls([call]) });
    await calls.runDue();
    const after = await runUntil((c) => c.step === 'tracking');
    expect(service.count('createBatch')).toBe(0);
    expect(after.batchId).toBe('9'.repeat(32));
    expect(service.batches.get('9'.repeat(32))!.status).toBe('scheduled');
  });

  it('a lost create answer, then the automatic retry: exactly one batch', async () => {
    service.fail('createBatch', lostAnswer, true);
    await calls.dial(input());
    await runUntil((c) => c.step === 'tracking');
    expect(service.batches.size).toBe(1);
    expect(service.count('createBatch')).toBe(1);
    expect(service.count('listAgentBatches')).toBe(1);
  });

  it('a create the browser sent twice by itself: the unscheduled twin is deleted, one batch remains', async () => {
    service.resendNextCreate = true;
    await calls.dial(input());
    await runUntil((c) => c.step === 'tracking');
    expect([...service.batches.values()].map((b) => b.status)).toEqual(['scheduled']);
    expect(service.count('deleteBatch')).toBe(1);
  });

  it('a lost schedule answer: the call is followed, never shown failed, never scheduled twice', async () => {
    service.fail('scheduleBatch', lostAnswer, true);
    await calls.dial(input());
    await calls.idle();
    const seen: (CallRecord | undefined)[] = [];
    const after = await runUntil((c) => {
      seen.push(c);
      return c.step === 'tracking';
    });
    expect(seen.every((c) => !c?.failure)).toBe(true);
    expect(service.count('scheduleBatch')).toBe(1);
    expect(after.status).toBe('scheduled');
  });
});

describe('Stop during each step', () => {
  /** Brings a fresh call to just before `step`'s request, holds that request, presses Stop meanwhile. */
  async function stopDuring(method: Method): Promise<CallRecord> {
    const held = service.hold(method);
    await calls.dial(input());
    // The dial runs the first step; later steps run on the timer (runDue).
    const driving = (async () => {
      for (let i = 0; i < 10 && !service.requests.includes(method); i++) {
        await calls.idle();
        clock += 60_000;
        await calls.runDue();
      }
    })();
    await held.arrived;
    const stop = calls.stop('call-1');
    try {
      // The flag is stored at once: every page shows "Stopping…" while the request is still held.
      await until(async () => (await stored())?.stopRequested === true, 'the Stop flag stored while the request is held');
    } finally {
      held.release();
    }
    await Promise.all([stop, driving]);
    return runUntil((c) => c.step === 'finished');
  }

  it('the Stop a person presses is answered once "Stopping…" is stored, not after the service answered the stop', async () => {
    await calls.dial(input());
    await runUntil((c) => c.step === 'tracking' || c.step === 'finding-execution');
    const held = service.hold('stopBatch');
    const answer = calls.pressStop('call-1');
    // The stop request is sent and held at the service; the person's press is answered meanwhile.
    await held.arrived;
    const flagged = await answer;
    expect(flagged).toMatchObject({ stopRequested: true, step: expect.not.stringMatching(/finished/) });
    held.release();
    const call = await runUntil((c) => c.step === 'finished');
    expect(call.status).toBe('stopped');
    expect(service.count('stopBatch')).toBe(1);
  });

  it('while the batch is being created: it is never scheduled, and the batch made is removed', async () => {
    const call = await stopDuring('createBatch');
    expect(call.status).toBe('stopped');
    expect(service.count('scheduleBatch')).toBe(0);
    expect([...service.batches.values()]).toEqual([]);
  });

  it('while it is being scheduled: the batch is stopped at the service', async () => {
    const call = await stopDuring('scheduleBatch');
    expect(call.status).toBe('stopped');
    expect([...service.batches.values()].map((b) => b.status)).toEqual(['stopped']);
  });

  it('while its execution is being found: the batch is stopped', async () => {
    const call = await stopDuring('listBatchExecutions');
    expect(call.status).toBe('stopped');
    expect([...service.batches.values()].map((b) => b.status)).toEqual(['stopped']);
  });

  it('while it is being tracked: the batch is stopped', async () => {
    const call = await stopDuring('getExecution');
    expect(call.status).toBe('stopped');
    expect([...service.batches.values()].map((b) => b.status)).toEqual(['stopped']);
    expect(service.count('stopBatch')).toBe(1);
  });

  it('a schedule whose answer is lost while Stop waits: the batch that was scheduled is stopped', async () => {
    service.fail('scheduleBatch', lostAnswer, true);
    const call = await stopDuring('scheduleBatch');
    expect(call.status).toBe('stopped');
    expect([...service.batches.values()].map((b) => b.status)).toEqual(['stopped']);
  });
});

describe('one intent, one call', () => {
  it('the same dial id twice (two windows, a double submit) is one call and one batch', async () => {
    const held = service.hold('createBatch');
    const [a, b] = await Promise.all([calls.dial(input()), calls.dial(input())]);
    await held.arrived;
    const c = await calls.dial(input());
    held.release();
    await calls.idle();
    expect(new Set([a.id, b.id, c.id])).toEqual(new Set(['call-1']));
    expect(await calls.list()).toHaveLength(1);
    expect(service.count('createBatch')).toBe(1);
  });

  it('another dial to a number with an active call is refused unless the user chose to call again', async () => {
    await calls.dial(input());
    await expect(calls.dial(input({ id: 'call-2' }))).rejects.toBeInstanceOf(ActiveCallError);
    expect(await calls.list()).toHaveLength(1);
    await calls.dial(input({ id: 'call-2' }), { again: true });
    await calls.idle();
    expect((await calls.list()).map((c) => c.id).sort()).toEqual(['call-1', 'call-2']);
    // Another number is no question.
    await calls.dial(input({ id: 'call-3', toNumber: '+14155550000' }));
    expect(await calls.list()).toHaveLength(3);
  });
});

describe('Forget', () => {
  it('a call forgotten while its step is in flight does not come back when the step ends', async () => {
    await calls.dial(input());
    await runUntil((c) => c.step === 'tracking');
    const held = service.hold('getExecution');
    clock += 60_000;
    const due = calls.runDue();
    await held.arrived;
    await calls.forget('call-1');
    expect(await calls.list()).toEqual([]);
    held.release();
    await due;
    await calls.idle();
    expect(await calls.list()).toEqual([]);
  });
});

describe('Forget, racing a write', () => {
  it('a Forget that lands between a step’s read of the latest record and its write still wins', async () => {
    await calls.dial(input());
    await runUntil((c) => c.step === 'tracking');
    const read = calls.get.bind(calls);
    let forgetting: Promise<void> | undefined;
    vi.spyOn(calls, 'get').mockImplementation(async (id) => {
      const latest = await read(id);
      // The user presses Forget just after the step's commit read the record.
      if (service.count('getExecution') >= 2 && !forgetting) forgetting = calls.forget(id);
      return latest;
    });
    clock += 60_000;
    await calls.runDue();
    await calls.idle();
    await forgetting;
    expect(forgetting).toBeDefined();
    expect(await read('call-1')).toBeUndefined();
  });
});

describe('without a key', () => {
  it('the step pauses with the reason instead of failing silently', async () => {
    key.value = null;
    await calls.dial(input());
    await calls.idle();
    const call = (await stored())!;
    expect(call.trackingPaused).toBe(true);
    expect(call.lastError).toMatch(/needs the key for sandbox/);
    expect(service.requests).toEqual([]);
  });
});
