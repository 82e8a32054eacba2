/**
 * Plans and their runs as the extension stores them (data store records `plans` and `plans.runs`):
 * `{version, plans}` and `{version, runs}`. Read schema-checked, never lossy, like call history: a
 * value that does not parse, or one written by a newer version, is handed back as `keepAside` for the
 * store to quarantine untouched. Each stored plan is a plan file (lib/plans/schema.ts) checked by the
 * same `checkPlan` as an import, so the file format's own version rules apply to stored plans too.
 *
 * Versions: 1, the first (plans keyed by a local id, with their time of last change).
 */
import { z } from '../zod';
import type { KeptAside } from '../calls/history';
import { newPlacementState, PLACEMENT_STEPS } from '../placement/state';
import { guidedRun } from './guided';
import type { RunResult } from './judge';
import type { PlanRun } from './run-state';
import { checkPlan, problemsText, type TestPlan } from './schema';

export const PLANS_VERSION = 1;
export const RUNS_VERSION = 1;

export interface StoredPlan {
  id: string;
  plan: TestPlan;
  updatedAt: number;
  /** The run pinned as the plan's baseline (the regression gate, lib/plans/gate.ts): its results are kept here, so it outlives the runs kept. */
  baseline?: PlanBaseline;
}

export interface PlanBaseline {
  runId: string;
  pinnedAt: number;
  result: RunResult;
}

export interface StoreRead<T> {
  items: T[];
  keepAside: KeptAside[];
}

const container = <K extends string>(key: K) => z.object({ version: z.number().int().nonnegative(), [key]: z.array(z.unknown()) } as { version: z.ZodNumber } & Record<K, z.ZodArray<z.ZodUnknown>>);

function readContainer<T>(
  raw: unknown,
  what: { key: 'plans' | 'runs'; version: number; noun: string },
  readItem: (item: unknown) => { ok: true; value: T } | { ok: false; reason: string },
): StoreRead<T> {
  if (raw === undefined || raw === null) return { items: [], keepAside: [] };
  const parsed = container(what.key).safeParse(raw);
  if (!parsed.success) return { items: [], keepAside: [{ reason: `Stored ${what.noun} were unreadable; they are kept aside, not shown.`, value: raw }] };
  const version = parsed.data.version as number;
  if (version > what.version) {
    return { items: [], keepAside: [{ reason: `Stored ${what.noun} are from a newer version (${version}); they are kept aside, not shown.`, value: raw }] };
  }
  const items: T[] = [];
  const keepAside: KeptAside[] = [];
  for (const item of parsed.data[what.key] as unknown[]) {
    const read = readItem(item);
    if (read.ok) items.push(read.value);
    else keepAside.push({ reason: read.reason, value: item });
  }
  return { items, keepAside };
}

const baselineShape = z.object({
  runId: z.string().min(1),
  pinnedAt: z.number(),
  result: z.looseObject({ verdict: z.enum(['pass', 'fail', 'error']), cases: z.array(z.looseObject({ caseId: z.string(), verdict: z.enum(['pass', 'fail', 'error']) })) }),
});
const storedPlanShape = z.object({ id: z.string().min(1), plan: z.unknown(), updatedAt: z.number(), baseline: z.unknown().optional() });

export function readPlans(raw: unknown): StoreRead<StoredPlan> {
  return readContainer(raw, { key: 'plans', version: PLANS_VERSION, noun: 'test plans' }, (item) => {
    const shape = storedPlanShape.safeParse(item);
    if (!shape.success) return { ok: false, reason: 'A stored test plan could not be read; it is kept aside.' };
    const plan = checkPlan(shape.data.plan);
    if (!plan.ok) return { ok: false, reason: `A stored test plan could not be read (${problemsText(plan.problems.slice(0, 3)).replace(/\n/g, '; ')}); it is kept aside.` };
    // A baseline that no longer reads is dropped, never the plan with it.
    const baseline = baselineShape.safeParse(shape.data.baseline);
    // The result was built by this code (judge.ts); what the gate reads was checked above.
    const kept = baseline.success ? { baseline: baseline.data as unknown as PlanBaseline } : {};
    return { ok: true, value: { id: shape.data.id, plan: plan.plan, updatedAt: shape.data.updatedAt, ...kept } };
  });
}

export const writePlans = (plans: readonly StoredPlan[]) => ({ version: PLANS_VERSION, plans });

const storedRunShape = z
  .object({
    id: z.string().min(1),
    planId: z.string().min(1),
    plan: z.unknown(),
    baseUrl: z.string(),
    phase: z.enum(['creating', 'scheduling', 'following', 'finished', 'failed']),
    createdAt: z.number(),
    createAttempts: z.number().int().nonnegative(),
    scheduleAttempts: z.number().int().nonnegative(),
    batchId: z.string().nullable(),
    follow: z.looseObject({ batchId: z.string(), rows: z.record(z.string(), z.unknown()), finished: z.record(z.string(), z.unknown()) }).nullable(),
    nextPollAt: z.number().nullable(),
    stopRequested: z.boolean(),
    lastError: z.string().nullable(),
    result: z.looseObject({ verdict: z.enum(['pass', 'fail', 'error']), cases: z.array(z.unknown()) }).nullable(),
    finishedAt: z.number().nullable(),
    /** Runs stored before the placement engine have no step: it is read from their phase. */
    step: z.enum(PLACEMENT_STEPS).optional(),
    /** A guided run's marks, checked like everything the panel sends. */
    guided: guidedRun.nullish(),
    /** Before the placement engine: polls failed in a row. */
    failures: z.number().int().nonnegative().optional(),
  })
  .loose();

const stepOfPhase = { creating: 'creating-batch', scheduling: 'scheduling', following: 'finding-execution', finished: 'finished', failed: 'finished' } as const;

export function readRuns(raw: unknown): StoreRead<PlanRun> {
  return readContainer(raw, { key: 'runs', version: RUNS_VERSION, noun: 'test plan runs' }, (item) => {
    const shape = storedRunShape.safeParse(item);
    const plan = shape.success ? checkPlan(shape.data.plan) : null;
    if (!shape.success || !plan?.ok) return { ok: false, reason: 'A stored run of a test plan could not be read; it is kept aside.' };
    const { failures, ...data } = shape.data;
    // The follow state and result were built by this code from parsed service records; their shape was checked above.
    // A run from before the placement engine gets the engine's fields it lacks, from what it has.
    const engine = newPlacementState({ id: data.id, agentId: plan.plan.agent_id }, data.createdAt);
    const run = {
      ...engine,
      consecutiveFailures: failures ?? engine.consecutiveFailures,
      abandoned: null,
      ...(data as unknown as Partial<PlanRun>),
      step: data.step ?? stepOfPhase[data.phase],
      plan: plan.plan,
    } as PlanRun;
    return { ok: true, value: run };
  });
}

export const writeRuns = (runs: readonly PlanRun[]) => ({ version: RUNS_VERSION, runs });
