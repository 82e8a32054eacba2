/** What an execution says about the row (or `POST /call`) that made it: its variables and its number. */
import type { Execution } from '../api/schemas/execution';

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * The CSV row's variables as an execution carries them: live, `context_details.recipient_data`;
 * other forms seen or plausible (`context_details.user_data`, a top-level `user_data` as `POST /call`
 * takes it, or the variables flat in `context_details`) are read too.
 */
export function rowVariables(execution: Execution): Record<string, unknown> {
  const context = asRecord(execution.context_details);
  const top = execution as Record<string, unknown>;
  return { ...context, ...asRecord(top.user_data), ...asRecord(context?.user_data), ...asRecord(context?.recipient_data) };
}

export const executionNumber = (execution: Execution): string | undefined => {
  const context = asRecord(execution.context_details);
  const fromContext = typeof context?.recipient_phone_number === 'string' ? context.recipient_phone_number : undefined;
  return execution.telephony_data?.to_number ?? fromContext ?? undefined;
};
