/**
 * Rules for writing a call record while others may write it too (pure; the shell in
 * lib/background/calls-service.ts applies them on the latest stored record).
 */
import type { CallRecord } from './call-record';

/**
 * A step's result, written over the latest stored record. Steps of one call run one at a time, so the
 * only newer facts can come from outside a step: a Stop pressed while the step was in flight, and a
 * notification already sent. Both are kept; a finished call stays finished.
 */
export function mergeOnLatest(latest: CallRecord, next: CallRecord): CallRecord {
  let merged = next;
  if (latest.stopRequested && !merged.stopRequested && merged.step !== 'finished') {
    merged = { ...merged, stopRequested: true, stopSent: latest.stopSent, trackingPaused: false, nextPollAt: latest.nextPollAt ?? merged.nextPollAt };
  }
  if (latest.notified && !merged.notified) merged = { ...merged, notified: true };
  return merged;
}

/** A call to this number that is not over yet (the user is asked before calling it again). */
export function activeCallTo(calls: readonly CallRecord[], toNumber: string, exceptId?: string): CallRecord | undefined {
  return calls.find((c) => c.toNumber === toNumber && c.step !== 'finished' && c.id !== exceptId);
}

export class ActiveCallError extends Error {
  override name = 'ActiveCallError';
  constructor(readonly call: CallRecord) {
    super(`A call to ${call.toNumber} is in progress — call again?`);
  }
}
