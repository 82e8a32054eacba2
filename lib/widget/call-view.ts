/**
 * A placement's record as the widget sees it (lib/widget/wire.ts WidgetCallView): what the element
 * shows and what its events carry. One mapping for whoever answers the widget (the proxy, and the
 * extension's background if it wants the same rule). Never carries the key or the record's internals.
 */
import { executionDuration } from '../executions/duration';
import { t } from '../i18n';
import type { PlacementState } from '../placement/state';
import { isActive } from '../placement/tracker';
import type { WidgetCallView, WidgetVia } from './wire';

export interface ViewedCall extends PlacementState {
  toNumber: string;
}

/**
 * `transcripts`: whether results (transcript, recording, extracted data) go to the page. `message`
 * says why a call failed, or, while the engine tries a step again by itself (429, 5xx, a lost
 * connection), what the service answered and that it is being tried again.
 */
export function widgetCallView(call: ViewedCall, options: { transcripts: boolean }): WidgetCallView {
  const done = !isActive(call);
  const execution = call.execution;
  const over = call.step === 'finished';
  let message: string | null = null;
  if (call.failure && done) message = call.failure.message;
  else if (call.trackingPaused) message = call.lastError;
  else if (!done && call.lastError) message = t('widgetProxy_retrying', sentence(call.lastError));
  const results = options.transcripts && over && execution;
  return {
    id: call.id,
    agentId: call.agentId,
    toNumber: call.toNumber,
    via: call.via as WidgetVia,
    executionId: call.executionId,
    status: call.status,
    observed: call.observed.map((o) => ({ status: o.status, at: o.at })),
    done,
    message,
    stopRequested: call.stopRequested,
    durationSeconds: over ? executionDuration(execution) : null,
    cost: over && typeof execution?.total_cost === 'number' ? execution.total_cost : null,
    transcript: results ? (execution.transcript ?? null) : null,
    recordingUrl: results ? (execution.telephony_data?.recording_url ?? null) : null,
    extractedData: results ? (execution.extracted_data ?? null) : null,
  };
}

/** A reason ends as a sentence before "Trying again." follows it. */
const sentence = (text: string) => (/[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);
