/**
 * A plan as one batch: the CSV (one row per case, its id as the `test_case_id` variable), and the
 * way back from the batch's executions to the cases.
 */
import type { Execution } from '../api/schemas/execution';
import { csvField } from '../calls/csv';
import { CASE_ID_VARIABLE, type TestPlan } from './schema';

/** `contact_number`, `test_case_id`, then every variable any case uses (blank where a case has none). */
export function planCsv(plan: TestPlan): string {
  const names = [...new Set(plan.cases.flatMap((c) => Object.keys(c.variables)))];
  const header = ['contact_number', CASE_ID_VARIABLE, ...names];
  const rows = plan.cases.map((c) => [c.contact_number, c.id, ...names.map((n) => c.variables[n] ?? '')]);
  return [header, ...rows].map((cells) => cells.map(csvField).join(',')).join('\n') + '\n';
}

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

/** The case an execution belongs to: its case id variable, else its number when exactly one case calls it. */
export function caseOf(plan: TestPlan, execution: Execution): string | undefined {
  const tagged = rowVariables(execution)[CASE_ID_VARIABLE];
  if (typeof tagged === 'string' && plan.cases.some((c) => c.id === tagged)) return tagged;
  const number = executionNumber(execution);
  const candidates = number ? plan.cases.filter((c) => c.contact_number === number) : [];
  return candidates.length === 1 ? candidates[0]!.id : undefined;
}

/**
 * Executions by case id (see caseOf). A retried row may give two executions for a case: the latest
 * (by `updated_at`, else list order) is kept.
 */
export function executionsByCase(plan: TestPlan, executions: readonly Execution[]): Map<string, Execution> {
  const out = new Map<string, Execution>();
  for (const execution of executions) {
    const caseId = caseOf(plan, execution);
    if (!caseId) continue;
    const previous = out.get(caseId);
    if (!previous || (previous.updated_at ?? '') <= (execution.updated_at ?? '')) out.set(caseId, execution);
  }
  return out;
}
