import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../lib/calls/call-record';
import { newCallRecord } from '../../../lib/calls/dial';
import { applyExecution, applyPollFailure, expectedStarts, FAILURE, nextPollDelay, POLL, unobservedStatuses } from '../../../lib/placement/tracker';
import { execution } from '../../../lib/api/schemas/execution';

const T0 = Date.parse('2026-11-21T12:00:00Z');

function scheduledCall(overrides: Partial<CallRecord> = {}): CallRecord {
  const base = newCallRecord({ id: 'c1', baseUrl: 'http://x', agentId: 'a', agentName: 'A', toNumber: '+14155552671', fromNumber: null, variables: {} }, T0);
  return {
    ...base,
    step: 'tracking',
    executionId: 'e1',
    batchId: 'b1',
    scheduledAt: '2026-11-21T12:02:15+00:00',
    scheduledRequestAt: T0,
    status: 'scheduled',
    observed: [{ status: 'scheduled', at: T0 }],
    ...overrides,
  };
}

const exec = (status: string, extra: Record<string, unknown> = {}) => execution.parse({ id: 'e1', status, ...extra });

describe('expectedStarts', () => {
  it('gives scheduled_at and the next 10-minute mark on our clock', () => {
    const starts = expectedStarts(scheduledCall());
    expect(starts).toEqual([Date.parse('2026-11-21T12:02:15Z'), Date.parse('2026-11-21T12:10:00Z')]);
  });

  it('compresses the wait by the service clock speed (sandbox --speed)', () => {
    const [first] = expectedStarts(scheduledCall({ timeScale: 60 }));
    expect(first! - T0).toBe(135_000 / 60);
  });
});

describe('nextPollDelay', () => {
  it('sleeps long while the start is far, waking just before it', () => {
    const call = scheduledCall();
    expect(nextPollDelay(call, T0)).toBe(POLL.waitingMax);
    const start = Date.parse('2026-11-21T12:02:15Z');
    expect(nextPollDelay(call, start - 10_000)).toBe(10_000 - POLL.leadIn);
  });

  it('polls densely around the expected start and while dialling or ringing', () => {
    const start = Date.parse('2026-11-21T12:02:15Z');
    expect(nextPollDelay(scheduledCall(), start)).toBe(POLL.dense);
    expect(nextPollDelay(scheduledCall({ status: 'ringing' }), start + 60_000)).toBe(POLL.dense);
    expect(nextPollDelay(scheduledCall({ status: 'initiated' }), start + 60_000)).toBe(POLL.dense);
  });

  it('eases off after a start that did not happen, until the 10-minute mark', () => {
    const start = Date.parse('2026-11-21T12:02:15Z');
    const delay = nextPollDelay(scheduledCall(), start + POLL.afterStart + 1_000);
    expect(delay).toBeGreaterThan(POLL.dense);
    expect(delay).toBeLessThanOrEqual(POLL.waitingMax);
  });

  it('grows the interval during a long conversation and while finalising, within bounds', () => {
    const at = T0 + 500_000;
    const talking = scheduledCall({ status: 'in-progress', observed: [{ status: 'in-progress', at }] });
    expect(nextPollDelay(talking, at)).toBe(POLL.inProgress);
    expect(nextPollDelay(talking, at + 600_000)).toBe(POLL.inProgressMax);
    const finalising = scheduledCall({ status: 'call-disconnected', observed: [{ status: 'call-disconnected', at }] });
    expect(nextPollDelay(finalising, at)).toBe(POLL.finalising);
    expect(nextPollDelay(finalising, at + 600_000)).toBe(POLL.finalisingMax);
  });
});

describe('applyExecution', () => {
  it('records each newly observed status with its time and keeps following', () => {
    const { call, changed, terminal } = applyExecution(scheduledCall(), exec('ringing'), T0 + 1000);
    expect(changed).toEqual(['ringing']);
    expect(terminal).toBe(false);
    expect(call.observed.at(-1)).toEqual({ status: 'ringing', at: T0 + 1000 });
    expect(call.nextPollAt).toBe(T0 + 1000 + POLL.dense);
  });

  it('does not repeat an unchanged status', () => {
    const first = applyExecution(scheduledCall(), exec('ringing'), T0 + 1000).call;
    const second = applyExecution(first, exec('ringing'), T0 + 1500);
    expect(second.changed).toEqual([]);
    expect(second.call.observed).toHaveLength(2);
  });

  it('keeps following through call-disconnected and stops at completed', () => {
    const disconnected = applyExecution(scheduledCall(), exec('call-disconnected'), T0 + 1000);
    expect(disconnected.terminal).toBe(false);
    expect(disconnected.call.step).toBe('tracking');
    const done = applyExecution(disconnected.call, exec('completed', { conversation_duration: 42 }), T0 + 5000);
    expect(done.terminal).toBe(true);
    expect(done.call.step).toBe('finished');
    expect(done.call.nextPollAt).toBeNull();
    expect(done.call.finishedAt).toBe(T0 + 5000);
  });

  it('treats old spellings as the terminal statuses they are', () => {
    expect(applyExecution(scheduledCall(), exec('balance_low'), T0).terminal).toBe(true);
    expect(applyExecution(scheduledCall(), exec('no_answer'), T0).call.status).toBe('no-answer');
  });

  it('treats an unknown status as not terminal', () => {
    expect(applyExecution(scheduledCall(), exec('warming-up'), T0).terminal).toBe(false);
  });
});

describe('applyPollFailure', () => {
  it('backs off exponentially and honours Retry-After', () => {
    let call = scheduledCall();
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      call = applyPollFailure(call, { message: 'down' }, T0 + i, () => 1);
      delays.push(call.nextPollAt! - (T0 + i));
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000]);
    const withRetryAfter = applyPollFailure(scheduledCall(), { message: '429', retryAfterMs: 7_000 }, T0, () => 0);
    expect(withRetryAfter.nextPollAt).toBe(T0 + 7_000);
  });

  it('pauses with the last error after failing for long, never silently', () => {
    let call = applyPollFailure(scheduledCall(), { message: 'network down' }, T0);
    expect(call.trackingPaused).toBe(false);
    call = applyPollFailure(call, { message: 'network down' }, T0 + FAILURE.pauseAfter);
    expect(call.trackingPaused).toBe(true);
    expect(call.lastError).toBe('network down');
    expect(call.nextPollAt).toBeNull();
  });

  it('a successful poll clears the failure state', () => {
    const failing = applyPollFailure(scheduledCall(), { message: 'x' }, T0);
    const ok = applyExecution(failing, exec('queued'), T0 + 10);
    expect(ok.call.consecutiveFailures).toBe(0);
    expect(ok.call.lastError).toBeNull();
  });
});

describe('unobservedStatuses', () => {
  it('names the happy-path statuses skipped between polls', () => {
    const path = ['scheduled', 'queued', 'initiated', 'ringing', 'in-progress', 'call-disconnected', 'completed'];
    const observed = [
      { status: 'scheduled', at: 1 },
      { status: 'ringing', at: 2 },
      { status: 'completed', at: 3 },
    ];
    expect(unobservedStatuses({ observed, status: 'completed' }, path)).toEqual(['queued', 'initiated', 'in-progress', 'call-disconnected']);
  });
});
