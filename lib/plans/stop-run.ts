/**
 * Stopping a plan's batch, done only when the service says so. The command line's stop (Ctrl-C, a CI
 * cancel, a --max-wait deadline); kept apart from run.ts so the placement engine's stop can take its place.
 *
 *   POST /batches/{id}/stop, then read the batch back:
 *     stopped                     → confirmed
 *     completed / failed          → confirmed: nothing is left to dial
 *     scheduled / running         → not yet: try again
 *   A 404 "not queued or running" → read the batch back:
 *     created                     → never scheduled: DELETE it (a schedule still in flight must not land on it)
 *     (batch not found)           → deleted: confirmed
 *   Network trouble, 5xx, 429     → try again (Retry-After kept), until `waitMs` has passed: then unconfirmed.
 */
import { ApiError, isGenericNotFoundText } from '../api/errors';
import type { Batch } from '../api/schemas/batch';
import type { CallOptions } from '../api/client';

export interface StopClient {
  stopBatch(batchId: string, options?: CallOptions): Promise<unknown>;
  getBatch(batchId: string, options?: CallOptions): Promise<Batch>;
  deleteBatch(batchId: string, options?: CallOptions): Promise<unknown>;
}

/**
 * `stopped`: read back stopped; `deleted`: it was never scheduled and is gone; `ended`: it had already
 * finished (completed or failed); `unconfirmed`: the service did not confirm within the wait.
 */
export type StopState = 'stopped' | 'deleted' | 'ended' | 'unconfirmed';

export interface StopOutcome {
  batchId: string;
  /** The service confirmed that this batch will dial nothing more. */
  confirmed: boolean;
  state: StopState;
  /** When unconfirmed: the last answer or error, as text. */
  lastProblem: string | null;
  /** Requests this stop made. */
  requests: number;
}

export interface StopOptions {
  /** How long to keep trying for a confirmation (default 20 s). */
  waitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const STOP_WAIT_MS = 20_000;

const ENDED = new Set(['completed', 'failed', 'executed']);
const LIVE = new Set(['scheduled', 'running', 'queued']);

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** A 404 that names a resource (not a missing route): its text. */
const resource404 = (e: unknown): string | null =>
  e instanceof ApiError && e.kind === 'http' && e.status === 404 && !isGenericNotFoundText(e.serviceMessage) ? (e.serviceMessage ?? e.message) : null;
/** 404 "Batch is not queued or running": it exists, but there is nothing to stop (created, or ended). */
const isNotLive = (e: unknown) => /not queued or running/i.test(resource404(e) ?? '');
/** 404 "Batch not found": it is gone. */
const isGone = (e: unknown) => {
  const text = resource404(e);
  return text !== null && !isNotLive(e) && /not found/i.test(text);
};

export async function stopBatchConfirmed(client: StopClient, batchId: string, options: StopOptions = {}): Promise<StopOutcome> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = now() + (options.waitMs ?? STOP_WAIT_MS);
  let requests = 0;
  let lastProblem: string | null = null;
  let pause = 250;
  // Each request is bounded by what is left of the wait, whatever the client's own timeout and retries.
  const bounded = (): CallOptions => ({ signal: AbortSignal.timeout(Math.max(1, deadline - now())) });
  const done = (state: Exclude<StopState, 'unconfirmed'>): StopOutcome => ({ batchId, confirmed: true, state, lastProblem: null, requests });

  while (now() < deadline) {
    let retryAfterMs: number | undefined;
    try {
      try {
        requests++;
        await client.stopBatch(batchId, bounded());
      } catch (e) {
        if (isGone(e)) return done('deleted');
        if (!isNotLive(e)) throw e;
      }
      requests++;
      const batch = await client.getBatch(batchId, bounded()).catch((e) => {
        if (isGone(e)) return null;
        throw e;
      });
      if (!batch) return done('deleted');
      if (batch.status === 'stopped') return done('stopped');
      if (ENDED.has(batch.status)) return done('ended');
      if (batch.status === 'created') {
        requests++;
        await client.deleteBatch(batchId, bounded()).catch((e) => {
          if (!isGone(e)) throw e;
        });
        return done('deleted');
      }
      lastProblem = LIVE.has(batch.status) ? `the batch still reads ${batch.status}` : `the batch reads ${batch.status}`;
    } catch (e) {
      lastProblem = describe(e);
      if (e instanceof ApiError) retryAfterMs = e.retryAfterMs;
    }
    const left = deadline - now();
    if (left <= 0) break;
    await sleep(Math.min(left, Math.max(pause, retryAfterMs ?? 0)));
    pause = Math.min(4_000, pause * 2);
  }
  return { batchId, confirmed: false, state: 'unconfirmed', lastProblem, requests };
}
