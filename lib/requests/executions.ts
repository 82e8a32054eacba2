/**
 * Requests of the side panel's Executions section (filters, paging, CSV export). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender.
 */
import type { ExecutionPage } from '../api/schemas/execution';
import { z } from '../zod';
import { id } from './common';

/** An instant in ms, as the filter core gives it (lib/executions/filter.ts). */
const instant = z.number().int().min(0).max(8.64e15);

export const executionsRequests = [
  /** One page of an agent's executions under a filter; the window (from..to) is at most 7 days. */
  z.strictObject({
    type: z.literal('executions/list'),
    agentId: id,
    pageNumber: z.number().int().min(1).max(10_000),
    pageSize: z.number().int().min(1).max(50),
    status: z.string().min(1).max(64).optional(),
    batchId: id.optional(),
    from: instant,
    to: instant,
  }),
  /** The agent's batches, for the batch filter. */
  z.strictObject({ type: z.literal('executions/batches'), agentId: id }),
] as const;

/** A batch as the filter offers it. */
export interface BatchChoice {
  batchId: string;
  fileName: string | null;
  createdAt: string | null;
}

/** What each of these requests answers (the `data` of a successful Reply). */
export interface ExecutionReplies {
  'executions/list': ExecutionPage;
  'executions/batches': BatchChoice[];
}
