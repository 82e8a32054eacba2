import { z } from '../api/zod';
import { placementState, PLACEMENT_STEPS, PLACEMENT_VIA, type PlacementStep, type PlacementVia } from '../placement/state';

export { observedStatus, stepFailure, type ObservedStatus, type StepFailure } from '../placement/state';

/** The steps of dialling: the placement's steps (lib/placement/state.ts). */
export const DIAL_STEPS = PLACEMENT_STEPS;
export type DialStep = PlacementStep;
export const CALL_VIA = PLACEMENT_VIA;
export type CallVia = PlacementVia;

/**
 * One call the user placed, as the background keeps it in storage: a placement of one number (its
 * engine fields, lib/placement/state.ts) plus what the call view shows. The background is the only
 * writer; UI pages read it. Every field needed to resume after a service-worker restart lives here.
 */
export const callRecord = placementState.extend({
  baseUrl: z.string(),
  agentName: z.string(),
  toNumber: z.string(),
  fromNumber: z.string().nullable(),
  variables: z.record(z.string(), z.string()),
  notified: z.boolean(),
});
export type CallRecord = z.infer<typeof callRecord>;
