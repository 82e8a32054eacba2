import { isTerminalExecutionStatus, type ExecutionStatus } from '../api/status-vocabulary';
// Type only: this module stays free of the extension API (node tools and e2e specs import it).
import type { MessageKey } from '../i18n';

export { isTerminalExecutionStatus };

/** The happy path a call walks, used to draw the timeline and to name statuses skipped between polls. */
export const STATUS_PATH: readonly ExecutionStatus[] = [
  'scheduled',
  'queued',
  'initiated',
  'ringing',
  'in-progress',
  'call-disconnected',
  'completed',
];

/** Statuses during which the line is being set up or is live: poll densely. */
export const LIVE_STATUSES: readonly ExecutionStatus[] = ['queued', 'initiated', 'ringing', 'in-progress', 'call-disconnected'];

/**
 * A person's words for each status, in English: for code running outside the extension (benches, specs).
 * The UI says them in its own language through lib/calls/status-text.ts (`statusText`).
 */
export const STATUS_LABELS: Record<string, string> = {
  prepared: 'Prepared',
  scheduled: 'Scheduled',
  queued: 'Queued',
  rescheduled: 'Rescheduled',
  initiated: 'Dialling',
  ringing: 'Ringing',
  'in-progress': 'In progress',
  'call-disconnected': 'Call ended, finalising',
  completed: 'Completed',
  'no-answer': 'No answer',
  busy: 'Busy',
  failed: 'Failed',
  canceled: 'Canceled',
  stopped: 'Stopped',
  error: 'Error',
  'balance-low': 'Balance too low',
};

/** Plain explanation of each terminal status, in English (the UI: `statusExplanation` in lib/calls/status-text.ts). */
export const STATUS_EXPLANATIONS: Record<string, string> = {
  completed: 'The call finished and its results are final.',
  'no-answer': 'The phone rang but nobody picked up.',
  busy: 'The line was busy; the recipient may be on another call or rejected it.',
  failed: 'The telephony provider could not place the call (see the hang-up reason and code below).',
  canceled: 'The call was canceled before it was answered.',
  stopped: 'The call was stopped on request.',
  error: 'The service hit an internal error while placing the call.',
  'balance-low': 'The account wallet balance is too low to place calls. Top it up, then dial again.',
};

/** Each status's catalogue key (lib/calls/status-text.ts says it in the UI's language). */
export const STATUS_LABEL_KEYS: Record<string, MessageKey> = {
  prepared: 'calls_statusPrepared',
  scheduled: 'calls_statusScheduled',
  queued: 'calls_statusQueued',
  rescheduled: 'calls_statusRescheduled',
  initiated: 'calls_statusInitiated',
  ringing: 'calls_statusRinging',
  'in-progress': 'calls_statusInProgress',
  'call-disconnected': 'calls_statusCallDisconnected',
  completed: 'calls_statusCompleted',
  'no-answer': 'calls_statusNoAnswer',
  busy: 'calls_statusBusy',
  failed: 'calls_statusFailed',
  canceled: 'calls_statusCanceled',
  stopped: 'calls_statusStopped',
  error: 'calls_statusError',
  'balance-low': 'calls_statusBalanceLow',
};

/** Each terminal status's explanation, as a catalogue key. */
export const STATUS_EXPLANATION_KEYS: Record<string, MessageKey> = {
  completed: 'calls_explainCompleted',
  'no-answer': 'calls_explainNoAnswer',
  busy: 'calls_explainBusy',
  failed: 'calls_explainFailed',
  canceled: 'calls_explainCanceled',
  stopped: 'calls_explainStopped',
  error: 'calls_explainError',
  'balance-low': 'calls_explainBalanceLow',
};

/** The English label (see STATUS_LABELS); the UI uses `statusText`. */
export function statusLabel(status: string | null | undefined): string {
  if (!status) return 'Unknown';
  return STATUS_LABELS[status] ?? status;
}

/** `completed` does not prove the callee answered: a zero duration means nobody spoke. */
export function answered(durationSeconds: number | null | undefined): boolean {
  return typeof durationSeconds === 'number' && durationSeconds > 0;
}
