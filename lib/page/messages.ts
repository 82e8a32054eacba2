/**
 * Messages between content scripts and the background: narrow intents only. The content script
 * reports what it found and says "the user wants to call this number"; it never learns the key,
 * the agents or anything about calls. The background parses these strictly and caps their size.
 */
import { z } from '../api/zod';

const e164 = z.string().regex(/^\+[1-9]\d{1,14}$/);
const raw = z.string().min(1).max(64);

export const MAX_REPORTED_NUMBERS = 500;

export const pageRequest = z.discriminatedUnion('type', [
  /** Should this frame scan, and with which default country? */
  z.strictObject({ type: z.literal('page/config') }),
  /** The numbers this frame holds now (replaces the frame's previous report). */
  z.strictObject({
    type: z.literal('page/numbers'),
    numbers: z.array(z.strictObject({ raw, e164 })).max(MAX_REPORTED_NUMBERS),
    /** How many different numbers the frame found: more than `numbers` holds when it was capped. */
    total: z.number().int().nonnegative().max(10_000_000).optional(),
  }),
  /** The user clicked a call affordance, a tel: link, or used the shortcut on a selection. */
  z.strictObject({
    type: z.literal('page/call'),
    number: z.string().min(1).max(64),
    source: z.enum(['overlay', 'tel-link', 'shortcut']),
  }),
]);
export type PageRequest = z.infer<typeof pageRequest>;

export interface PageConfig {
  enabled: boolean;
  defaultCountry: string;
  /** Shown in the overlay: "Call with <agent>". */
  agentName: string | null;
}

/** Background → content script. */
export type PageCommand = { type: 'page/selection' };
