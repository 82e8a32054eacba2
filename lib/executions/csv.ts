/**
 * An agent's executions as CSV: one row per execution in the service's own words, values as the service gave
 * them (ISO times, seconds, cents) so a spreadsheet can compute with them.
 */
import type { Execution } from '../api/schemas/execution';
import { csvField } from '../calls/csv';
import { executionDuration } from './duration';

export const EXECUTION_CSV_COLUMNS = [
  'execution_id',
  'created_at',
  'to_number',
  'from_number',
  'status',
  'conversation_duration_seconds',
  'total_cost_cents',
  'batch_id',
] as const;

type ListedExecution = Pick<Execution, 'id' | 'status' | 'created_at' | 'total_cost' | 'batch_id' | 'telephony_data'> & {
  conversation_duration?: number | null;
  conversation_time?: number | null;
};

/**
 * A spreadsheet runs a cell starting with = @ (or + - not followed by a digit) as a formula: such text from the
 * service is prefixed with an apostrophe. Phone numbers (+1415…) and negative numbers are left as they are.
 */
export function spreadsheetSafe(value: string): string {
  return /^(?:[=@\t\r]|[+-](?![\d.]))/.test(value) ? `'${value}` : value;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** The cells of one execution, in EXECUTION_CSV_COLUMNS order. */
export function executionCsvCells(execution: ListedExecution): string[] {
  return [
    execution.id,
    text(execution.created_at),
    text(execution.telephony_data?.to_number),
    text(execution.telephony_data?.from_number),
    execution.status,
    text(executionDuration(execution)),
    text(execution.total_cost),
    text(execution.batch_id),
  ];
}

/** The whole file: a header, then one line per execution (CRLF line ends, as RFC 4180 writes them). */
export function executionsCsv(executions: readonly ListedExecution[]): string {
  const lines = [EXECUTION_CSV_COLUMNS.join(','), ...executions.map((e) => executionCsvCells(e).map((cell) => csvField(spreadsheetSafe(cell))).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** The file's name: the agent and the days it covers, safe on every system. */
export function executionsCsvName(agentName: string, fromDate: string, toDate: string): string {
  const base = `executions-${agentName || 'agent'}-${fromDate}-to-${toDate}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
  return `${base}.csv`;
}
