/**
 * What every step of a placement shares: how a step's failure is recorded and retried, how an
 * execution is read into the placement, and a placement ended here without the service. Pure, like
 * the steps themselves; generic over the record that carries the placement (a call, a plan run).
 */
import type { Execution } from '../api/schemas/execution';
import type { PlacementClient } from './client';
import type { PlacementState, PlacementStep } from './state';
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

/** What every step works with: the service, how its errors read, the clock, and the executions other placements own. */
export interface StepEnv {
  client: PlacementClient;
  describe: DescribeError;
  now: () => number;
  /** Executions other placements own: never adopted by a lookup. */
  owned?: ReadonlySet<string>;
}

export interface StepResult<P extends PlacementState> {
  call: P;
  /** Statuses newly observed (for notifications and the badge). */
  changed: string[];
}

function failStep<P extends PlacementState>(call: P, step: PlacementStep, error: StepError, now: number): P {
  return {
    ...call,
    failure: { step, message: error.message, status: error.status, at: now },
    nextPollAt: null,
    lastError: error.message,
    serviceWait: null,
  };
}

/** A step went through: no failure streak, no wait. */
export function succeeded<P extends PlacementState>(call: P): P {
  return { ...call, consecutiveFailures: 0, failingSince: null, lastError: null, serviceWait: null };
}

/**
 * A create or schedule refused for a passing reason tries again by itself (the next try looks before
 * acting, so nothing is made twice): after the wait the service asked for, else a backoff. A refusal
 * that will not pass (4xx), or too many tries, is shown with a Retry.
 */
export function writeFailed<P extends PlacementState>(call: P, step: PlacementStep, error: StepError, now: number, random: () => number = Math.random): P {
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

export async function pollExecution<P extends PlacementState>(
  call: P,
  client: { getExecution(executionId: string): Promise<Execution> },
  describe: DescribeError,
  now: () => number,
): Promise<StepResult<P>> {
  try {
    const execution = await client.getExecution(call.executionId!);
    const { call: next, changed } = applyExecution(call, execution, now());
    return { call: next, changed };
  } catch (error) {
    return { call: pollFailed(call, describe(error), now()), changed: [] };
  }
}

export function pollFailed<P extends PlacementState>(call: P, error: StepError, now: number): P {
  if (!error.transient) {
    // A 4xx while following (the batch or execution vanished, the key was removed): pause with the reason.
    return { ...call, trackingPaused: true, lastError: error.message, nextPollAt: null, polls: call.polls + 1 };
  }
  return applyPollFailure(call, error, now);
}

/**
 * A stop that still needs the service (a request failed for a passing reason, or the answer is not
 * in yet): the flag stays, "Stopping…" is shown, and the next step tries again after a backoff. It
 * never pauses: a stop is tried until the service confirms it, across worker restarts.
 */
export function stopNotConfirmed<P extends PlacementState>(call: P, error: StepError, now: number): P {
  const next = applyPollFailure(call, error, now);
  return { ...next, trackingPaused: false, nextPollAt: next.nextPollAt ?? now + FAILURE.maxDelay };
}

/** A placement ended without anything dialled (nothing was placed, or what was made was removed): it is over, `stopped`. */
export function finishLocally<P extends PlacementState>(call: P, at: number): StepResult<P> {
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
