/**
 * What every way of dialling shares (the single-call batch of dial.ts, the immediate call of
 * start-now.ts): how a step's failure is recorded and retried, how an execution is read into the
 * call, and a call ended here without the service. Pure, like the steps themselves.
 */
import type { Execution } from '../api/schemas/execution';
import type { CallRecord, DialStep } from './call-record';
import { applyExecution, applyPollFailure, FAILURE } from './tracker';

/** Automatic tries of a create or schedule refused for a passing reason (network, 429, 5xx) before the user is asked. */
export const WRITE_TRIES = 5;

/** What an error says to a person, plus whether it is worth retrying automatically. */
export interface StepError {
  message: string;
  status?: number;
  /** Network trouble, 429 or 5xx: a poll may try again by itself. */
  transient: boolean;
  retryAfterMs?: number;
}
export type DescribeError = (error: unknown) => StepError;

export interface AdvanceResult {
  call: CallRecord;
  /** Statuses newly observed (for notifications and the badge). */
  changed: string[];
}

function failStep(call: CallRecord, step: DialStep, error: StepError, now: number): CallRecord {
  return {
    ...call,
    failure: { step, message: error.message, status: error.status, at: now },
    nextPollAt: null,
    lastError: error.message,
    serviceWait: null,
  };
}

/** A step went through: no failure streak, no wait. */
export function succeeded(call: CallRecord): CallRecord {
  return { ...call, consecutiveFailures: 0, failingSince: null, lastError: null, serviceWait: null };
}

/**
 * A create or schedule refused for a passing reason tries again by itself (the next try looks before
 * acting, so nothing is made twice): after the wait the service asked for, else a backoff. A refusal
 * that will not pass (4xx), or too many tries, is shown with a Retry.
 */
export function writeFailed(call: CallRecord, step: DialStep, error: StepError, now: number, random: () => number = Math.random): CallRecord {
  const failures = call.consecutiveFailures + 1;
  if (!error.transient || failures >= WRITE_TRIES) return { ...failStep(call, step, error, now), consecutiveFailures: 0, failingSince: null };
  const backoff = Math.min(FAILURE.maxDelay, FAILURE.baseDelay * 2 ** (failures - 1));
  const wait = error.retryAfterMs ?? backoff / 2 + (random() * backoff) / 2;
  return {
    ...call,
    consecutiveFailures: failures,
    failingSince: call.failingSince ?? now,
    lastError: error.message,
    nextPollAt: now + wait,
    serviceWait: error.retryAfterMs === undefined ? null : { askedMs: error.retryAfterMs, until: now + wait },
  };
}

export async function pollExecution(
  call: CallRecord,
  client: { getExecution(executionId: string): Promise<Execution> },
  describe: DescribeError,
  now: () => number,
): Promise<AdvanceResult> {
  try {
    const execution = await client.getExecution(call.executionId!);
    const { call: next, changed } = applyExecution(call, execution, now());
    return { call: next, changed };
  } catch (error) {
    return { call: pollFailed(call, describe(error), now()), changed: [] };
  }
}

export function pollFailed(call: CallRecord, error: StepError, now: number): CallRecord {
  if (!error.transient) {
    // A 4xx while following (the batch or execution vanished, the key was removed): pause with the reason.
    return { ...call, trackingPaused: true, lastError: error.message, nextPollAt: null, polls: call.polls + 1 };
  }
  return applyPollFailure(call, error, now);
}

/** A Stop that needs nothing from the service (nothing was placed): the call ends here. */
export function finishLocally(call: CallRecord, at: number): AdvanceResult {
  return {
    call: {
      ...call,
      step: 'finished',
      status: 'stopped',
      observed: [...call.observed, { status: 'stopped', at }],
      finishedAt: at,
      nextPollAt: null,
      failure: null,
      stopSent: true,
      serviceWait: null,
    },
    changed: ['stopped'],
  };
}
