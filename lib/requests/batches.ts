/**
 * Requests of the side panel's Batches section (list, create from CSV, schedule, stop, delete). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender.
 *
 * A contact list can be larger than one message (64 KB): the side panel sends it in parts
 * (`batches/upload-part`, lib/batches/upload.ts) and then names the upload in `batches/create`.
 */
import type { Batch } from '../api/schemas/batch';
import { z } from '../zod';
import { MAX_PARTS, PART_CHARS } from '../batches/upload';
import { country, id } from './common';

export const batchesRequests = [
  /** The agent's batches, newest first. */
  z.strictObject({ type: z.literal('batches/list'), agentId: id }),
  /** One batch's executions (trimmed list records). */
  z.strictObject({ type: z.literal('batches/executions'), batchId: id }),
  /** One part of a checked contact list, staged in the background until `batches/create`. */
  z.strictObject({
    type: z.literal('batches/upload-part'),
    uploadId: id,
    index: z.number().int().min(0).max(MAX_PARTS - 1),
    total: z.number().int().min(1).max(MAX_PARTS),
    text: z.string().max(PART_CHARS),
  }),
  /** Creates a batch from a complete upload; the background checks every row again before sending. */
  z.strictObject({
    type: z.literal('batches/create'),
    agentId: id,
    uploadId: id,
    fileName: z.string().min(1).max(255),
    /** The default country the list's national numbers were read with. */
    country,
  }),
  /** `scheduledAt`: ISO 8601 with a numeric offset, at least 2 minutes ahead (checked again here). */
  z.strictObject({ type: z.literal('batches/schedule'), batchId: id, scheduledAt: z.string().min(1).max(64) }),
  /** Done when the service confirms it; until then the answer says `stopping` and the background keeps trying. */
  z.strictObject({ type: z.literal('batches/stop'), batchId: id }),
  z.strictObject({ type: z.literal('batches/delete'), batchId: id }),
] as const;

/** A row of a batch's executions table: what the list route tells, in the service's words. */
export interface BatchExecutionRow {
  id: string;
  status: string;
  to_number: string | null;
  /** Seconds (live `conversation_duration`, spec `conversation_time`). */
  duration: number | null;
  /** Cents. */
  total_cost: number | null;
  created_at: string | null;
}

/** What each of these requests answers (the `data` of a successful Reply). */
export interface BatchReplies {
  'batches/list': Batch[];
  'batches/executions': BatchExecutionRow[];
  'batches/upload-part': { received: number; total: number };
  'batches/create': { batchId: string };
  'batches/schedule': { scheduledAt: string };
  'batches/stop': { stopping: boolean };
  'batches/delete': Record<string, never>;
}
