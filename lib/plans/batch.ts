/**
 * A plan as one batch: the CSV (one row per case, its id as the `test_case_id` variable), and the
 * way back from the batch's executions to the cases.
 */
import type { Execution } from '../api/schemas/execution';
import { csvField } from '../calls/csv';
import { executionNumber, rowVariables } from '../placement/row-variables';
import { CASE_ID_VARIABLE, type TestPlan } from './schema';

export { executionNumber, rowVariables };

/** `contact_number`, `test_case_id`, then every variable any case uses (blank where a case has none). */
export function planCsv(plan: TestPlan): string {
  const names = [...new Set(plan.cases.flatMap((c) => Object.keys(c.variables)))];
  const header = ['contact_number', CASE_ID_VARIABLE, ...names];
  const rows = plan.cases.map((c) => [c.contact_number, c.id, ...names.map((n) => c.variables[n] ?? '')]);
  return [header, ...rows].map((cells) => cells.map(csvField).join(',')).join('\n') + '\n';
}

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
