/**
 * Messages between content scripts and the background: narrow intents only. The content script
 * reports what it found and says "the user wants to call this number"; it never learns the key,
 * the agents or anything about calls. The background parses these strictly and caps their size.
 */
import { z } from '../zod';
import { widgetPageRequests } from './widget-messages';
import { COUNTRY_LIST_RE, MAX_FIND_BATCH, MAX_FIND_ITEMS, MAX_FIND_LABEL, MAX_FIND_TEXT, type FindRequest } from '../phone/find-batch';

const e164 = z.string().regex(/^\+[1-9]\d{1,14}$/);
const raw = z.string().min(1).max(64);

export const MAX_REPORTED_NUMBERS = 500;
export const pageRequest = z.discriminatedUnion('type', [
  /** Should this frame scan, and with which default country? */
  z.strictObject({
    type: z.literal('page/config'),
    /** The languages the frame is written in (its document's, its elements', the browser's): country names in them come back. */
    langs: z.array(z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/)).max(24).optional(),
  }),
  /** This frame may hold a number: inject the finder (entrypoints/finder.ts) into it. */
  z.strictObject({ type: z.literal('page/finder') }),
  /**
   * Texts of this frame that may hold numbers, to be read off the page's thread: `batch` is a
   * FindRequest as JSON (parseFindBatch). The answer is the numbers found, as JSON of rows
   * (lib/phone/find-batch.ts findRows). Refused where click-to-call is off.
   */
  z.strictObject({ type: z.literal('page/find'), batch: z.string().max(MAX_FIND_BATCH) }),
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
    /** The number as the page writes it ("٠٥٠ ١٢٣ ٤٥٦٧", "０３－１２３４－５６７８"), shown beside the number dialled. */
    written: raw.optional(),
    source: z.enum(['overlay', 'tel-link']),
  }),
  /**
   * The focused frame's selection ('' for none), in answer to the shortcut's `page/selection`
   * command: sent as a message of its own so the browser's sender fields name that frame. Taken only
   * while the tab's shortcut awaits one (lib/background/selection-request.ts).
   */
  z.strictObject({ type: z.literal('page/selected'), text: z.string().max(64) }),
  /** The `<voice-agent-call>` element's requests (./widget-messages.ts): place (confirmed in extension UI), read, stop. */
  ...widgetPageRequests,
]);
export type PageRequest = z.infer<typeof pageRequest>;

const findRequest = z
  .strictObject({
    texts: z.array(z.string().max(MAX_FIND_TEXT)).min(1).max(MAX_FIND_ITEMS),
    /** Per text: "BR,US" (an empty entry: only numbers written with their +code). */
    countries: z.array(z.string().regex(COUNTRY_LIST_RE)).max(MAX_FIND_ITEMS),
    labels: z.array(z.string().max(MAX_FIND_LABEL)).max(MAX_FIND_ITEMS),
    /** Which texts are tel: hrefs (ascending indices). */
    tels: z.array(z.number().int().nonnegative()).min(1).max(MAX_FIND_ITEMS).optional(),
  })
  .refine(
    (r) =>
      r.countries.length === r.texts.length &&
      r.labels.length === r.texts.length &&
      (r.tels ?? []).every((t, i, all) => t < r.texts.length && (i === 0 || t > all[i - 1]!)),
  );

/** A page/find batch as a request, or null when it is not JSON of one. */
export function parseFindBatch(batch: string): FindRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(batch);
  } catch {
    return null;
  }
  const parsed = findRequest.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export interface PageConfig {
  enabled: boolean;
  defaultCountry: string;
  /** Shown in the overlay: "Call with <agent>". */
  agentName: string | null;
  /** Country names in the frame's languages, "CCname|CCname|…" (lib/phone/region-names.ts). */
  places?: string;
}

/**
 * Background → content script: commands with no data at all. A content script is never sent the
 * settings, the agents or anything about calls; it asks `page/config` for its own narrow answer.
 */
export const pageCommand = z.discriminatedUnion('type', [
  /** The keyboard shortcut: the frame that has focus answers `true` and sends `page/selected`; the others stay silent. */
  z.strictObject({ type: z.literal('page/selection') }),
  /** Settings or the agent list changed: ask `page/config` again. */
  z.strictObject({ type: z.literal('page/refresh') }),
]);
export type PageCommand = z.infer<typeof pageCommand>;
