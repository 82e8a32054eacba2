/**
 * The shell that follows test plan runs in the background: like the call tracker, it wakes up when a
 * run is due (a timer while the worker lives, an alarm to bring a stopped worker back), makes that
 * step's requests and stores the new state (lib/plans/run-state.ts decides everything). State lives in
 * the data store, so a run survives a closed panel and a restarted worker. Steps run one at a time.
 */
import { browser } from '../browser';
import { serviceNow } from '../api/clock';
import { earliestScheduledAt, formatScheduledAt } from '../api/schedule';
import { planCsv } from '../plans/batch';
import {
  afterBatchChecked,
  afterCreated,
  afterListed,
  afterPoll,
  afterPollFailed,
  afterRead,
  afterScheduled,
  failRun,
  finish,
  isRunActive,
  markAttempt,
  needsBatchCheck,
  newRun,
  requestStop,
  runFileName,
  upsertRun,
  type PlanRun,
} from '../plans/run-state';
import { describeError } from './describe-error';
import { originOf, readKeyFor } from './key-store';
import { planStore } from './plan-store';
import { clientFor, NeedsKeyError, type ServiceClient } from './service';

export const PLAN_RUNS_ALARM = 'plan-runs';

type Clock = () => number;
const message = (error: unknown) => describeError(error).message;

/** One step of a run: the requests its phase needs, and the state they lead to. Never throws. */
export async function advanceRun(run: PlanRun, client: ServiceClient, now: Clock): Promise<PlanRun> {
  if (run.stopRequested) return stopStep(run, client, now);
  switch (run.phase) {
    case 'creating':
      try {
        // An earlier try may have made the batch and lost the answer: find it by its name first.
        let batchId: string | undefined;
        if (run.createAttempts > 1) {
          batchId = (await client.listAgentBatches(run.plan.agent_id)).find((b) => b.file_name === runFileName(run.id))?.batch_id;
        }
        batchId ??= (
          await client.createBatch({
            agent_id: run.plan.agent_id,
            csv: planCsv(run.plan),
            file_name: runFileName(run.id),
            ...(run.plan.from_number ? { from_phone_numbers: [run.plan.from_number] } : {}),
          })
        ).batch_id;
        return afterCreated(run, batchId, now());
      } catch (error) {
        // The service may have made it and lost the answer: an unscheduled batch of this run never dials; remove it.
        const named = await client.listAgentBatches(run.plan.agent_id).catch(() => []);
        for (const b of named) if (b.file_name === runFileName(run.id) && b.status === 'created') await client.deleteBatch(b.batch_id).catch(() => undefined);
        return failRun(run, message(error), now());
      }
    case 'scheduling': {
      const followFrom = (scheduledAt: string | null | undefined, requestAt: number, offset: number) =>
        afterScheduled(
          run,
          { scheduledAt: scheduledAt ?? formatScheduledAt(earliestScheduledAt(new Date(serviceNow(requestAt, offset)))), requestAt, timeScale: client.timeScale(), clockOffset: offset },
          now(),
        );
      try {
        if (run.scheduleAttempts > 1) {
          // An earlier try may have been taken and its answer lost: a batch past `created` is under way.
          const batch = await client.getBatch(run.batchId!);
          if (batch.status !== 'created') return followFrom(batch.scheduled_at, now(), client.clockOffset() ?? 0);
        }
        // The single call's rule: the earliest start the service accepts, on the service's clock.
        const requestAt = now();
        const offset = client.clockOffset() ?? 0;
        const at = formatScheduledAt(earliestScheduledAt(new Date(serviceNow(requestAt, offset))));
        await client.scheduleBatch(run.batchId!, at);
        return followFrom(at, requestAt, offset);
      } catch (error) {
        // Taken despite the error (a lost answer): follow it. Refused: remove the batch so it never starts.
        // Unknown (the service unreachable): try again later, never leaving calls unfollowed.
        const batch = await client.getBatch(run.batchId!).catch(() => null);
        if (!batch) return afterPollFailed(run, message(error), now());
        if (batch.status !== 'created') return followFrom(batch.scheduled_at, now(), client.clockOffset() ?? 0);
        await client.deleteBatch(run.batchId!).catch(() => undefined);
        return failRun(run, message(error), now());
      }
    }
    case 'following':
      try {
        return afterPoll(await poll(run, client, now), now());
      } catch (error) {
        return afterPollFailed(run, message(error), now());
      }
    default:
      return run;
  }
}

/** One list of the batch's executions, a full read of each newly finished one, and the batch when overdue. */
async function poll(run: PlanRun, client: ServiceClient, now: Clock): Promise<PlanRun> {
  const listed = afterListed(run, await client.listBatchExecutions(run.batchId!));
  let next = listed.run;
  for (const id of listed.toRead) next = afterRead(next, await client.getExecution(id));
  if (needsBatchCheck(next, now())) next = afterBatchChecked(next, (await client.getBatch(run.batchId!)).status);
  return next;
}

async function stopStep(run: PlanRun, client: ServiceClient, now: Clock): Promise<PlanRun> {
  if (run.phase !== 'following') {
    // Not followed yet: the batch (if any) is stopped, in case a schedule went through, and removed.
    if (run.batchId) {
      await client.stopBatch(run.batchId).catch(() => undefined);
      await client.deleteBatch(run.batchId).catch(() => undefined);
    }
    return failRun(run, 'Stopped before any call was placed.', now());
  }
  try {
    await client.stopBatch(run.batchId!);
  } catch (error) {
    return afterPollFailed(run, `The batch could not be stopped: ${message(error)}`, now());
  }
  try {
    return finish(await poll(run, client, now), now());
  } catch {
    // The batch is stopped; what was read before is judged.
    return finish(run, now());
  }
}

export class PlanRunsService {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Every step and change runs behind the previous one. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly now: Clock = Date.now,
    private readonly makeClient: (baseUrl: string, key: string) => ServiceClient = clientFor,
  ) {}

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Stores a run over the latest copy: a Stop asked while a step was in flight is kept; a deleted run stays deleted. */
  private save(run: PlanRun, isNew = false): Promise<PlanRun | undefined> {
    return planStore.editRuns((runs) => {
      const latest = runs.find((r) => r.id === run.id);
      if (!latest && !isNew) return { items: null, result: undefined };
      const next = latest?.stopRequested && isRunActive(run) ? { ...run, stopRequested: true, nextPollAt: this.now() } : run;
      return { items: upsertRun(runs, next), result: next };
    }, this.now());
  }

  /** Starts a run under the id the UI chose when the user confirmed: the same id twice is the same run. */
  async start(input: { id: string; planId: string; plan: PlanRun['plan']; baseUrl: string }): Promise<PlanRun> {
    const run = await this.serial(async () => {
      const existing = (await planStore.runs()).find((r) => r.id === input.id);
      return existing ?? (await this.save(newRun(input, this.now()), true))!;
    });
    void this.runDue();
    return run;
  }

  async stop(runId: string): Promise<PlanRun | undefined> {
    const run = await planStore.editRuns((runs) => {
      const latest = runs.find((r) => r.id === runId);
      if (!latest) return { items: null, result: undefined };
      const next = requestStop(latest, this.now());
      return { items: upsertRun(runs, next), result: next };
    }, this.now());
    void this.runDue();
    return run;
  }

  async remove(runId: string): Promise<void> {
    await this.serial(() => planStore.editRuns((runs) => ({ items: runs.filter((r) => r.id !== runId), result: undefined }), this.now()));
  }

  /** Runs every due run's step once, then re-arms. Called by the timer, the alarm and at worker start. */
  runDue(): Promise<void> {
    return this.serial(async () => {
      const due = (await planStore.runs()).filter((r) => isRunActive(r) && (r.nextPollAt ?? 0) <= this.now());
      for (const run of due) await this.step(run);
    }).then(() => this.arm());
  }

  private async step(run: PlanRun): Promise<void> {
    let current = run;
    if (run.phase === 'creating' || run.phase === 'scheduling') {
      // Counted (stored) before the request is sent.
      const marked = await this.save(markAttempt(run));
      if (!marked) return;
      current = marked;
    }
    let next: PlanRun;
    try {
      next = await advanceRun(current, await this.clientFor(current), this.now);
    } catch (error) {
      // No key for the run's service (a session-only key gone after a restart): wait and say why.
      next = afterPollFailed(current, message(error), this.now());
    }
    await this.save(next);
  }

  private async clientFor(run: PlanRun): Promise<ServiceClient> {
    // The key of the service the run was placed at, never one saved later for another service.
    const record = await readKeyFor(originOf(run.baseUrl));
    if (!record) throw new NeedsKeyError(run.baseUrl);
    return this.makeClient(run.baseUrl, record.key);
  }

  /** One timer for the earliest due run, and an alarm while any run is active. */
  async arm(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const active = (await planStore.runs()).filter(isRunActive);
    if (active.length === 0) {
      await browser.alarms.clear(PLAN_RUNS_ALARM);
      return;
    }
    const next = Math.min(...active.map((r) => r.nextPollAt ?? this.now()));
    this.timer = setTimeout(() => void this.runDue(), Math.max(0, next - this.now()));
    // Alarms survive a stopped service worker; 30 s is the shortest period Chrome allows.
    if (!(await browser.alarms.get(PLAN_RUNS_ALARM))) browser.alarms.create(PLAN_RUNS_ALARM, { periodInMinutes: 0.5, delayInMinutes: 0.5 });
  }

  /** Forgets the timer (a test's service going away; the alarm stays for the next worker). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves once no step is in flight (for tests). */
  async idle(): Promise<void> {
    let tail: Promise<unknown>;
    do {
      tail = this.chain;
      await tail;
    } while (tail !== this.chain);
  }
}

let service: PlanRunsService | null = null;
/** The worker's one run follower (handlers and the alarm share it). */
export const planRuns = () => (service ??= new PlanRunsService());
