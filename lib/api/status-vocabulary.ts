/**
 * The status vocabulary with no zod in it, so UI bundles can import it without the schema library.
 */
/** Execution statuses of spec 3.1, plus `prepared` (a batch row not yet dialled, seen live). */
export const EXECUTION_STATUSES = [
  'prepared',
  'scheduled',
  'queued',
  'rescheduled',
  'initiated',
  'ringing',
  'in-progress',
  'call-disconnected',
  'completed',
  'no-answer',
  'busy',
  'failed',
  'canceled',
  'stopped',
  'error',
  'balance-low',
] as const;
export type KnownExecutionStatus = (typeof EXECUTION_STATUSES)[number];
/** Unknown statuses are kept as they came (the service may add some); they count as not terminal. */
export type ExecutionStatus = KnownExecutionStatus | (string & {});

export const TERMINAL_EXECUTION_STATUSES: readonly KnownExecutionStatus[] = [
  'completed',
  'no-answer',
  'busy',
  'failed',
  'canceled',
  'stopped',
  'error',
  'balance-low',
];

/** Old spellings seen on the live service, mapped to the spec's. */
const EXECUTION_STATUS_ALIASES: Record<string, KnownExecutionStatus> = {
  balance_low: 'balance-low',
  no_answer: 'no-answer',
  cancelled: 'canceled',
  in_progress: 'in-progress',
  call_disconnected: 'call-disconnected',
};

export function normalizeExecutionStatus(raw: string): ExecutionStatus {
  const lower = raw.trim().toLowerCase();
  return EXECUTION_STATUS_ALIASES[lower] ?? lower;
}

export function isTerminalExecutionStatus(status: ExecutionStatus): boolean {
  return (TERMINAL_EXECUTION_STATUSES as readonly string[]).includes(status);
}

/** Batch statuses of spec 3.2; older live answers use `queued` and `executed`. */
export const BATCH_STATUSES = ['created', 'scheduled', 'queued', 'running', 'completed', 'executed', 'stopped', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number] | (string & {});
