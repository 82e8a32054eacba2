/**
 * One step of a plan's run, shared by its two shells (the background's PlanRunsService with its alarms,
 * and the command line's loop): the placement engine places, looks up and stops the batch; following
 * is one list poll, a full read of each newly finished execution, and the batch when overdue. No
 * browser globals: it runs in the extension and in Node alike.
 */
import type { PlacementClient } from '../placement/client';
import { advancePlacement } from '../placement/engine';
import type { DescribeError, StepResult } from '../placement/outcome';
import {
  afterBatchChecked,
  afterListed,
  afterPoll,
  afterPollFailed,
  afterRead,
  failRun,
  isRunActive,
  needsBatchCheck,
  requestStop,
  runPhase,
  runSpec,
  withFollow,
  type PlanRun,
} from './run-state';

/** Performs the run's current step once and answers the new state. Never throws. */
export async function advanceRun(run: PlanRun, client: PlacementClient, describe: DescribeError, now: () => number): Promise<PlanRun> {
  if (!isRunActive(run)) return run;
  const { call: stepped } = await advancePlacement(run, runSpec(run), { client, describe, now, follow: (r) => followRun(r, client, describe, now) });
  let next = withFollow(stepped, now());
  if (next.failure && !next.stopRequested) {
    const { message, status } = next.failure;
    const abandoned = { message, ...(status ? { status } : {}) };
    // The only create was answered with a refusal: the service made nothing, there is nothing to remove.
    if (next.failure.step === 'creating-batch' && next.createAttempts === 1 && status && status < 500 && status !== 429) {
      return failRun({ ...next, abandoned }, message, now());
    }
    // A create or schedule the service refused: nothing will dial. Whatever was made is removed first
    // (the engine's Stop, confirmed by the service), then the run ends `failed` with the reason.
    next = { ...requestStop({ ...next, failure: null }, now()), abandoned };
  }
  if (next.step === 'finished' && !next.result) {
    // Over before any batch was followed: nothing dialled (a stop confirmed, or an abandoned placement).
    return failRun(next, next.abandoned?.message ?? (next.stopRequested ? stoppedBeforePlaced : next.lastError ?? stoppedBeforePlaced), now());
  }
  return { ...next, phase: next.result ? next.phase : runPhase(next) };
}

export const stoppedBeforePlaced = 'Stopped before any call was placed.';

/** One poll of the batch's list; a stop confirmed, or every row in, ends the run with its verdicts. */
async function followRun(run: PlanRun, client: PlacementClient, describe: DescribeError, now: () => number): Promise<StepResult<PlanRun>> {
  const following = withFollow(run, now());
  try {
    const listed = afterListed(following, await client.listBatchExecutions(following.batchId!));
    let next = listed.run;
    // Many calls can end between two polls (a plan with repeats ends hundreds at once): read them a few
    // at a time, so the verdict is not held up by one read after another.
    for (const execution of await readAll(listed.toRead, (id) => client.getExecution(id))) next = afterRead(next, execution);
    if (needsBatchCheck(next, now())) next = afterBatchChecked(next, (await client.getBatch(following.batchId!)).status);
    return { call: afterPoll(next, now()), changed: [] };
  } catch (error) {
    return { call: afterPollFailed(following, describe(error).message, now()), changed: [] };
  }
}

/**
 * Full reads at once, at most this many in flight (300 calls ending together are read in about 0.4 s
 * against the in-process sandbox, six or ten at a time alike: there the one process is the limit; a
 * remote service answers reads in parallel). On the live service the rate limit (1,000 a minute)
 * paces them whatever this is.
 */
export const READS_IN_FLIGHT = 10;

/** Each id read, in order; the first failure fails the whole (the poll is tried again, as before). */
async function readAll<T>(ids: readonly string[], read: (id: string) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const i = next++;
      out[i] = await read(ids[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, ids.length) }, worker));
  return out;
}
