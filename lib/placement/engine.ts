/**
 * The placement engine: everything that makes the service dial goes through here — a single call (a
 * batch of one row, or `POST /call`), a plan run (a batch of N rows), from the background or from Node.
 * `advancePlacement` performs exactly one step and returns the new state; a shell (the background's
 * services with their alarms, the command line's loop) decides when, one step in flight per placement,
 * and stores the state before and after (`markAttempt` first for the steps that change the service).
 *
 * The rules live here once: one intent, one batch or call (a lost answer is looked up by the
 * placement's name or id before anything is sent again); Stop is done only when the service confirms
 * it; `Retry-After` and backoff; the service's clock. Following is the caller's (one execution, or a
 * batch's list): passed in as `follow`.
 */
import { createStep, removeTwins, scheduleStep, stopBatchStep } from './batch-steps';
import { startStep, stopStartedStep } from './call-steps';
import type { StepEnv, StepResult } from './outcome';
import type { PlacementSpec, PlacementState } from './state';
import { stopPending } from './tracker';

export interface AdvanceEnv<P extends PlacementState> extends StepEnv {
  /** One step of following once the placement is made (finding-execution, tracking). */
  follow(placement: P): Promise<StepResult<P>>;
}

/**
 * The record to store before the step runs, when the step changes the service (create, schedule, POST /call):
 * the attempt is counted first, so after a lost answer or a restart the next try knows to look. Null when nothing needs storing.
 */
export function markAttempt<P extends PlacementState>(p: P): P | null {
  if (p.step === 'finished' || p.failure || p.trackingPaused || stopPending(p)) return null;
  if (p.step === 'starting-call') return { ...p, startAttempts: p.startAttempts + 1 };
  if (p.step === 'creating-batch') return { ...p, createAttempts: p.createAttempts + 1 };
  if (p.step === 'scheduling') return { ...p, scheduleAttempts: p.scheduleAttempts + 1 };
  return null;
}

/** A Stop pressed: stored at once (the UI shows "Stopping…"); the placement's next step performs it. */
export function requestStop<P extends PlacementState>(p: P, now: number): P {
  if (p.step === 'finished' || p.stopRequested) return p;
  return { ...p, stopRequested: true, stopSent: false, trackingPaused: false, nextPollAt: now };
}

/** Retry after a failed step or a paused tracker: continue from where it stopped. */
export function retryPlacement<P extends PlacementState>(p: P, now: number): P {
  if (p.step === 'finished') return p;
  return { ...p, failure: null, trackingPaused: false, consecutiveFailures: 0, failingSince: null, lastError: null, serviceWait: null, nextPollAt: now };
}

/** Performs the placement's current step once. Never throws: failures are written on the state. */
export async function advancePlacement<P extends PlacementState>(p: P, spec: PlacementSpec, env: AdvanceEnv<P>): Promise<StepResult<P>> {
  const { client } = env;
  const result = await runStep(p, spec, env);
  // A create that was retried may have had a twin land late (held in the network past our look):
  // once the placement is over, tidy again. Only after a retried create, so a plain one costs nothing.
  if (spec.via === 'batch' && p.step !== 'finished' && result.call.step === 'finished' && result.call.batchId && result.call.createAttempts > 1) {
    await removeTwins(client, p.agentId, spec.fileName, result.call.batchId, undefined, spec.notOurs);
  }
  // Keep the latest reading of the service's clock for the next schedule (each step may use a new client).
  const offset = client.clockOffset?.();
  return offset === undefined || result.call.clockOffset === offset ? result : { ...result, call: { ...result.call, clockOffset: offset } };
}

function runStep<P extends PlacementState>(p: P, spec: PlacementSpec, env: AdvanceEnv<P>): Promise<StepResult<P>> {
  if (p.step === 'finished') return Promise.resolve({ call: p, changed: [] });
  // A placement that went out as a batch after all (no POST /call) is stopped as a batch.
  if (stopPending(p)) {
    return p.via === 'call' && spec.via === 'call' ? stopStartedStep(p, spec, env) : stopBatchStep(p, asBatch(spec), env);
  }
  if (p.failure) return Promise.resolve({ call: p, changed: [] });
  switch (p.step) {
    case 'starting-call':
      return spec.via === 'call' ? startStep(p, spec, env) : Promise.resolve({ call: { ...p, step: 'creating-batch' as const }, changed: [] });
    case 'creating-batch':
      return createStep(p, asBatch(spec), env);
    case 'scheduling':
      return scheduleStep(p, env, asBatch(spec));
    case 'finding-execution':
    case 'tracking':
      return env.follow(p);
  }
}

/** The batch form of a spec: a `POST /call` placement that fell back to a batch goes out as its fallback. */
const asBatch = (spec: PlacementSpec) => (spec.via === 'batch' ? spec : spec.fallback);
