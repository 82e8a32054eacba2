// The fault run's judge: comparing the extension's history with the sandbox's truth must catch each
// way a call can go wrong, and say nothing about a clean run.
import { describe, expect, it } from 'vitest';
import { newCallRecord } from '../../../lib/calls/dial';
import type { CallRecord } from '../../../lib/calls/call-record';
import { compareRun, dialPlan, problemLines, requestLabel, stillFollowed, type SandboxBatch, type SandboxTruth } from '../../support/fault-run';
import type { InjectedFault } from '../../support/fault-proxy';

const dials = dialPlan(5);
const batchId = (n: number, copy = 0) => `${String(n).padStart(2, '0')}${copy}`.padEnd(32, 'a');
const execId = (n: number, copy = 0) => `exec-${n}-${copy}`;

function finished(n: number, status = dials[n - 1]!.expected): CallRecord {
  const base = newCallRecord({ id: `call-${n}`, baseUrl: 'http://127.0.0.1:1', agentId: 'a', agentName: 'A', toNumber: dials[n - 1]!.number, fromNumber: null, variables: {} }, 0);
  return { ...base, step: 'finished', batchId: batchId(n), executionId: execId(n), status, nextPollAt: null, finishedAt: 1 };
}

function truthFor(entries: Array<[number, SandboxBatch[]]>): SandboxTruth {
  return { byNumber: new Map(entries.map(([n, b]) => [dials[n - 1]!.number, b])), batchesCreated: entries.length, requests: 0 };
}
const batch = (n: number, status = dials[n - 1]!.expected, copy = 0): SandboxBatch => ({
  batch_id: batchId(n, copy),
  file_name: 'single-call.csv',
  status: 'completed',
  created_at: new Date(Date.UTC(2026, 10, 23, 9, 0, n, copy * 40)).toISOString(),
  executions: [{ id: execId(n, copy), status }],
});
const clean = () => truthFor(dials.map((d) => [d.n, [batch(d.n)]]));

describe('dialPlan', () => {
  it('gives unique numbers whose last four digits pick each outcome in turn', () => {
    const plan = dialPlan(12);
    expect(new Set(plan.map((d) => d.number)).size).toBe(12);
    expect(plan.slice(0, 5).map((d) => [d.number.slice(-4), d.outcome, d.expected])).toEqual([
      ['2671', 'completed', 'completed'],
      ['1001', 'busy', 'busy'],
      ['1002', 'no-answer', 'no-answer'],
      ['1004', 'voicemail', 'completed'],
      ['1006', 'canceled', 'canceled'],
    ]);
    for (const d of plan) expect(d.number).toMatch(/^\+1415\d{7}$/);
  });
});

describe('compareRun', () => {
  it('finds nothing wrong in a clean run', () => {
    const results = compareRun(dials, dials.map((d) => finished(d.n)), clean());
    expect(problemLines(results)).toEqual([]);
    expect(results.every((r) => r.reachedTruth)).toBe(true);
  });

  it('catches a second batch for a dial, and names the faults that touched it', () => {
    const truth = clean();
    truth.byNumber.set(dials[1]!.number, [batch(2), { ...batch(2, 'busy', 1), status: 'created', executions: [{ id: execId(2, 1), status: 'prepared' }] }]);
    const log: InjectedFault[] = [{ kind: 'drop-answer', method: 'POST', path: '/batches', request: 3, label: dials[1]!.number, at: 0 }];
    const lines = problemLines(compareRun(dials, dials.map((d) => finished(d.n)), truth, log));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^dial 2 \(\+1415\d{7}, busy\): 2 batches at the sandbox \(020a{5} completed, 021a{5} created \+40 ms\).*faults on this dial: drop-answer on POST \/batches$/);
  });

  it('catches a dial with no batch, a call missing from history, and one stuck at a failed step', () => {
    const truth = clean();
    truth.byNumber.delete(dials[0]!.number);
    const history = dials.map((d) => finished(d.n)).filter((c) => c.toNumber !== dials[2]!.number);
    history[0] = { ...history[0]!, step: 'creating-batch', batchId: null, status: null, failure: { step: 'creating-batch', message: 'Bad gateway', status: 502, at: 0 } };
    const lines = problemLines(compareRun(dials, history, truth));
    expect(lines).toEqual([
      expect.stringMatching(/^dial 1 .*no batch at the sandbox; stopped at a failed step "creating-batch": Bad gateway$/),
      expect.stringMatching(/^dial 3 .*missing from history$/),
    ]);
  });

  it('catches a status that differs from the sandbox’s, and a sandbox call that never ended', () => {
    const truth = clean();
    truth.byNumber.set(dials[4]!.number, [batch(5, 'scheduled')]);
    const history = dials.map((d) => finished(d.n));
    history[3] = { ...history[3]!, status: 'call-disconnected', step: 'tracking' };
    const results = compareRun(dials, history, truth);
    expect(problemLines(results)).toEqual([
      expect.stringMatching(/^dial 4 .*still at step "tracking"; history says "call-disconnected", the sandbox holds "completed"$/),
      expect.stringMatching(/^dial 5 .*the sandbox holds the non-terminal status "scheduled"$/),
    ]);
    expect(results.map((r) => r.reachedTruth)).toEqual([true, true, true, false, false]);
  });
});

describe('stillFollowed', () => {
  it('waits on calls the extension follows, not on finished ones or ones waiting for the user', () => {
    const history = dials.map((d) => finished(d.n));
    history[0] = { ...history[0]!, step: 'tracking' };
    history[1] = { ...history[1]!, step: 'tracking', trackingPaused: true };
    history[2] = { ...history[2]!, step: 'scheduling', failure: { step: 'scheduling', message: 'x', at: 0 } };
    expect(stillFollowed(dials, history)).toEqual([1]);
  });
});

describe('requestLabel', () => {
  it('names a batch request by the number its CSV calls, a spec-form schedule by its batch id', () => {
    const csv = Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\n\r\ncontact_number\n+14152031004\n');
    expect(requestLabel('POST', '/batches', csv)).toBe('+14152031004');
    const schedule = Buffer.from(`--b\r\nContent-Disposition: form-data; name="batch_id"\r\n\r\n${'f'.repeat(32)}\r\n--b--`);
    expect(requestLabel('POST', '/batches/schedule', schedule)).toBe('f'.repeat(32));
    expect(requestLabel('GET', '/v2/agent/all', Buffer.alloc(0))).toBeUndefined();
  });
});
