/**
 * Requests of agent test plans in the side panel (plans, runs, results). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender. A plan travels as
 * a plain value and is checked by the plan file's own schema (lib/plans/schema.ts `checkPlan`) in the
 * handler, so the editor, an import and the background refuse the same things with the same words.
 */
import { z } from '../zod';
import { MAX_PARTS, PART_CHARS } from '../batches/upload';
import type { TestCase } from '../plans/schema';
import { id } from './common';

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
  'plans/case-from-execution': { agentId: string; testCase: TestCase };
  'plans/preview-run': RunPreview;
  'plans/run': { runId: string };
  'plans/stop-run': unknown;
  'plans/delete-run': unknown;
  'plans/pin-baseline': unknown;
}
