import { z } from '../api/zod';
import { execution } from '../api/schemas/execution';

/** The steps of dialling, in order: `starting-call` (POST /call) or the single-call batch's steps, then following. */
export const DIAL_STEPS = ['starting-call', 'creating-batch', 'scheduling', 'finding-execution', 'tracking', 'finished'] as const;
export type DialStep = (typeof DIAL_STEPS)[number];

/** How the call went out: a single-call batch (the default, every service) or the live `POST /call`. */
export const CALL_VIA = ['batch', 'call'] as const;
export type CallVia = (typeof CALL_VIA)[number];

export const observedStatus = z.object({ status: z.string(), at: z.number() });
export type ObservedStatus = z.infer<typeof observedStatus>;

export const stepFailure = z.object({
  step: z.enum(DIAL_STEPS),
  message: z.string(),
  status: z.number().optional(),
  at: z.number(),
});
export type StepFailure = z.infer<typeof stepFailure>;

/**
 * One call the user placed, as the background keeps it in storage. The background is the only writer;
 * UI pages read it. Every field needed to resume after a service-worker restart lives here.
 */
export const callRecord = z.object({
  id: z.string(),
  baseUrl: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  toNumber: z.string(),
  fromNumber: z.string().nullable(),
  variables: z.record(z.string(), z.string()),
  createdAt: z.number(),
  /** Records from before immediate calls all went out as batches. */
  via: z.enum(CALL_VIA).default('batch'),
  step: z.enum(DIAL_STEPS),
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
  /** The stop reached the service (or none was needed: nothing was scheduled). Until then every step tries it first. */
  stopSent: z.boolean().default(false),
  /**
   * Tries of the steps that change the service, counted before each request is sent: a second try
   * may follow an answer that was lost after the service acted, so it looks before acting again.
   */
  createAttempts: z.number().int().default(0),
  scheduleAttempts: z.number().int().default(0),
  /** Tries of `POST /call`, counted like the others: after a lost answer the next try looks for the call first. */
  startAttempts: z.number().int().default(0),
  /** The service would not stop the call (the live service stops an immediate call only while queued): its reason. */
  stopRefused: z.string().nullable().default(null),
  /** The service clock minus ours (ms), from its `Date` header; `scheduled_at` is computed on its clock. */
  clockOffset: z.number().default(0),
  /** The service asked us to wait (`Retry-After`): how long, and until when (local ms). */
  serviceWait: z.object({ askedMs: z.number(), until: z.number() }).nullable().default(null),
  finishedAt: z.number().nullable(),
  notified: z.boolean(),
});
export type CallRecord = z.infer<typeof callRecord>;
