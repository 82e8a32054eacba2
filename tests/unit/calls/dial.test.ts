import { describe, expect, it } from 'vitest';
import { execution } from '../../../lib/api/schemas/execution';
import { batch } from '../../../lib/api/schemas/batch';
import { advanceCall, newCallRecord, retryCall, stopCall, type DialClient, type StepError } from '../../../lib/calls/dial';
import type { CallRecord } from '../../../lib/calls/call-record';

const T0 = Date.parse('2026-11-21T12:00:00Z');

class Refused extends Error {
  constructor(message: string, readonly status: number, readonly transient = false) {
    super(message);
  }
}
const describe_ = (e: unknown): StepError =>
  e instanceof Refused ? { message: e.message, status: e.status, transient: e.transient } : { message: String(e), transient: true };

function fakeClient(script: Partial<Record<keyof DialClient, (...args: any[]) => Promise<any>>> = {}) {
  const calls: { method: string; args: unknown[] }[] = [];
  const record = (method: string, impl: (...a: any[]) => Promise<any>) => (...args: any[]) => {
    calls.push({ method, args });
    return impl(...args);
  };
  const client: DialClient = {
    createBatch: record('createBatch', script.createBatch ?? (async () => ({ batch_id: 'b'.repeat(32) }))),
    scheduleBatch: record('scheduleBatch', script.scheduleBatch ?? (async () => ({ state: 'scheduled' }))),
    listBatchExecutions: record('listBatchExecutions', script.listBatchExecutions ?? (async () => [execution.parse({ id: 'e1', status: 'scheduled' })])),
    getExecution: record('getExecution', script.getExecution ?? (async () => execution.parse({ id: 'e1', status: 'scheduled' }))),
    getBatch: record('getBatch', script.getBatch ?? (async () => batch.parse({ batch_id: 'b'.repeat(32), status: 'scheduled' }))),
    stopBatch: record('stopBatch', script.stopBatch ?? (async () => ({ state: 'stopped' }))),
    listAgentBatches: record('listAgentBatches', script.listAgentBatches ?? (async () => [])),
    deleteBatch: record('deleteBatch', script.deleteBatch ?? (async () => ({ state: 'deleted' }))),
    // The batch path never places or lists immediate calls.
    startCall: record('startCall', script.startCall ?? (async () => { throw new Error('startCall is not part of the batch path'); })),
    stopCall: record('stopCall', script.stopCall ?? (async () => { throw new Error('stopCall is not part of the batch path'); })),
    listAgentExecutions: record('listAgentExecutions', script.listAgentExecutions ?? (async () => { throw new Error('listAgentExecutions is not part of the batch path'); })),
    timeScale: () => 1,
  };
  return { client, calls };
}

const start = () => newCallRecord({ id: 'c1', baseUrl: 'http://x', agentId: 'agent-1', agentName: 'Sales', toNumber: '+14155552671', fromNumber: '+14155550100', variables: { name: 'Ada, "the" first' } }, T0);

async function runSteps(call: CallRecord, client: DialClient, n: number) {
  let clock = T0;
  for (let i = 0; i < n; i++) call = (await advanceCall(call, client, describe_, () => (clock += 1000))).call;
  return call;
}

describe('dialling through a single-call batch', () => {
  it('creates a one-row CSV batch with the from number, schedules it ≥ 2 min ahead with +00:00, then follows the execution', async () => {
    const { client, calls } = fakeClient();
    const call = await runSteps(start(), client, 3);
    const create = calls.find((c) => c.method === 'createBatch')!.args[0] as { agent_id: string; csv: string; from_phone_numbers: string[] };
    expect(create.agent_id).toBe('agent-1');
    expect(create.csv).toBe('contact_number,name\n+14155552671,"Ada, ""the"" first"\n');
    expect(create.from_phone_numbers).toEqual(['+14155550100']);
    const [batchId, at] = calls.find((c) => c.method === 'scheduleBatch')!.args as [string, string];
    expect(batchId).toBe('b'.repeat(32));
    expect(at).toMatch(/\+00:00$/);
    expect(Date.parse(at) - (T0 + 2000)).toBeGreaterThanOrEqual(120_000);
    expect(call.scheduledAt).toBe(at);
    expect(call.step).toBe('tracking');
    expect(call.executionId).toBe('e1');
    expect(calls.map((c) => c.method)).toEqual(['createBatch', 'listAgentBatches', 'scheduleBatch', 'listBatchExecutions', 'getExecution']);
  });

  it('a refused batch is shown with the service message, and Retry never creates a second batch after one exists', async () => {
    let scheduleAttempts = 0;
    const { client, calls } = fakeClient({
      scheduleBatch: async () => {
        scheduleAttempts++;
        if (scheduleAttempts === 1) throw new Refused('the scheduled time must be at least 2 minutes in the future', 400);
        return { state: 'scheduled' };
      },
    });
    let call = await runSteps(start(), client, 2);
    expect(call.failure).toMatchObject({ step: 'scheduling', status: 400, message: expect.stringContaining('2 minutes') });
    // Further steps do nothing until the user retries.
    call = await runSteps(call, client, 2);
    expect(scheduleAttempts).toBe(1);
    call = await runSteps(retryCall(call, T0), client, 1);
    expect(call.failure).toBeNull();
    expect(call.step).toBe('finding-execution');
    expect(calls.filter((c) => c.method === 'createBatch')).toHaveLength(1);
  });

  it('a failed batch creation keeps the call retryable from creation', async () => {
    let attempts = 0;
    const { client } = fakeClient({
      createBatch: async () => {
        if (attempts++ === 0) throw new Refused('agent_id is required', 400);
        return { batch_id: 'c'.repeat(32) };
      },
    });
    let call = await runSteps(start(), client, 1);
    expect(call.failure?.step).toBe('creating-batch');
    call = await runSteps(retryCall(call, T0), client, 1);
    expect(call.batchId).toBe('c'.repeat(32));
  });

  it('waits for the execution row when the batch has none yet, and ends when the batch failed', async () => {
    const { client } = fakeClient({
      listBatchExecutions: async () => [],
      getBatch: async () => batch.parse({ batch_id: 'b'.repeat(32), status: 'failed' }),
    });
    const call = await runSteps(start(), client, 3);
    expect(call.step).toBe('finished');
    expect(call.status).toBe('failed');
  });

  it('network trouble while following backs off instead of failing the call', async () => {
    const { client } = fakeClient({ getExecution: async () => { throw new TypeError('Failed to fetch'); } });
    const call = await runSteps(start(), client, 3);
    expect(call.failure).toBeNull();
    expect(call.consecutiveFailures).toBe(1);
    expect(call.nextPollAt).not.toBeNull();
  });

  it('Stop stops the batch and keeps following until the service says stopped', async () => {
    const { client, calls } = fakeClient();
    let call = await runSteps(start(), client, 3);
    call = (await stopCall(call, client, describe_, () => T0)).call;
    expect(calls.some((c) => c.method === 'stopBatch')).toBe(true);
    expect(call.stopRequested).toBe(true);
    expect(call.step).toBe('tracking');
  });

  it('Stop before scheduling ends the call locally without any request', async () => {
    const { client, calls } = fakeClient();
    const call = (await stopCall(start(), client, describe_, () => T0)).call;
    expect(call.step).toBe('finished');
    expect(call.status).toBe('stopped');
    expect(calls).toHaveLength(0);
  });

  it('Stop on a batch that already ended (404) reads the final status on the next poll', async () => {
    const { client } = fakeClient({
      stopBatch: async () => {
        throw new Refused('Batch is not queued or running', 404);
      },
      getBatch: async () => batch.parse({ batch_id: 'b'.repeat(32), status: 'completed' }),
    });
    let call = await runSteps(start(), client, 3);
    call = (await stopCall(call, client, describe_, () => T0)).call;
    expect(call.lastError).toBeNull();
    expect(call.nextPollAt).toBe(T0);
  });
});
