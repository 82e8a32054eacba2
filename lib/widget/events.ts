/** The element's events, and what each carries: enough for a host to log the call; never a key, a token or a transcript. */
export const WIDGET_EVENTS = { status: 'voice-agent-call:status', done: 'voice-agent-call:done', error: 'voice-agent-call:error' } as const;

export interface WidgetEventDetail {
  id: string | null;
  executionId: string | null;
  status: string | null;
  durationSeconds: number | null;
  cost: number | null;
  /** On `:error` only: what went wrong, in words, and its code. */
  message?: string;
  code?: string;
}
