/**
 * The status tracker's decisions, as pure functions of (call, response, clock). The background's
 * timers and fetches are a thin shell around them (lib/background/calls-service.ts).
 *
 * Polling plan (why): the start time is known, so while waiting we poll rarely and wake just before
 * it; around dialling we poll densely because statuses change within seconds; a live conversation
 * and the finalising phase change rarely, so the interval grows there. That keeps the lag low where
 * changes cluster while spending far fewer requests than a fixed 1.5 s poller.
 */
import type { Execution } from '../api/schemas/execution';
import { isTerminalExecutionStatus } from '../api/status-vocabulary';
import { liveStartTime } from '../api/schedule';
import type { PlacementState } from './state';

export const POLL = {
  /** Around dialling (queued, initiated, ringing), and in the window around an expected start. */
  dense: 500,
  /** Answered call: starts here and grows. */
  inProgress: 1_000,
  inProgressMax: 3_000,
  /** call-disconnected: results arrive minutes later on the live service. */
  finalising: 2_000,
  finalisingMax: 5_000,
  /** Longest sleep while waiting for the start. */
  waitingMax: 60_000,
  /** Poll densely from this long before an expected start. */
  leadIn: 1_500,
  /** …and for this long after it, before easing off (the live service may start later). */
  afterStart: 20_000,
  /** Waiting past every expected start: a steady check. */
  overdue: 5_000,
} as const;

export const FAILURE = {
  baseDelay: 1_000,
  maxDelay: 30_000,
  /** After this long of failing polls the call is marked "tracking paused" with a Retry. */
  pauseAfter: 3 * 60_000,
} as const;

/** Real (local-clock) ms at which a service time happens, given the service clock's offset and speed. */
export function serviceToLocal(call: Pick<PlacementState, 'scheduledRequestAt' | 'timeScale'> & { clockOffset?: number }, serviceMs: number): number {
  const offset = call.clockOffset ?? 0;
  const origin = call.scheduledRequestAt ?? serviceMs - offset;
  return origin + (serviceMs - (origin + offset)) / call.timeScale;
}

/**
 * The moments a call may start, on the local clock: `scheduled_at` itself (the spec) and the next
 * 10-minute mark (the live service rounds up).
 */
export function expectedStarts(call: PlacementState): number[] {
  if (!call.scheduledAt) return [];
  const scheduled = Date.parse(call.scheduledAt);
  if (Number.isNaN(scheduled)) return [];
  const starts = [scheduled, liveStartTime(new Date(scheduled)).getTime()].map((t) => serviceToLocal(call, t));
  return [...new Set(starts)].sort((a, b) => a - b);
}

/** How long the status has been what it is now (ms), from the observed timeline. */
function timeInStatus(call: PlacementState, now: number): number {
  const last = call.observed[call.observed.length - 1];
  return last ? now - last.at : 0;
}

/** Growth from `base` to `max` over time spent in the same status: +base per 10 s. */
function growing(base: number, max: number, elapsed: number): number {
  return Math.min(max, base + Math.floor(elapsed / 10_000) * base);
}

/** Delay (ms) until the next poll of a call that is being followed and has not failed. */
export function nextPollDelay(call: PlacementState, now: number): number {
  const status = call.status ?? 'scheduled';
  if (status === 'in-progress') return growing(POLL.inProgress, POLL.inProgressMax, timeInStatus(call, now));
  if (status === 'call-disconnected') return growing(POLL.finalising, POLL.finalisingMax, timeInStatus(call, now));
  if (status === 'initiated' || status === 'ringing') return POLL.dense;

  // Not yet dialling (prepared, scheduled, queued, rescheduled, or not found yet).
  const starts = expectedStarts(call);
  for (const start of starts) {
    if (now < start - POLL.leadIn) {
      // Sleep until just before the start, but never longer than waitingMax (clocks drift, workers restart).
      return Math.max(POLL.dense, Math.min(POLL.waitingMax, start - POLL.leadIn - now));
    }
    if (now < start + POLL.afterStart) return POLL.dense;
  }
  return status === 'queued' ? POLL.dense : POLL.overdue;
}

export interface ExecutionUpdate<P extends PlacementState = PlacementState> {
  call: P;
  /** Statuses newly observed by this response, in order. */
  changed: string[];
  terminal: boolean;
}

/** Folds one `GET /executions/{id}` answer into the call. */
export function applyExecution<P extends PlacementState>(call: P, execution: Execution, now: number): ExecutionUpdate<P> {
  const status = execution.status;
  const changed = call.status === status ? [] : [status];
  const observed = changed.length ? [...call.observed, { status, at: now }] : call.observed;
  const terminal = isTerminalExecutionStatus(status);
  const next: P = {
    ...call,
    executionId: execution.id,
    status,
    observed,
    execution,
    polls: call.polls + 1,
    consecutiveFailures: 0,
    failingSince: null,
    lastError: null,
    serviceWait: null,
    trackingPaused: false,
    step: terminal ? 'finished' : 'tracking',
    finishedAt: terminal ? (call.finishedAt ?? now) : null,
  };
  next.nextPollAt = terminal ? null : now + nextPollDelay(next, now);
  return { call: next, changed, terminal };
}

/** A poll that failed (network, 429, 5xx): back off, and after a long failure pause with a Retry. */
export function applyPollFailure<P extends PlacementState>(
  call: P,
  error: { message: string; retryAfterMs?: number },
  now: number,
  random: () => number = Math.random,
): P {
  const failures = call.consecutiveFailures + 1;
  const failingSince = call.failingSince ?? now;
  const paused = now - failingSince >= FAILURE.pauseAfter;
  const backoff = Math.min(FAILURE.maxDelay, FAILURE.baseDelay * 2 ** (failures - 1));
  // The service's Retry-After is honoured as sent; our own backoff applies only when it said nothing.
  const delay = error.retryAfterMs ?? backoff / 2 + (random() * backoff) / 2;
  return {
    ...call,
    polls: call.polls + 1,
    consecutiveFailures: failures,
    failingSince,
    lastError: error.message,
    trackingPaused: paused,
    nextPollAt: paused ? null : now + delay,
    serviceWait: !paused && error.retryAfterMs !== undefined ? { askedMs: error.retryAfterMs, until: now + delay } : null,
  };
}

/** Statuses of the happy path that the call passed through without a poll seeing them. */
export function unobservedStatuses(call: Pick<PlacementState, 'observed' | 'status'>, path: readonly string[]): string[] {
  const seen = new Set(call.observed.map((o) => o.status));
  const lastIndex = Math.max(...call.observed.map((o) => path.indexOf(o.status)), -1);
  return path.slice(0, lastIndex + 1).filter((s) => !seen.has(s));
}

/** A Stop was pressed and has not reached the service yet. */
export function stopPending(call: Pick<PlacementState, 'step' | 'stopRequested' | 'stopSent'>): boolean {
  return call.step !== 'finished' && call.stopRequested && !call.stopSent;
}

/** The call is still being followed (needs a timer or an alarm); a pending Stop is followed even after a failed step. */
export function isActive(call: PlacementState): boolean {
  return call.step !== 'finished' && !call.trackingPaused && (!call.failure || stopPending(call));
}
