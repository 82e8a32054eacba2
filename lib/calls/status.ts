import { isTerminalExecutionStatus, type ExecutionStatus } from '../api/status-vocabulary';

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

/** A person's words for each status, shown in the timeline and notifications. */
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

/** Plain explanation of each terminal status, shown with the result. */
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

export function statusLabel(status: string | null | undefined): string {
  if (!status) return 'Unknown';
  return STATUS_LABELS[status] ?? status;
}

/** `completed` does not prove the callee answered: a zero duration means nobody spoke. */
export function answered(durationSeconds: number | null | undefined): boolean {
  return typeof durationSeconds === 'number' && durationSeconds > 0;
}
