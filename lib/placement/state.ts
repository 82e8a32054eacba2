/**
 * A placement: one intent to make the service dial — a single call (a batch of one row, or `POST /call`)
 * or a plan run (a batch of N rows). Its state is what the engine's steps read and write; a call record
 * and a plan run each carry these fields (and their own beside them), stored by their shell so that a
 * placement survives a closed panel, a restarted worker or a new process.
 */
import { execution } from '../api/schemas/execution';
import { z } from '../api/zod';

/** The steps of a placement, in order: `starting-call` (POST /call) or the batch's steps, then following. */
export const PLACEMENT_STEPS = ['starting-call', 'creating-batch', 'scheduling', 'finding-execution', 'tracking', 'finished'] as const;
export type PlacementStep = (typeof PLACEMENT_STEPS)[number];

/** How a placement goes out: a batch (every service) or the live `POST /call`. */
export const PLACEMENT_VIA = ['batch', 'call'] as const;
export type PlacementVia = (typeof PLACEMENT_VIA)[number];

/**
 * The prompt variable that carries the placement's id on `POST /call` (`user_data`): after a lost answer
 * the call is found by it (`context_details.recipient_data`), never by guessing from number and time.
 */
export const PLACEMENT_ID_VARIABLE = 'placement_id';

export const observedStatus = z.object({ status: z.string(), at: z.number() });
export type ObservedStatus = z.infer<typeof observedStatus>;

export const stepFailure = z.object({
  step: z.enum(PLACEMENT_STEPS),
  message: z.string(),
  status: z.number().optional(),
  at: z.number(),
});
export type StepFailure = z.infer<typeof stepFailure>;

export const placementState = z.object({
  id: z.string(),
  agentId: z.string(),
  createdAt: z.number(),
  /** Records from before immediate calls all went out as batches. */
  via: z.enum(PLACEMENT_VIA).default('batch'),
  step: z.enum(PLACEMENT_STEPS),
  /** Set when a step failed; the user can retry from that step (never re-creating a batch that exists). */
  failure: stepFailure.nullable(),
  trackingPaused: z.boolean(),
  batchId: z.string().nullable(),
  /** The `scheduled_at` text sent to the service. */
  scheduledAt: z.string().nullable(),
  /** When (ms, local clock) the schedule request was made, and the service clock's speed relative to ours. */
  scheduledRequestAt: z.number().nullable(),
  timeScale: z.number().positive(),
  executionId: z.string().nullable(),
  status: z.string().nullable(),
  observed: z.array(observedStatus),
  /** The last full execution record read; results are shown from it once the status is terminal. */
  execution: execution.nullable(),
  polls: z.number().int(),
  consecutiveFailures: z.number().int(),
  failingSince: z.number().nullable(),
  lastError: z.string().nullable(),
  nextPollAt: z.number().nullable(),
  stopRequested: z.boolean(),
  /** The service confirmed the stop (or nothing had been placed). Until then every step tries it first. */
  stopSent: z.boolean().default(false),
  /**
   * Tries of the steps that change the service, counted before each request is sent: a second try
   * may follow an answer that was lost after the service acted, so it looks before acting again.
   */
  createAttempts: z.number().int().default(0),
  scheduleAttempts: z.number().int().default(0),
  startAttempts: z.number().int().default(0),
  /** The service would not stop the call (the live service stops an immediate call only while queued): its reason. */
  stopRefused: z.string().nullable().default(null),
  /** The service clock minus ours (ms), from its `Date` header; `scheduled_at` is computed on its clock. */
  clockOffset: z.number().default(0),
  /** The service asked us to wait (`Retry-After`): how long, and until when (local ms). */
  serviceWait: z.object({ askedMs: z.number(), until: z.number() }).nullable().default(null),
  finishedAt: z.number().nullable(),
});
export type PlacementState = z.infer<typeof placementState>;

/** What the service is asked to dial: the batch's CSV and file name (which names the placement), or one `POST /call`. */
export interface BatchSpec {
  via: 'batch';
  csv: string;
  fileName: string;
  fromNumber: string | null;
  /**
   * A start the user chose (the Batches section), sent as it is once it is checked against the service's
   * clock; without it the batch is scheduled at the earliest allowed time.
   */
  scheduledAt?: string;
  /** Batches already named `fileName` before this placement's first create (a user's file name): never taken for this placement's. */
  notOurs?: readonly string[];
}
export type PlacementSpec =
  | BatchSpec
  /** `POST /call`, and the batch it goes out as where the service lacks the route. */
  | { via: 'call'; toNumber: string; fromNumber: string | null; variables: Record<string, string>; fallback: BatchSpec };

/** A new placement's engine fields, at its first step. */
export function newPlacementState(input: { id: string; agentId: string; via?: PlacementVia }, now: number): PlacementState {
  const via = input.via ?? 'batch';
  return {
    id: input.id,
    agentId: input.agentId,
    createdAt: now,
    via,
    step: via === 'call' ? 'starting-call' : 'creating-batch',
    failure: null,
    trackingPaused: false,
    batchId: null,
    scheduledAt: null,
    scheduledRequestAt: null,
    timeScale: 1,
    executionId: null,
    status: null,
    observed: [],
    execution: null,
    polls: 0,
    consecutiveFailures: 0,
    failingSince: null,
    lastError: null,
    nextPollAt: now,
    stopRequested: false,
    stopSent: false,
    createAttempts: 0,
    scheduleAttempts: 0,
    startAttempts: 0,
    stopRefused: null,
    clockOffset: 0,
    serviceWait: null,
    finishedAt: null,
  };
}
