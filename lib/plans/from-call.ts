/**
 * Helpers for the extension's plan features, kept pure here: "Save as test case" on a finished call,
 * and the estimated cost a run's confirmation states.
 */
import type { Execution } from '../api/schemas/execution';
import { parseTranscript } from '../executions/transcript';
import type { ScriptStep } from './checks-schema';
import { executionNumber, rowVariables } from './batch';
import { callOutcome } from './judge';
import { CASE_ID_VARIABLE, EXPECTABLE_STATUSES, type ExpectableStatus, type FieldExpectation, type TestCase } from './schema';

/**
 * A case from a finished call: its number, its variables (the case id column left out) and what it
 * extracted, each field as `equals` (blank values as `absent`), and its outcome as the status to
 * expect. A starting point to adjust in the editor; check it with `testCase` before saving.
 */
export function caseFromExecution(execution: Execution, id: string, label: string): TestCase {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(rowVariables(execution))) {
    if (name !== CASE_ID_VARIABLE && typeof value === 'string') variables[name] = value;
  }
  // Only the live key holds the row's variables; flat context keys (like recipient_phone_number) are not variables.
  delete variables.recipient_phone_number;
  const extracted: Record<string, FieldExpectation> = {};
  for (const [field, value] of Object.entries(execution.extracted_data ?? {})) {
    extracted[field] = value === null || value === '' ? { absent: true } : { equals: value };
  }
  const outcome = callOutcome(execution);
  const status = (EXPECTABLE_STATUSES as readonly string[]).includes(outcome) ? (outcome as ExpectableStatus) : undefined;
  return {
    id,
    label,
    contact_number: executionNumber(execution) ?? '',
    variables,
    expect: { ...(status ? { status } : {}), ...(Object.keys(extracted).length ? { extracted } : {}) },
  };
}

/**
 * Estimated cost (cents) of `calls` calls from an agent's recent executions: the mean cost of the
 * recent calls that ended with a cost. Null when there is none to go by.
 */
export function estimateRunCost(recent: readonly Execution[], calls: number): { cents: number; basedOn: number } | null {
  const costs = recent.filter((e) => e.status === 'completed' && typeof e.total_cost === 'number' && e.total_cost > 0).map((e) => e.total_cost as number);
  if (!costs.length) return null;
  const mean = costs.reduce((a, b) => a + b, 0) / costs.length;
  return { cents: Math.round(mean * calls * 100) / 100, basedOn: costs.length };
}

/**
 * The call's caller lines (the transcript's `user` turns) as `say` steps: a guided case's starting
 * point, offered by "Save as test case". Kept within the script's limits (50 steps, 500 characters).
 */
export function callerScriptFromExecution(execution: Execution): ScriptStep[] {
  return parseTranscript(execution.transcript)
    .filter((turn) => turn.speaker === 'user' && turn.text.trim())
    .slice(0, 50)
    .map((turn) => ({ say: turn.text.replace(/\s+/g, ' ').trim().slice(0, 500) }));
}
