// The run's tracker: pure decisions (when to poll the batch's list, what to read in full) and the shell on a fake client.
import { describe, expect, it } from 'vitest';
import { execution, type Execution } from '../../../lib/api/schemas/execution';
import { applyFull, applyList, FOLLOW, isDone, newFollowState, nextListDelay } from '../../../lib/placement/follow-batch';
import { runPlan, type PlanClient, type RunEvent } from '../../../lib/plans/run';
import { POLL } from '../../../lib/placement/tracker';
import { READS_IN_FLIGHT } from '../../../lib/plans/run-step';
import { liveExecution, plan } from './fixtures';

const T0 = Date.parse('2026-11-23T10:00:00Z');
// Scheduled 2 min 15 s ahead; the live service would start at 10:10.
const state0 = () => newFollowState('b'.repeat(32), '2026-11-23T10:02:15+00:00', T0);
const row = (id: string, status: string, to = '+14155550123'): Execution => execution.parse({ id, status, telephony_data: { to_number: to } });

describe('nextListDelay', () => {
  it('sleeps until just before the start (at most a minute at a time), polls densely around it', () => {
    const s = state0();
    expect(nextListDelay(s, T0)).toBe(POLL.waitingMax);
    const start = Date.parse('2026-11-23T10:02:15Z');
    expect(nextListDelay(s, start - 30_000)).toBe(30_000 - POLL.leadIn);
    expect(nextListDelay(s, start)).toBe(FOLLOW.dialling);
    // Not started 20 s after scheduled_at: wait for the live 10-minute mark.
    expect(nextListDelay(s, start + POLL.afterStart + 1)).toBe(POLL.waitingMax);
    expect(nextListDelay(s, Date.parse('2026-11-23T10:10:00Z') + POLL.afterStart + 1)).toBe(POLL.overdue);
  });
  it('a faster service clock (the sandbox) brings the start closer on ours', () => {
    const s = { ...state0(), timeScale: 600 };
    expect(nextListDelay(s, T0)).toBe(FOLLOW.dialling); // 135 s / 600 ≈ 0.2 s away
  });
  it('goes by the most urgent open row: dialling, then talking, then finalising', () => {
    const at = (statuses: string[]) => applyList(state0(), statuses.map((s, i) => row(`e${i}`, s))).state;
    expect(nextListDelay(at(['in-progress', 'ringing', 'completed']), T0)).toBe(FOLLOW.dialling);
    expect(nextListDelay(at(['in-progress', 'call-disconnected']), T0)).toBe(FOLLOW.talking);
    expect(nextListDelay(at(['call-disconnected', 'busy']), T0)).toBe(FOLLOW.finalising);
  });
  it('when the verdict waits only on calls being finalised, the list is read at least every second', () => {
    const at = (statuses: string[]) => applyList(state0(), statuses.map((s, i) => row(`e${i}`, s))).state;
    expect(nextListDelay(at(['call-disconnected', 'completed', 'call-disconnected']), T0)).toBeLessThanOrEqual(1_000);
  });
});

describe('applyList / applyFull / isDone', () => {
  it('reads each terminal execution in full once; call-disconnected is not terminal', () => {
    let { state, toRead } = applyList(state0(), [row('a', 'completed'), row('b', 'call-disconnected'), row('c', 'busy')]);
    expect(toRead).toEqual(['a', 'c']);
    state = applyFull(state, liveExecution({ id: 'a' }));
    state = applyFull(state, row('c', 'busy'));
    expect(isDone(state)).toBe(false);
    ({ state, toRead } = applyList(state, [row('a', 'completed'), row('b', 'completed'), row('c', 'busy')]));
    expect(toRead).toEqual(['b']);
    // The list's trimmed record does not replace the full one already read.
    expect(state.rows.a!.transcript).toBeTruthy();
    state = applyFull(state, row('b', 'completed'));
    expect(isDone(state)).toBe(true);
    expect(state.requests).toEqual({ list: 2, full: 3, batch: 0 });
  });
  it('a full read that is not terminal yet is read again when the list says so', () => {
    const { state } = applyList(state0(), [row('a', 'completed')]);
    const after = applyFull(state, row('a', 'call-disconnected'));
    expect(isDone(after)).toBe(false);
    expect(applyList(after, [row('a', 'completed')]).toRead).toEqual(['a']);
  });
  it('no rows yet is not done', () => {
    expect(isDone(state0())).toBe(false);
  });
});

describe('runPlan on a fake client', () => {
  const p = plan({ cases: [{ id: 'ok', label: 'A', contact_number: '+14155550123', expect: { status: 'completed' } }] });

  function fakeClient(script: Array<() => Execution[]>, extra: Partial<PlanClient> = {}) {
    let clock = T0;
    let stopped = false;
    const calls: string[] = [];
    const client: PlanClient = {
      createBatch: async (req) => (calls.push(`create ${req.csv.split('\n')[0]}`), { batch_id: 'b'.repeat(32) }),
      scheduleBatch: async (_id, at) => (calls.push(`schedule ${typeof at === 'string' ? at : at.toISOString()}`), {}),
      listBatchExecutions: async () => {
        calls.push('list');
        const next = script.shift();
        if (!next) throw new Error('script over');
        return next();
      },
      getExecution: async (id) => (calls.push(`get ${id}`), liveExecution({ id })),
      getBatch: async () => (calls.push('batch'), { batch_id: 'b'.repeat(32), status: stopped ? 'stopped' : 'failed' } as any),
      stopBatch: async () => (calls.push('stop'), (stopped = true), {}),
      deleteBatch: async () => (calls.push('delete'), {}),
      listAgentBatches: async () => (calls.push('batches'), []),
      startCall: async () => {
        throw new Error('a plan run never posts /call');
      },
      stopCall: async () => {
        throw new Error('a plan run never posts /call');
      },
      listAgentExecutions: async () => ({ data: [] }),
      ...extra,
    };
    const options = { now: () => clock, sleep: async (ms: number) => void (clock += ms) };
    return { client, calls, options, elapsed: () => clock - T0 };
  }

  it('one batch, scheduled at the earliest allowed time; the list until terminal; one full read; judged', async () => {
    const f = fakeClient([() => [row('e1', 'scheduled')], () => [row('e1', 'in-progress')], () => [row('e1', 'completed')]]);
    const events: RunEvent[] = [];
    const out = await runPlan(p, f.client, { ...f.options, onEvent: (e) => events.push(e) });
    // After the create, the batches named for the run are listed once (a twin made by a resent POST is removed).
    expect(f.calls).toEqual(['create contact_number,test_case_id', 'batches', 'schedule 2026-11-23T10:02:15+00:00', 'list', 'list', 'list', 'get e1']);
    expect(out.requests).toBe(f.calls.length);
    expect(out.result).toMatchObject({ verdict: 'pass', batchId: 'b'.repeat(32) });
    expect(events.map((e) => e.type)).toEqual(['batch-created', 'scheduled', 'statuses', 'statuses', 'finished', 'statuses']);
  });

  it('calls that end together are read in full several at a time (READS_IN_FLIGHT), each once', async () => {
    // A plan with repeats ends hundreds of calls between two polls: read one after another, the
    // verdict waits for every read in turn (bench/plans.ts prints the lag).
    const ids = Array.from({ length: 40 }, (_, i) => `e${i}`);
    let inFlight = 0;
    let most = 0;
    const read: string[] = [];
    const f = fakeClient([() => ids.map((id) => row(id, 'in-progress')), () => ids.map((id) => row(id, 'completed'))], {
      getExecution: async (id) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        read.push(id);
        return liveExecution({ id });
      },
    });
    await runPlan(p, f.client, f.options);
    expect(most).toBe(READS_IN_FLIGHT);
    expect(READS_IN_FLIGHT).toBeGreaterThan(1);
    expect([...read].sort()).toEqual([...ids].sort());
  });

  it('keeps following through a failed poll, backing off', async () => {
    const f = fakeClient([
      () => {
        throw new Error('network down');
      },
      () => [row('e1', 'completed')],
    ]);
    const events: RunEvent[] = [];
    const out = await runPlan(p, f.client, { ...f.options, onEvent: (e) => events.push(e) });
    expect(events.find((e) => e.type === 'poll-failed')).toMatchObject({ message: 'network down', retryInMs: 2_000 });
    expect(out.result.verdict).toBe('pass');
  });

  it('a batch that ends with no rows ends the run: every case is an error', async () => {
    const f = fakeClient(Array.from({ length: 200 }, () => () => []));
    const out = await runPlan(p, f.client, f.options);
    expect(f.calls.filter((c) => c === 'batch')).toHaveLength(1);
    expect(out.result).toMatchObject({ verdict: 'error', counts: { error: 1 } });
  });

  it('at maxWaitMs stops the batch and judges what it knows: the unfinished case is not finished', async () => {
    const f = fakeClient(Array.from({ length: 500 }, () => () => [row('e1', 'in-progress')]));
    const out = await runPlan(p, f.client, { ...f.options, maxWaitMs: 10 * 60_000 });
    expect(f.calls).toContain('stop');
    expect(out).toMatchObject({ ended: 'deadline', leftRunning: null, stop: { confirmed: true, state: 'stopped' } });
    expect(out.result.cases[0]).toMatchObject({ verdict: 'error', unfinished: 'not-finished', error: expect.stringMatching(/^Not finished: .*\(last status: in-progress\)\.$/) });
    expect(f.elapsed()).toBeLessThanOrEqual(10 * 60_000);
  });
});
