/**
 * A plan as one batch: the CSV (one row per call — every repeat of every case — its id as the `test_case_id` variable and its repeat as `test_repeat`), and the
 * way back from the batch's executions to the cases.
 */
import type { Execution } from '../api/schemas/execution';
import { csvField } from '../calls/csv';
import { executionNumber, rowVariables } from '../placement/row-variables';
import { CASE_ID_VARIABLE, REPEAT_VARIABLE, repeatsOf, type TestPlan } from './schema';

export { executionNumber, rowVariables };

/** One call of a run: a case and its repeat number (from 1). */
export interface CallKey {
  caseId: string;
  repeat: number;
}
export const callKey = (caseId: string, repeat: number) => `${caseId}#${repeat}`;

/** Every call of the plan, case by case: each case's repeats 1..N. */
export const planCalls = (plan: TestPlan): CallKey[] =>
  plan.cases.flatMap((c) => Array.from({ length: repeatsOf(plan, c) }, (_, i) => ({ caseId: c.id, repeat: i + 1 })));

/**
 * `contact_number`, `test_case_id`, `test_repeat` (only when a row repeats a case), then every variable
 * any case uses (blank where a case has none). A row per call: every repeat of every case, or the
 * calls given (a retry's placement).
 */
export function planCsv(plan: TestPlan, calls: readonly CallKey[] = planCalls(plan)): string {
  const byId = new Map(plan.cases.map((c) => [c.id, c]));
  const chosen = calls.filter((k) => byId.has(k.caseId));
  const names = [...new Set(chosen.flatMap((k) => Object.keys(byId.get(k.caseId)!.variables)))];
  const repeats = chosen.some((k) => k.repeat > 1);
  const header = ['contact_number', CASE_ID_VARIABLE, ...(repeats ? [REPEAT_VARIABLE] : []), ...names];
  const rows = chosen.map((k) => {
    const c = byId.get(k.caseId)!;
    return [c.contact_number, c.id, ...(repeats ? [String(k.repeat)] : []), ...names.map((n) => c.variables[n] ?? '')];
  });
  return [header, ...rows].map((cells) => cells.map(csvField).join(',')).join('\n') + '\n';
}

/** The repeat number an execution carries (1 when its row had none). */
export function repeatOf(execution: Execution): number {
  const n = Number(rowVariables(execution)[REPEAT_VARIABLE]);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * Executions by call (callKey: case id and repeat). A retried row may give two executions for a call:
 * the latest (by `updated_at`, else list order) is kept.
 */
export function executionsByCall(plan: TestPlan, executions: readonly Execution[]): Map<string, Execution> {
  const out = new Map<string, Execution>();
  for (const execution of executions) {
    const caseId = caseOf(plan, execution);
    if (!caseId) continue;
    const key = callKey(caseId, repeatOf(execution));
    const previous = out.get(key);
    if (!previous || (previous.updated_at ?? '') <= (execution.updated_at ?? '')) out.set(key, execution);
  }
  return out;
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
