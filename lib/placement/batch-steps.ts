/**
 * A placement by batch, one step at a time: create the batch (named for the placement), schedule it at
 * the earliest allowed time on the service's clock, and stop it. A failed step is recorded and retried
 * from that same step, so a retry never creates a second batch once one exists.
 *
 * Answers get lost after the service acted (a batch made, a schedule taken), so the steps that change
 * the service are counted before each request (`markAttempt`), and a second try looks first: for the
 * batch by its file name, for the schedule by reading the batch back.
 */
import type { Batch } from '../api/schemas/batch';
import { serviceNow } from '../api/clock';
import { earliestScheduledAt, formatScheduledAt, scheduledAt as checkedScheduledAt, ScheduleError } from '../api/schedule';
import type { PlacementClient } from './client';
import { finishLocally, pollFailed, stopNotConfirmed, succeeded, writeFailed, type DescribeError, type StepEnv, type StepResult } from './outcome';
import type { BatchSpec, PlacementState } from './state';

/** A batch status that means it will never dial (again). */
const OVER = new Set(['stopped', 'completed', 'failed', 'executed']);

export async function createStep<P extends PlacementState>(call: P, spec: BatchSpec, { client, describe, now }: StepEnv): Promise<StepResult<P>> {
  try {
    // An earlier try may have made the batch and lost the answer: find it by its name before making another.
    let batchId: string | undefined;
    let named: Batch[] | undefined;
    if (call.createAttempts > 1) {
      named = await batchesNamed(client, call.agentId, spec.fileName, spec.notOurs);
      batchId = named.find((b) => b.status === 'created')?.batch_id;
    }
    if (!batchId) {
      const created = await client.createBatch({
        agent_id: call.agentId,
        csv: spec.csv,
        file_name: spec.fileName,
        ...(spec.fromNumber ? { from_phone_numbers: [spec.fromNumber] } : {}),
      });
      batchId = created.batch_id;
      named = undefined;
    }
    await removeTwins(client, call.agentId, spec.fileName, batchId, named, spec.notOurs);
    return { call: { ...succeeded(call), step: 'scheduling', batchId, nextPollAt: now() }, changed: [] };
  } catch (error) {
    return { call: writeFailed(call, 'creating-batch', describe(error), now()), changed: [] };
  }
}

const batchesNamed = async (client: PlacementClient, agentId: string, fileName: string, notOurs: readonly string[] = []) =>
  (await client.listAgentBatches(agentId)).filter((b) => b.file_name === fileName && !notOurs.includes(b.batch_id));

/**
 * Other unscheduled batches named for this placement are deleted (they would never dial, but would stay
 * `created` forever): a browser sends a POST again by itself when a reused connection closes before
 * any answer, and the service may have made the first. Best effort: the placement goes on whatever happens here.
 */
export async function removeTwins(client: PlacementClient, agentId: string, fileName: string, keep: string, known?: Batch[], notOurs?: readonly string[]): Promise<void> {
  try {
    const named = known ?? (await batchesNamed(client, agentId, fileName, notOurs));
    for (const twin of named) {
      if (twin.batch_id !== keep && twin.status === 'created') await client.deleteBatch(twin.batch_id).catch(() => undefined);
    }
  } catch {
    // The list is only for tidying up.
  }
}

/** The batch is scheduled (by us now, or by an earlier try whose answer was lost): follow it. */
function followScheduled<P extends PlacementState>(call: P, client: PlacementClient, scheduledAt: string | null, requestAt: number, now: number): StepResult<P> {
  return {
    call: {
      ...succeeded(call),
      step: 'finding-execution',
      scheduledAt,
      scheduledRequestAt: requestAt,
      timeScale: client.timeScale?.() ?? 1,
      status: 'scheduled',
      observed: [...call.observed.filter((o) => o.status !== 'scheduled'), { status: 'scheduled', at: now }],
      nextPollAt: now,
    },
    changed: ['scheduled'],
  };
}

export async function scheduleStep<P extends PlacementState>(call: P, { client, describe, now }: StepEnv, spec?: BatchSpec): Promise<StepResult<P>> {
  try {
    if (call.scheduleAttempts > 1) {
      // An earlier try may have been taken and its answer lost: a batch past `created` is already under way.
      const batch = await client.getBatch(call.batchId!);
      if (batch.status !== 'created') return followScheduled(call, client, batch.scheduled_at ?? call.scheduledAt, now(), now());
    }
    // The earliest allowed time is computed at each try on the service's clock, so it is ≥ 2 min ahead there.
    const requestAt = now();
    const offset = client.clockOffset?.() ?? call.clockOffset;
    const serviceTime = new Date(serviceNow(requestAt, offset));
    let at: string;
    try {
      // A start the user chose must be ≥ 2 min ahead on the service's clock, not only on ours.
      at = spec?.scheduledAt ? checkedScheduledAt(new Date(spec.scheduledAt), serviceTime) : formatScheduledAt(earliestScheduledAt(serviceTime));
    } catch (error) {
      if (!(error instanceof ScheduleError)) throw error;
      return { call: writeFailed(call, 'scheduling', { message: error.message, transient: false }, now()), changed: [] };
    }
    await client.scheduleBatch(call.batchId!, at);
    return followScheduled({ ...call, clockOffset: offset }, client, at, requestAt, now());
  } catch (error) {
    return { call: writeFailed(call, 'scheduling', describe(error), now()), changed: [] };
  }
}

/**
 * A requested Stop of a batch placement, done only when the service confirms it:
 * - nothing was asked of the service: over here;
 * - a create was sent but its answer not seen: the batches named for the placement are looked up and removed;
 * - made but never asked to schedule: the batch is removed (it could not dial) and the placement ends;
 * - a schedule was asked: the batch is stopped; when the service says it is not queued or running, it is
 *   read back — still `created` (a schedule that may yet land): deleted, so a late schedule finds nothing;
 *   over: followed to its end.
 * Anything not confirmed (network trouble, 5xx) keeps the flag and is tried again ("Stopping…").
 */
export async function stopBatchStep<P extends PlacementState>(call: P, spec: BatchSpec, { client, describe, now }: StepEnv): Promise<StepResult<P>> {
  /** The service's word that the batch had already ended (kept as `stopRefused`: there was nothing to stop). */
  let ended: string | null = null;
  try {
    if (!call.batchId) {
      if (call.createAttempts === 0) return finishLocally(call, now());
      // A 404 for the agent's batches: the agent is unknown there, so nothing of this placement was made.
      const named = await batchesNamed(client, call.agentId, spec.fileName, spec.notOurs).catch((error: unknown) => {
        if (describe(error).status === 404) return [];
        throw error;
      });
      const underWay = named.filter((b) => !OVER.has(b.status) && b.status !== 'created');
      if (underWay.length === 0) {
        for (const b of named) if (b.status === 'created') await deleteConfirmed(client, b.batch_id, describe);
        return finishLocally(call, now());
      }
      // Made and under way despite no answer (cannot happen before a schedule; handled all the same): stop it below.
      call = { ...call, batchId: underWay[0]!.batch_id, step: 'finding-execution' };
    }
    if (call.step === 'creating-batch' || (call.step === 'scheduling' && call.scheduleAttempts === 0)) {
      // Never asked to schedule: it cannot dial. Removed so it does not linger as `created`.
      await deleteConfirmed(client, call.batchId!, describe);
      return finishLocally(call, now());
    }
    try {
      await client.stopBatch(call.batchId!);
    } catch (error) {
      // 404 "Batch is not queued or running": never scheduled (a schedule refused, or not landed yet), or already over.
      if (describe(error).status !== 404) throw error;
      ended = describe(error).message;
      const batch = await readBatch(client, call.batchId!, describe);
      if (!batch) return finishLocally(call, now()); // gone: it cannot dial
      if (batch.status === 'created') {
        await deleteConfirmed(client, call.batchId!, describe);
        return finishLocally(call, now());
      }
      if (!OVER.has(batch.status)) throw error; // scheduled between our two requests: stop it again
    }
  } catch (error) {
    const described = describe(error);
    // A refusal that will not pass (the key removed, no access): paused with the reason; the flag stays for a Retry.
    if (!described.transient && described.status !== 404) return { call: { ...pollFailed(call, described, now()) }, changed: [] };
    return { call: stopNotConfirmed(call, described, now()), changed: [] };
  }
  const step = call.step === 'scheduling' ? 'finding-execution' : call.step;
  return { call: { ...succeeded(call), step, stopSent: true, stopRefused: ended, failure: null, trackingPaused: false, nextPollAt: now() }, changed: [] };
}

/** The batch, or null when the service no longer has it (404). */
async function readBatch(client: PlacementClient, batchId: string, describe: DescribeError): Promise<Batch | null> {
  try {
    return await client.getBatch(batchId);
  } catch (error) {
    if (describe(error).status === 404) return null;
    throw error;
  }
}

/** DELETE that counts a 404 (already gone) as done. */
async function deleteConfirmed(client: PlacementClient, batchId: string, describe: DescribeError): Promise<void> {
  try {
    await client.deleteBatch(batchId);
  } catch (error) {
    if (describe(error).status !== 404) throw error;
  }
}

/**
 * The user's Delete of a batch (the Batches section): DELETE, a 404 (already gone) counted as done.
 * Here so that every request that removes a batch is the engine's.
 */
export function deleteBatchStep(client: PlacementClient, batchId: string, describe: DescribeError): Promise<void> {
  return deleteConfirmed(client, batchId, describe);
}
