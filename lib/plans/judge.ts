/**
 * The judge: (plan, executions by case id) → a verdict per case and for the run. Pure.
 * A case is `error` when its call never happened (no execution, not finished, or it ended without
 * being placed — failed, error, balance-low, canceled, stopped — unless the case expects that very
 * status); `fail` when any expectation does not hold; else `pass`.
 */
import type { Execution } from '../api/schemas/execution';
import { isTerminalExecutionStatus } from '../api/status-vocabulary';
import { executionLatency, latencyChecks, saidOutcomes } from './checks';
import type { ScriptStepResult } from './checks-schema';
import type { LatencyFigures } from './latency';
import { fieldMatches, matchers, type Match } from './matchers';
import type { SensitivePattern } from './sensitive';
import type { TestCase, TestPlan } from './schema';

export type Verdict = 'pass' | 'fail' | 'error';

/**
 * Why a run ended before every call had: `cancelled` (someone stopped it: Ctrl-C, a CI cancel, Stop)
 * or `not-finished` (its time limit, --max-wait, was reached). A case whose call had not ended then is
 * in error with this reason, never "the call never happened".
 */
export type Interruption = 'cancelled' | 'not-finished';

export interface ExpectationOutcome extends Match {
  /** What was checked, as a person reads it: `status`, `extracted.interested equals`, `transcript contains`. */
  name: string;
}

export interface CaseResult {
  caseId: string;
  label: string;
  contactNumber: string;
  verdict: Verdict;
  /** Why the call never happened, or why it had not finished (verdict `error`). */
  error: string | null;
  /** Set when the run was interrupted before this case's call ended (verdict `error`). */
  unfinished?: Interruption | null;
  outcomes: ExpectationOutcome[];
  executionId: string | null;
  /** The call's outcome: the status, or `voicemail` for a completed call answered by voicemail. */
  status: string | null;
  durationSeconds: number | null;
  costCents: number | null;
  transcript: string | null;
  extracted: Record<string, unknown> | null;
  /** The call's latency figures from its `latency_data`, when it carries them. */
  latency?: LatencyFigures | null;
  /** A guided case: each caller script step with the tester's mark (lib/plans/guided.ts). */
  script?: ScriptStepResult[];
}

export interface RunResult {
  planName: string;
  agentId: string;
  batchId: string | null;
  verdict: Verdict;
  counts: Record<Verdict, number>;
  cases: CaseResult[];
  /** Wall-clock ms from the run's start to its verdict, when known. */
  durationMs: number | null;
  totalCostCents: number;
  startedAt: string | null;
  finishedAt: string | null;
  /** The run ended before every call had (see Interruption). */
  interrupted?: Interruption | null;
}

const NOT_PLACED = new Set(['failed', 'error', 'balance-low', 'canceled', 'stopped']);

/** `voicemail` for a completed call the voicemail answered; the status otherwise. */
export function callOutcome(execution: Execution): string {
  return execution.status === 'completed' && execution.answered_by_voice_mail ? 'voicemail' : execution.status;
}

const expectedStatuses = (c: TestCase): string[] => (c.expect.status === undefined ? [] : [c.expect.status].flat());

function outcomesFor(c: TestCase, execution: Execution, patterns: readonly SensitivePattern[]): ExpectationOutcome[] {
  const e = c.expect;
  const out: ExpectationOutcome[] = [];
  const statuses = expectedStatuses(c);
  if (statuses.length) out.push({ name: 'status', ...matchers.status(statuses, callOutcome(execution)) });
  for (const [field, expectation] of Object.entries(e.extracted ?? {})) {
    const actual = execution.extracted_data?.[field];
    for (const { check, ...m } of fieldMatches(expectation, actual)) out.push({ name: `extracted.${field} ${check}`, ...m });
  }
  for (const phrase of e.transcript?.contains ?? []) out.push({ name: 'transcript contains', ...matchers.transcriptContains(phrase, execution.transcript) });
  for (const phrase of e.transcript?.not_contains ?? []) out.push({ name: 'transcript does not contain', ...matchers.transcriptNotContains(phrase, execution.transcript) });
  const seconds = execution.conversation_duration;
  if (e.duration?.at_least !== undefined) out.push({ name: 'duration', ...matchers.durationAtLeast(e.duration.at_least, seconds) });
  if (e.duration?.at_most !== undefined) out.push({ name: 'duration', ...matchers.durationAtMost(e.duration.at_most, seconds) });
  if (e.cost) out.push({ name: 'cost', ...matchers.costAtMost(e.cost.at_most, execution.total_cost) });
  if (e.hangup_by) out.push({ name: 'hung up by', ...matchers.hangupBy(e.hangup_by, execution.telephony_data?.hangup_by) });
  out.push(...saidOutcomes(e, execution, patterns), ...latencyChecks(e, execution));
  return out;
}

function neverHappened(c: TestCase, execution: Execution | undefined): string | null {
  if (!execution) return 'No execution of the batch carries this case.';
  if (!isTerminalExecutionStatus(execution.status)) return `The call had not finished (last status: ${execution.status}).`;
  if (NOT_PLACED.has(execution.status) && !expectedStatuses(c).includes(execution.status)) {
    return `The call was not placed: ${execution.status}${execution.error_message ? ` (${execution.error_message})` : ''}.`;
  }
  return null;
}

const INTERRUPTED_TEXT: Record<Interruption, string> = {
  cancelled: 'Cancelled: the run was stopped before this call ended',
  'not-finished': 'Not finished: the run reached its time limit (--max-wait) before this call ended',
};

/**
 * In an interrupted run, a call is unfinished when it had not ended, or ended `stopped` (the run's own
 * stop ended it). Anything else that ended is judged as usual.
 */
function unfinishedIn(interrupted: Interruption | null | undefined, execution: Execution | undefined): Interruption | null {
  if (!interrupted) return null;
  if (!execution || !isTerminalExecutionStatus(execution.status) || execution.status === 'stopped') return interrupted;
  return null;
}

/** `patterns`: the plan's own sensitive patterns (for `agent_never_reveals`). */
export function judgeCase(c: TestCase, execution: Execution | undefined, interrupted?: Interruption | null, patterns: readonly SensitivePattern[] = []): CaseResult {
  const unfinished = unfinishedIn(interrupted, execution);
  const error = unfinished
    ? `${INTERRUPTED_TEXT[unfinished]}${execution ? ` (last status: ${execution.status})` : ' (it had not been dialled)'}.`
    : neverHappened(c, execution);
  const outcomes = execution && !error ? outcomesFor(c, execution, patterns) : [];
  return {
    caseId: c.id,
    label: c.label,
    contactNumber: c.contact_number,
    verdict: error ? 'error' : outcomes.every((o) => o.passed) ? 'pass' : 'fail',
    error,
    unfinished,
    outcomes,
    executionId: execution?.id ?? null,
    status: execution ? callOutcome(execution) : null,
    durationSeconds: execution?.conversation_duration ?? null,
    costCents: execution?.total_cost ?? null,
    transcript: execution?.transcript ?? null,
    extracted: execution?.extracted_data ?? null,
    latency: execution ? executionLatency(execution) : null,
  };
}

export interface RunTiming {
  batchId?: string | null;
  startedAt?: number;
  finishedAt?: number;
  /** The run ended before every call had: unfinished cases say why (never "call never happened"). */
  interrupted?: Interruption | null;
}

/** Any failing case fails the run; otherwise any case in error makes it `error`; else `pass`. */
export function judgeRun(plan: TestPlan, executions: ReadonlyMap<string, Execution>, timing: RunTiming = {}): RunResult {
  const cases = plan.cases.map((c) => judgeCase(c, executions.get(c.id), timing.interrupted, plan.sensitive_patterns));
  const counts: Record<Verdict, number> = { pass: 0, fail: 0, error: 0 };
  for (const r of cases) counts[r.verdict]++;
  const totalCostCents = Math.round(cases.reduce((sum, r) => sum + (r.costCents ?? 0), 0) * 100) / 100;
  const iso = (t: number | undefined) => (t === undefined ? null : new Date(t).toISOString());
  return {
    planName: plan.name,
    agentId: plan.agent_id,
    batchId: timing.batchId ?? null,
    verdict: counts.fail ? 'fail' : counts.error ? 'error' : 'pass',
    counts,
    cases,
    durationMs: timing.startedAt !== undefined && timing.finishedAt !== undefined ? timing.finishedAt - timing.startedAt : null,
    totalCostCents,
    startedAt: iso(timing.startedAt),
    finishedAt: iso(timing.finishedAt),
    interrupted: timing.interrupted ?? null,
  };
}
