/**
 * The `<voice-agent-call>` element's messages to this extension's content script (window.postMessage
 * in the page's own frame, on one fixed channel), and what the content script forwards to the
 * background. Page side: no lib/api here (docs/layout.md), so the shapes are spelled out and kept in
 * step with lib/widget/wire.ts by tests/unit/widget/bridge.test.ts.
 *
 * The page is untrusted: the content script takes only messages from its own window and origin,
 * parses them strictly, and the background gates them like any page call request (site switch,
 * request budget, the extension's own confirmation).
 */
import { z } from '../zod';

import { WIDGET_CHANNEL } from './widget-ask';

/** The channel name every message carries; anything else on the page's message bus is ignored. */
export { WIDGET_CHANNEL };

const e164 = z.string().regex(/^\+[1-9]\d{1,14}$/);
const id = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);
const nonce = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

/** What the element asks for: the same fields as lib/widget/wire.ts widgetCallRequest, plus whether the host shows transcripts. */
export const widgetPlace = z.strictObject({
  agentId: id,
  toNumber: e164,
  variables: z.record(z.string().min(1).max(64), z.string().max(2_000)).refine((v) => Object.keys(v).length <= 32, 'at most 32 variables'),
  via: z.enum(['call', 'batch']),
  /** The host page's own choice (`transcripts="hide"`): then none is sent to it even if the user allows it. */
  transcripts: z.boolean(),
});
export type WidgetPlace = z.infer<typeof widgetPlace>;

/** Page → content script. */
export const widgetAsk = z.discriminatedUnion('kind', [
  z.strictObject({ channel: z.literal(WIDGET_CHANNEL), dir: z.literal('ask'), nonce, kind: z.literal('hello') }),
  z.strictObject({ channel: z.literal(WIDGET_CHANNEL), dir: z.literal('ask'), nonce, kind: z.literal('place'), request: widgetPlace }),
  z.strictObject({ channel: z.literal(WIDGET_CHANNEL), dir: z.literal('ask'), nonce, kind: z.literal('read'), id }),
  z.strictObject({ channel: z.literal(WIDGET_CHANNEL), dir: z.literal('ask'), nonce, kind: z.literal('stop'), id }),
]);
export type WidgetAsk = z.infer<typeof widgetAsk>;

/** Content script → background (joined into lib/page/messages.ts pageRequest). */
export const widgetPageRequests = [
  z.strictObject({ type: z.literal('page/widget-place'), request: widgetPlace }),
  z.strictObject({ type: z.literal('page/widget-read'), id }),
  z.strictObject({ type: z.literal('page/widget-stop'), id }),
] as const;
