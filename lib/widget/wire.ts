/**
 * What the `<voice-agent-call>` element and the two ways it reaches the service exchange: the installed
 * extension (page → content script → background) and the project's proxy (`proxy/`, HTTP + a widget
 * token). One source of truth for both transports and both servers. Nothing here ever carries a key.
 *
 * A widget call is a placement (lib/placement/): the element asks for one, then reads its view until
 * `done`, and may ask to stop it. Ids are the placement's own ids, never guessed by the page.
 */
import { e164, serviceId } from '../api/schemas/common';
import { z } from '../api/zod';

/** How the call goes out: at once (`POST /call`, batch where the service lacks it) or at the earliest batch start. */
export const WIDGET_VIA = ['call', 'batch'] as const;
export type WidgetVia = (typeof WIDGET_VIA)[number];

/** Variables a page may pass (prompt variables of the call); bounded like the extension's own. */
export const widgetVariables = z.record(z.string().min(1).max(64), z.string().max(2_000)).refine((v) => Object.keys(v).length <= 32, 'at most 32 variables');

/** The element asks for a call. */
export const widgetCallRequest = z.strictObject({
  agentId: serviceId,
  toNumber: e164,
  variables: widgetVariables.default({}),
  via: z.enum(WIDGET_VIA).default('batch'),
});
export type WidgetCallRequest = z.infer<typeof widgetCallRequest>;

/** One status the call walked through, in the service's own words, with when it was seen (ms epoch). */
export const widgetStatusStep = z.object({ status: z.string(), at: z.number() });

/** What the element shows and what its events carry. Results appear once the call is over. */
export const widgetCallView = z.object({
  /** The placement's id: what the element reads and stops by. */
  id: z.string(),
  agentId: z.string(),
  toNumber: z.string(),
  via: z.enum(WIDGET_VIA),
  /** The execution's id once the service made one. */
  executionId: z.string().nullable(),
  /** The latest execution status (service words), null before the service has one. */
  status: z.string().nullable(),
  observed: z.array(widgetStatusStep),
  /** True when nothing more will change: the call ended, was stopped, or could not be placed. */
  done: z.boolean(),
  /**
   * A person-readable reason when the call failed or could not be placed; while not `done`, what the
   * service answered as a step is tried again by itself (429, 5xx, a lost connection); else null.
   */
  message: z.string().nullable(),
  stopRequested: z.boolean(),
  durationSeconds: z.number().nullable(),
  cost: z.number().nullable(),
  /** Only when the host allowed transcripts (and, through the extension, the user allowed the site). */
  transcript: z.string().nullable(),
  recordingUrl: z.string().nullable(),
  extractedData: z.record(z.string(), z.unknown()).nullable(),
});
export type WidgetCallView = z.infer<typeof widgetCallView>;

/** Why a widget request was refused, in words a person understands (never a stack or a key). */
export const widgetError = z.object({ error: z.string(), code: z.string() });
export type WidgetError = z.infer<typeof widgetError>;

/** The one interface the element talks to; the extension and the proxy each provide one. */
export interface WidgetTransport {
  place(request: WidgetCallRequest): Promise<WidgetCallView>;
  read(id: string): Promise<WidgetCallView>;
  stop(id: string): Promise<WidgetCallView>;
}
