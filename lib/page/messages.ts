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
  /** This frame may hold a number: inject the finder (entrypoints/finder.ts) into it. */
  z.strictObject({ type: z.literal('page/finder') }),
  /** The numbers this frame holds now (replaces the frame's previous report). */
  z.strictObject({
    type: z.literal('page/numbers'),
    numbers: z.array(z.strictObject({ raw, e164 })).max(MAX_REPORTED_NUMBERS),
    /** How many different numbers the frame found: more than `numbers` holds when it was capped. */
    total: z.number().int().nonnegative().max(10_000_000).optional(),
  }),
  /**
   * The user clicked a call affordance or a tel: link. Only these two: the shortcut and the context
   * menu start in the browser's own UI and reach the background directly, so no page message can
   * claim to be one of them (and skip the site rules).
   */
  z.strictObject({
    type: z.literal('page/call'),
    number: z.string().min(1).max(64),
    source: z.enum(['overlay', 'tel-link']),
  }),
]);
export type PageRequest = z.infer<typeof pageRequest>;

export interface PageConfig {
  enabled: boolean;
  defaultCountry: string;
  /** Shown in the overlay: "Call with <agent>". */
  agentName: string | null;
}

/**
 * Background → content script: commands with no data at all. A content script is never sent the
 * settings, the agents or anything about calls; it asks `page/config` for its own narrow answer.
 */
export const pageCommand = z.discriminatedUnion('type', [
  /** The selected text, for the keyboard shortcut. */
  z.strictObject({ type: z.literal('page/selection') }),
  /** Settings or the agent list changed: ask `page/config` again. */
  z.strictObject({ type: z.literal('page/refresh') }),
]);
export type PageCommand = z.infer<typeof pageCommand>;
