/**
 * The background's shell around test plan runs: like the call tracker, it wakes up when a run is due (a
 * timer while the worker lives, an alarm to bring a stopped worker back), runs that step
 * (lib/plans/run-step.ts, on the placement engine) and stores the new state. State lives in the data
 * store, so a run survives a closed panel and a restarted worker. Steps run one at a time.
 */
import { DueTimer } from './due-timer';
import { withMark, type StepMark } from '../plans/guided';
import { InputError } from './input-error';
import { advanceRun } from '../plans/run-step';
import { afterPollFailed, isRunActive, markAttempt, newRun, requestStop, upsertRun, type PlanRun } from '../plans/run-state';
import { describeError } from './describe-error';
import { originOf, readKeyFor } from './key-store';
import { planStore } from './plan-store';
import { clientFor, NeedsKeyError, type ServiceClient } from './service';

export const PLAN_RUNS_ALARM = 'plan-runs';

type Clock = () => number;
const message = (error: unknown) => describeError(error).message;

export class PlanRunsService {
  private readonly due = new DueTimer(PLAN_RUNS_ALARM, () => void this.runDue(), () => this.now());
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
      const stopped = latest?.stopRequested && !run.stopRequested && isRunActive(run) ? requestStop(run, this.now()) : run;
      // A guided run's marks are written only by markStep: the stored copy's are the latest.
      const next = latest?.guided ? { ...stopped, guided: latest.guided } : stopped;
      return { items: upsertRun(runs, next), result: next };
    }, this.now());
  }

  /** Starts a run under the id the UI chose when the user confirmed: the same id twice is the same run. */
  async start(input: { id: string; planId: string; plan: PlanRun['plan']; baseUrl: string; guided?: PlanRun['guided'] }): Promise<PlanRun> {
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

  /** A tester's mark on a step of a guided run's caller script (null clears it); kept with the run. */
  async markStep(runId: string, step: number, mark: StepMark | null): Promise<PlanRun> {
    return planStore.editRuns((runs) => {
      const run = runs.find((r) => r.id === runId);
      const script = run?.plan.cases[0]?.caller_script;
      if (!run?.guided || !script) throw new InputError('This run is not a guided call.');
      if (step >= script.length) throw new InputError(`The caller script has ${script.length} steps.`);
      const next = { ...run, guided: { ...run.guided, marks: withMark(run.guided.marks, step, mark) } };
      return { items: upsertRun(runs, next), result: next };
    }, this.now());
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
    const counted = markAttempt(run);
    if (counted !== run) {
      // A create or schedule is counted (stored) before the request is sent.
      const marked = await this.save(counted);
      if (!marked) return;
      current = marked;
    }
    let next: PlanRun;
    try {
      next = await advanceRun(current, await this.clientFor(current), describeError, this.now);
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
    const active = (await planStore.runs()).filter(isRunActive);
    await this.due.arm(active.length ? Math.min(...active.map((r) => r.nextPollAt ?? this.now())) : null);
  }

  /** Forgets the timer (a test's service going away; the alarm stays for the next worker). */
  dispose(): void {
    this.due.dispose();
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
