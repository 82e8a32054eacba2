/**
 * Failure triage: why a call of a case did not pass, classed from the service's own record of it
 * (its status, `telephony_data` hangup fields, its duration; service-facts.md) — never from our guess.
 *
 * - `no-connection`: the line never connected: busy, no-answer, failed, canceled before answer, a
 *   carrier hangup (`hangup_by: Carrier`, or a provider code below 4000: 1xxx cancel, 2xxx unreachable,
 *   3xxx busy / no answer), or a "completed" call of zero duration (completed does not prove an answer).
 * - `account-or-service`: the service did not place it: balance-low, error, a call it never made (no
 *   execution), a batch it refused (5xx or otherwise), a call stopped by someone other than this run.
 * - `agent`: the call happened and an expectation did not hold.
 * - `plan`: an expectation that cannot be met as written: it names an extracted field the agent's
 *   extraction never carries (its other fields are there: a misspelt name), or asks `min`/`max` of text
 *   that is not a number.
 * Pure.
 */
import type { Execution } from '../api/schemas/execution';

/** What triage reads of an expectation's outcome (judge.ts's ExpectationOutcome). */
interface Outcome {
  name: string;
  passed: boolean;
}

export const TRIAGE_CLASSES = ['no-connection', 'account-or-service', 'agent', 'plan'] as const;
export type Triage = (typeof TRIAGE_CLASSES)[number];

/** As a person reads it (English reports; the panel has its own words). */
export const TRIAGE_TEXT: Record<Triage, string> = {
  'no-connection': 'no connection',
  'account-or-service': 'account or service',
  agent: 'agent',
  plan: 'plan',
};

const NO_CONNECTION_STATUSES = new Set(['busy', 'no-answer', 'no_answer', 'failed', 'canceled', 'cancelled']);
const SERVICE_STATUSES = new Set(['error', 'balance-low', 'balance_low', 'stopped']);

/** The carrier ended it before anyone answered. */
function carrierHangup(execution: Execution): boolean {
  const t = execution.telephony_data;
  if (!t) return false;
  if (typeof t.hangup_by === 'string' && t.hangup_by.trim().toLowerCase() === 'carrier') return true;
  const code = t.hangup_provider_code;
  return typeof code === 'number' && code > 0 && code < 4000;
}

/** A completed call that lasted nothing: the callee never answered (and no voicemail took it). */
function zeroDuration(execution: Execution): boolean {
  if (execution.status !== 'completed' || execution.answered_by_voice_mail) return false;
  const talk = execution.conversation_duration;
  const line = execution.telephony_data?.duration;
  return talk === 0 && (line === null || line === undefined || line === 0);
}

/** Whether this execution's line never connected (what `retry_no_connection` places again). */
export function neverConnected(execution: Execution): boolean {
  return NO_CONNECTION_STATUSES.has(execution.status) || carrierHangup(execution) || zeroDuration(execution);
}

const fieldOf = (name: string) => /^extracted\.(.+) (?:equals|one_of|contains|matches|range|present|absent)$/.exec(name)?.[1];

/** An outcome whose expectation cannot be met as the plan wrote it. */
function unmeetable(o: Outcome, execution: Execution): boolean {
  const field = fieldOf(o.name);
  if (!field) return false;
  const data = execution.extracted_data;
  const carried = data && typeof data === 'object' ? Object.keys(data) : [];
  if (/ absent$/.test(o.name)) return false;
  if (carried.length > 0 && !carried.includes(field)) return true;
  if (/ range$/.test(o.name)) {
    const value = data?.[field];
    return typeof value === 'string' && value.trim() !== '' && !Number.isFinite(Number(value));
  }
  return false;
}

/**
 * The class of one call that did not pass; null for a call that passed, or one a stop or the time limit
 * cut short (`unfinished`: not a failure of anything).
 */
export function triageCall(input: {
  verdict: 'pass' | 'fail' | 'error';
  execution: Execution | undefined;
  outcomes: readonly Outcome[];
  unfinished?: unknown;
  /** The run's batch was never placed (the service refused it). */
  notPlaced?: boolean;
}): Triage | null {
  const { verdict, execution, outcomes } = input;
  if (verdict === 'pass' || input.unfinished) return null;
  if (input.notPlaced || !execution) return 'account-or-service';
  if (SERVICE_STATUSES.has(execution.status)) return 'account-or-service';
  if (neverConnected(execution)) return 'no-connection';
  const failed = outcomes.filter((o) => !o.passed);
  // Every failing expectation is one the call could not have met as written: fix the plan, not the agent.
  if (failed.length && failed.every((o) => unmeetable(o, execution))) return 'plan';
  return verdict === 'error' ? 'account-or-service' : 'agent';
}
