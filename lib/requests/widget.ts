/**
 * The confirmation window's requests about a `<voice-agent-call>` element's call (extension UI only:
 * the page never sends these). The ticket is the background's own id for the page's pending request.
 */
import type { AskingFrame } from '../page/frame-host';
import { z } from '../zod';

const ticket = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);

export const widgetRequests = [
  /** What a pending page request asks for, to show in the confirmation (null once it is no longer waiting). */
  z.strictObject({ type: z.literal('widget/pending'), ticket }),
  /** The person confirmed: place the call; `share` lets the page see the transcript and recording. */
  z.strictObject({ type: z.literal('widget/confirm'), ticket, share: z.boolean() }),
  z.strictObject({ type: z.literal('widget/decline'), ticket }),
] as const;

export interface WidgetPendingView {
  ticket: string;
  asker: AskingFrame;
  agentId: string;
  /** From the saved agent list; null when the agent is not in it. */
  agentName: string | null;
  toNumber: string;
  via: 'call' | 'batch';
  variables: Record<string, string>;
  /** The host page itself hides transcripts: sharing is then moot. */
  hostShowsTranscripts: boolean;
}

export interface WidgetReplies {
  'widget/pending': WidgetPendingView | null;
  'widget/confirm': { callId: string };
  'widget/decline': null;
}
