/**
 * Requests of agent test plans in the side panel (plans, runs, results). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender. A plan travels as
 * a plain value and is checked by the plan file's own schema (lib/plans/schema.ts `checkPlan`) in the
 * handler, so the editor, an import and the background refuse the same things with the same words.
 */
import { z } from '../zod';
import { MAX_PARTS, PART_CHARS } from '../batches/upload';
import type { TestCase } from '../plans/schema';
import type { ScriptStep } from '../plans/checks-schema';
import { e164, id } from './common';
import { NOTE_MAX } from '../plans/guided';

export const plansRequests = [
  /** Saves a plan under the id the UI chose (a new plan gets a fresh one). */
  z.strictObject({ type: z.literal('plans/save'), planId: id, plan: z.unknown() }),
  /**
   * A plan larger than one message (64 KB; about 300 cases) travels as its JSON text in parts, as a
   * contact list does (lib/batches/upload.ts), then `plans/save-upload` saves it with the same checks.
   */
  z.strictObject({
    type: z.literal('plans/upload-part'),
    uploadId: id,
    index: z.number().int().min(0).max(MAX_PARTS - 1),
    total: z.number().int().min(1).max(MAX_PARTS),
    text: z.string().max(PART_CHARS),
  }),
  z.strictObject({ type: z.literal('plans/save-upload'), planId: id, uploadId: id }),
  z.strictObject({ type: z.literal('plans/delete'), planId: id }),
  /** A case made from a finished call (lib/plans/from-call.ts), to adjust in the editor. */
  z.strictObject({ type: z.literal('plans/case-from-execution'), executionId: id }),
  /** What a run of the plan would do: calls, numbers, estimated cost, start. */
  z.strictObject({ type: z.literal('plans/preview-run'), planId: id }),
  /** Starts a run under the id the UI chose when the user confirmed: the same id twice is the same run. */
  z.strictObject({ type: z.literal('plans/run'), planId: id, runId: id }),
  /** A guided call: one case with a caller script, placed to the tester's own phone, under the id the UI chose. */
  z.strictObject({ type: z.literal('plans/run-guided'), planId: id, runId: id, caseId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/), toNumber: e164 }),
  /** The tester's mark on a step of a guided run's script; `mark: null` clears it. `atMs`: the call's elapsed time. */
  z.strictObject({
    type: z.literal('plans/mark-step'),
    runId: id,
    step: z.number().int().min(0).max(49),
    mark: z.enum(['done', 'wrong']).nullable(),
    note: z.string().max(NOTE_MAX),
    atMs: z.number().int().nonnegative().max(24 * 3600_000),
  }),
  z.strictObject({ type: z.literal('plans/stop-run'), runId: id }),
  z.strictObject({ type: z.literal('plans/delete-run'), runId: id }),
  /** Pins a finished run of the plan as its baseline (the regression gate); `runId` null unpins. */
  z.strictObject({ type: z.literal('plans/pin-baseline'), planId: id, runId: id.nullable() }),
] as const;

export interface RunPreview {
  calls: number;
  /** Each number called, once, in case order. */
  numbers: string[];
  /** Estimated total (cents) from the agent's recent completed calls; null when there are none. */
  estimate: { cents: number; basedOn: number } | null;
  /** Why there is no estimate, when the recent calls could not be read. */
  estimateError: string | null;
  /** When the batch would start if confirmed now, on our clock (ms): the spec service's rule, and the live service's 10-minute mark. */
  startsAt: number;
  liveStartsAt: number;
  /** The service the run will be placed at (its host). */
  service: string;
}

/** What each of these requests answers (the `data` of a successful Reply). */
export interface PlanReplies {
  'plans/save': { planId: string };
  'plans/upload-part': { received: number; total: number };
  'plans/save-upload': { planId: string };
  'plans/delete': unknown;
  /** `callerScript`: the call's caller lines as steps, offered as a guided case's starting point. */
  'plans/case-from-execution': { agentId: string; testCase: TestCase; callerScript: ScriptStep[] };
  'plans/preview-run': RunPreview;
  'plans/run': { runId: string };
  'plans/run-guided': { runId: string };
  'plans/mark-step': unknown;
  'plans/stop-run': unknown;
  'plans/delete-run': unknown;
  'plans/pin-baseline': unknown;
}
