/**
 * The background's shell around the Batches section's own batches (a contact list the user uploads,
 * scheduled at a time the user picks, stopped or deleted by hand). Each is a placement of N rows without
 * judging, on the one placement engine (lib/placement/): a lost create answer is found by the batch's
 * name before sending again, a schedule is read back before scheduling again, a Stop is done only when
 * the service confirms it (tried again with a backoff, across worker restarts), `Retry-After`, the
 * service's clock. Like PlanRunsService: state in the data store, a timer while the worker lives and an
 * alarm to bring a stopped one back, one step at a time.
 *
 * The section's own choices stay: the batch keeps the user's file name (batches already so named are
 * listed before the first create and never taken for it), and it is scheduled only when the user picks
 * a time (`scheduledAt` on the engine's spec). Following is the batch's own status, read now and then
 * until it is over: the section reads its calls itself.
 */
import type { Batch } from '../api/schemas/batch';
import { z } from '../api/zod';
import { t } from '../i18n';
import { DueTimer } from './due-timer';
import { deleteBatchStep } from '../placement/batch-steps';
import type { PlacementClient } from '../placement/client';
import { advancePlacement, markAttempt, requestStop } from '../placement/engine';
import { pollFailed, succeeded, type DescribeError, type StepResult } from '../placement/outcome';
import { newPlacementState, placementState, type BatchSpec } from '../placement/state';
import { stopPending } from '../placement/tracker';
import { DATA } from '../storage-keys';
import { readRecord, updateRecord } from '../store/data-db';
import { dataReady } from '../store/migrate';
import { describeError } from './describe-error';
import { InputError } from './input-error';
import { originOf, readKeyFor } from './key-store';
import { clientFor, NeedsKeyError, type ServiceClient } from './service';

export const BATCH_PLACEMENTS_ALARM = 'batch-placements';

export const uploadedBatch = placementState.extend({
  baseUrl: z.string(),
  fileName: z.string(),
  /** The cleaned contact list until the batch is made (then dropped: the service holds it). */
  csv: z.string(),
  /** The start the user picked, or null: made, waiting for the user (the schedule step does not run). */
  at: z.string().nullable(),
  notOurs: z.array(z.string()),
});
export type UploadedBatch = z.infer<typeof uploadedBatch>;

/** A batch status that means it will never dial (again). */
const OVER = new Set(['stopped', 'completed', 'failed', 'executed']);
/** How often a batch under way is read (service time; the sandbox's clock may run faster). */
const FOLLOW_MS = 30_000;

const isActive = (r: UploadedBatch) => r.step !== 'finished';
/** Made and waiting for the user's start time: nothing to do until it is picked (or a Stop/Delete). */
const waitingForUser = (r: UploadedBatch) => r.step === 'scheduling' && r.at === null && !r.stopRequested;
const isDue = (r: UploadedBatch, now: number) => isActive(r) && !waitingForUser(r) && r.nextPollAt !== null && r.nextPollAt <= now;
const specOf = (r: UploadedBatch): BatchSpec => ({
  via: 'batch',
  csv: r.csv,
  fileName: r.fileName,
  fromNumber: null,
  ...(r.at ? { scheduledAt: r.at } : {}),
  notOurs: r.notOurs,
});

function readAll(raw: unknown): UploadedBatch[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    const parsed = uploadedBatch.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Following: the batch's status, until it is over. */
async function followBatch(r: UploadedBatch, client: PlacementClient, describe: DescribeError, now: () => number): Promise<StepResult<UploadedBatch>> {
  let batch: Batch;
  try {
    batch = await client.getBatch(r.batchId!);
  } catch (error) {
    const described = describe(error);
    if (described.status === 404) return { call: { ...r, step: 'finished', status: 'deleted', finishedAt: now(), nextPollAt: null }, changed: [] };
    return { call: pollFailed(r, described, now()), changed: [] };
  }
  const seen = succeeded({ ...r, status: batch.status, polls: r.polls + 1 });
  if (OVER.has(batch.status)) return { call: { ...seen, step: 'finished', finishedAt: now(), nextPollAt: null }, changed: [batch.status] };
  const scale = client.timeScale?.() ?? 1;
  return { call: { ...seen, step: 'tracking', nextPollAt: now() + FOLLOW_MS / scale }, changed: [] };
}

/** What a step that the user waits for ended with: the record, or the service's refusal in its words. */
export class BatchStepError extends InputError {
  constructor(message: string) {
    super(message, 'service');
  }
}

type Clock = () => number;

export class BatchPlacementsService {
  private readonly due = new DueTimer(BATCH_PLACEMENTS_ALARM, () => void this.runDue(), () => this.now());
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly now: Clock = Date.now,
    private readonly makeClient: (baseUrl: string, key: string) => ServiceClient = clientFor,
    /** How a create or schedule the user waits for waits out the engine's backoff between its tries. */
    private readonly wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  async all(): Promise<UploadedBatch[]> {
    await dataReady();
    return readAll(await readRecord(DATA.batchPlacements));
  }

  async get(id: string): Promise<UploadedBatch | undefined> {
    return (await this.all()).find((r) => r.id === id);
  }

  /** One read-modify-write of the records. */
  private async edit<R>(change: (records: UploadedBatch[]) => { items: UploadedBatch[] | null; result: R }): Promise<R> {
    await dataReady();
    return updateRecord(DATA.batchPlacements, (stored) => {
      const { items, result } = change(readAll(stored));
      return { next: items ?? undefined, result };
    });
  }

  /** Stores a record over the latest copy: a Stop asked while a step was in flight is kept; a removed record stays removed. */
  private save(r: UploadedBatch, isNew = false): Promise<UploadedBatch | undefined> {
    return this.edit((records) => {
      const latest = records.find((x) => x.id === r.id);
      if (!latest && !isNew) return { items: null, result: undefined };
      let next = r;
      if (latest?.stopRequested && !r.stopRequested && isActive(r)) next = requestStop(r, this.now());
      // A start picked while a step was in flight is kept too.
      if (latest && latest.at !== r.at && latest.at !== null && r.at === null) next = { ...next, at: latest.at };
      const items = latest ? records.map((x) => (x.id === r.id ? next : x)) : [...records, next];
      // Finished records are kept a while for the answer's sake, then dropped: the service's list is the history.
      return { items: items.filter((x) => isActive(x) || (x.finishedAt ?? 0) > this.now() - 3_600_000), result: next };
    });
  }

  private async clientFor(baseUrl: string): Promise<ServiceClient> {
    const record = await readKeyFor(originOf(baseUrl));
    if (!record) throw new NeedsKeyError(baseUrl);
    return this.makeClient(baseUrl, record.key);
  }

  /**
   * The active record that follows this batch; else the upload whose create made it, its answer not in yet
   * (the section lists the batch before then: a Stop or a start picked for it belongs to that upload); else a
   * new record for a batch made elsewhere (or before this version).
   */
  private async recordFor(
    baseUrl: string,
    agentId: string | null,
    batchId: string,
    adopt: (fresh: UploadedBatch) => UploadedBatch,
    reuse: (r: UploadedBatch) => boolean = () => true,
  ): Promise<UploadedBatch> {
    const found = (await this.all()).find((r) => r.baseUrl === baseUrl && r.batchId === batchId && isActive(r) && reuse(r));
    if (found) return found;
    const making = await this.serial(() => this.creatorOf(baseUrl, batchId));
    if (making && reuse(making)) return making;
    const fresh: UploadedBatch = {
      ...newPlacementState({ id: `batch-${batchId}`, agentId: agentId ?? '' }, this.now()),
      baseUrl,
      fileName: '',
      csv: '',
      at: null,
      notOurs: [],
      batchId,
      createAttempts: 1,
    };
    return (await this.save(adopt(fresh), true))!;
  }

  /**
   * The upload whose create made this batch, its answer lost (or not in yet): it takes the batch now, as its
   * own look-up by name would, so one batch never has two records (the other would make a second batch, or
   * follow one the first then deletes). Run between steps, so no create of it is in flight.
   */
  private async creatorOf(baseUrl: string, batchId: string): Promise<UploadedBatch | undefined> {
    const records = (await this.all()).filter((r) => r.baseUrl === baseUrl && isActive(r));
    const known = records.find((r) => r.batchId === batchId);
    if (known) return known;
    const making = records.filter((r) => r.step === 'creating-batch' && !r.batchId && r.createAttempts > 0 && !r.notOurs.includes(batchId));
    if (making.length === 0) return undefined;
    const client = await this.clientFor(baseUrl);
    for (const r of making) {
      const named = (await client.listAgentBatches(r.agentId)).some((b) => b.batch_id === batchId && b.file_name === r.fileName);
      if (named) return this.save({ ...succeeded(r), step: 'scheduling', batchId, csv: '', nextPollAt: this.now() });
    }
    return undefined;
  }

  /** Runs the record's step once (counting a create or schedule before it is sent) and stores the result. */
  private async step(r: UploadedBatch): Promise<UploadedBatch | undefined> {
    // A batch waiting for the user's start has no step: its schedule step would pick the earliest
    // time itself, and the service would dial with no start chosen.
    if (waitingForUser(r)) return r;
    let current = r;
    const counted = markAttempt(r);
    if (counted) {
      const marked = await this.save(counted);
      if (!marked) return undefined;
      current = marked;
    }
    let next: UploadedBatch;
    try {
      const client = await this.clientFor(current.baseUrl);
      ({ call: next } = await advancePlacement(current, specOf(current), { client, describe: describeError, now: this.now, follow: (x) => followBatch(x, client, describeError, this.now) }));
    } catch (error) {
      next = pollFailed(current, describeError(error), this.now());
    }
    if (next.batchId && next.csv) next = { ...next, csv: '' };
    return this.save(next);
  }

  /** Runs the record's steps while `more` holds, waiting the engine's backoff between tries; answers the last state. */
  private async drive(id: string, more: (r: UploadedBatch) => boolean): Promise<UploadedBatch | undefined> {
    for (;;) {
      const r = await this.get(id);
      if (!r || !more(r) || (r.failure && !stopPending(r)) || r.trackingPaused) return r;
      const delay = (r.nextPollAt ?? this.now()) - this.now();
      if (delay > 0) await this.wait(delay);
      await this.serial(async () => {
        const latest = await this.get(id);
        // The timer or the alarm may have run this step meanwhile: the next one waits its turn (a backoff, a
        // Retry-After), and a step that moved the record on (a create the timer finished) is not followed
        // by this caller's.
        if (latest && isActive(latest) && more(latest) && (latest.nextPollAt ?? 0) <= this.now()) await this.step(latest);
      });
    }
  }

  /**
   * Makes the batch from the checked list under the user's file name. Answers once the service made it
   * (after the engine's own tries), or throws the service's refusal; the id is the upload's, so the same
   * upload twice is the same batch.
   */
  async create(input: { id: string; baseUrl: string; agentId: string; fileName: string; csv: string }): Promise<UploadedBatch> {
    let r = await this.get(input.id);
    if (!r) {
      const client = await this.clientFor(input.baseUrl);
      const notOurs = (await client.listAgentBatches(input.agentId)).filter((b) => b.file_name === input.fileName).map((b) => b.batch_id);
      const fresh: UploadedBatch = { ...newPlacementState({ id: input.id, agentId: input.agentId }, this.now()), baseUrl: input.baseUrl, fileName: input.fileName, csv: input.csv, at: null, notOurs };
      r = (await this.save(fresh, true))!;
    }
    const done = (await this.drive(input.id, (x) => x.step === 'creating-batch'))!;
    // Stopped from the list while its answer was not in: the batch is gone, nothing to schedule.
    if (done.step === 'finished') throw new BatchStepError(t('batches_stoppedBeforeScheduled'));
    if (done.batchId) return done;
    // Refused for good: a create that may have been made after all (a lost answer, then a refusal) is removed by the engine's Stop.
    if (done.createAttempts > 1) {
      await this.save(requestStop({ ...done, failure: null }, this.now()));
      void this.runDue();
    } else await this.edit((records) => ({ items: records.filter((x) => x.id !== input.id), result: undefined }));
    throw new BatchStepError(done.failure?.message ?? done.lastError ?? 'The batch was not made.');
  }

  /** Schedules the batch at the user's start; answers once the service took it, or throws its refusal (the batch stays made). */
  async schedule(input: { baseUrl: string; agentId: string | null; batchId: string; at: string }): Promise<UploadedBatch> {
    const r = await this.recordFor(input.baseUrl, input.agentId, input.batchId, (fresh) => ({ ...fresh, step: 'scheduling' }));
    // A new start for a batch already scheduled: scheduled again, as a new request.
    const again = r.step !== 'scheduling' ? { step: 'scheduling' as const, scheduleAttempts: 0 } : {};
    await this.save({ ...r, ...again, at: input.at, failure: null, consecutiveFailures: 0, nextPollAt: this.now() });
    const done = (await this.drive(r.id, (x) => x.step === 'scheduling'))!;
    if (done.step !== 'scheduling') return done;
    // Refused: the batch stays made, waiting for another start.
    await this.save({ ...done, at: null, failure: null, consecutiveFailures: 0, nextPollAt: this.now() });
    throw new BatchStepError(done.failure?.message ?? done.lastError ?? 'The batch was not scheduled.');
  }

  /**
   * Stop: stored at once, then tried. Answers after the first try: the record, stopped (`stopSent`) or
   * still "Stopping…" (tried again with a backoff, across worker restarts, until the service confirms).
   */
  async stop(input: { baseUrl: string; agentId: string | null; batchId: string }): Promise<UploadedBatch> {
    const r = await this.recordFor(input.baseUrl, input.agentId, input.batchId, (fresh) => ({ ...fresh, step: 'tracking', scheduleAttempts: 1 }),
      // A stop already confirmed: asked again, the service is asked again (it answers in its words if there is nothing to stop).
      (x) => !x.stopSent,
    );
    const asked = await this.edit((records) => {
      const latest = records.find((x) => x.id === r.id) ?? r;
      const next = requestStop(latest, this.now());
      return { items: records.map((x) => (x.id === r.id ? next : x)), result: next };
    });
    await this.serial(async () => {
      const latest = await this.get(asked.id);
      if (latest && stopPending(latest)) await this.step(latest);
    });
    void this.runDue();
    return (await this.get(asked.id)) ?? asked;
  }

  /** Delete: the engine's DELETE (a 404 is done); the record goes with it. */
  async remove(input: { baseUrl: string; batchId: string }): Promise<void> {
    await this.serial(async () => {
      await deleteBatchStep(await this.clientFor(input.baseUrl), input.batchId, describeError);
      await this.edit((records) => ({ items: records.filter((x) => !(x.baseUrl === input.baseUrl && x.batchId === input.batchId)), result: undefined }));
    });
  }

  /** Runs every due record's step once, then re-arms. Called by the timer, the alarm and at worker start. */
  runDue(): Promise<void> {
    return this.serial(async () => {
      const due = (await this.all()).filter((r) => isDue(r, this.now()));
      for (const r of due) await this.step(r);
    }).then(() => this.arm());
  }

  /** One timer for the earliest due record, and an alarm while any is active. */
  async arm(): Promise<void> {
    const waiting = (await this.all()).filter((r) => isActive(r) && !waitingForUser(r) && r.nextPollAt !== null);
    await this.due.arm(waiting.length ? Math.min(...waiting.map((r) => r.nextPollAt!)) : null);
  }

  dispose(): void {
    this.due.dispose();
  }

  async idle(): Promise<void> {
    let tail: Promise<unknown>;
    do {
      tail = this.chain;
      await tail;
    } while (tail !== this.chain);
  }
}

let service: BatchPlacementsService | null = null;
/** The worker's one follower of uploaded batches (handlers and the alarm share it). */
export const batchPlacements = () => (service ??= new BatchPlacementsService());
