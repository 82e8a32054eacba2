/**
 * The judge: (plan, executions by case id) → a verdict per case and for the run. Pure.
 * A case is `error` when its call never happened (no execution, not finished, or it ended without
 * being placed — failed, error, balance-low, canceled, stopped — unless the case expects that very
 * status); `fail` when any expectation does not hold; else `pass`.
 */
import type { Execution } from '../api/schemas/execution';
import { isTerminalExecutionStatus } from '../api/status-vocabulary';
import { callKey } from './batch';
import { executionLatency, latencyChecks, saidOutcomes } from './checks';
import type { ScriptStepResult } from './checks-schema';
import type { LatencyFigures } from './latency';
import { fieldMatches, matchers, saidWhere } from './matchers';
import type { CallError, CheckedOutcome, FieldCheck } from './outcome-text';
import { repeatsVerdict, summarizeRepeats, worstRun, type CallRun, type CaseRepeats } from './repeats';
import { gateOf, minPassRateOf, repeatsOf, type Gate, type TestCase, type TestPlan } from './schema';
import type { SensitivePattern } from './sensitive';
import { triageCall, type Triage } from './triage';

export type Verdict = 'pass' | 'fail' | 'error';

/**
 * Why a run ended before every call had: `cancelled` (someone stopped it: Ctrl-C, a CI cancel, Stop)
 * or `not-finished` (its time limit, --max-wait, was reached). A case whose call had not ended then is
 * in error with this reason, never "the call never happened".
 */
export type Interruption = 'cancelled' | 'not-finished';

/**
 * `name`: what was checked, as the exports word it: `status`, `extracted.interested equals`,
 * `transcript contains`. `check`: the same as data, for the results in the UI's language (outcome-text.ts).
 */
export type ExpectationOutcome = CheckedOutcome;

export interface CaseResult {
  caseId: string;
  label: string;
  contactNumber: string;
  verdict: Verdict;
  /** Why the call never happened, or why it had not finished (verdict `error`). */
  error: string | null;
  /** The same as data, for the results in the UI's language (outcome-text.ts); never exported. */
  errorCheck?: CallError | null;
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
  /** Why this call did not pass, from the service's own data (triage.ts); with repeats, of the worst call. */
  triage?: Triage | null;
  /** With repeats: the case's calls and figures. The fields above are then its worst call's (or its first, when all passed). */
  repeats?: CaseRepeats;
  gate?: Gate;
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
  /** Cases by gate: the verdict follows the blocking ones; advisory ones are reported beside. */
  blocking?: Record<Verdict, number>;
  advisory?: Record<Verdict, number>;
  /** Every call of the run (repeats counted) and how many passed. */
  calls?: number;
  passedCalls?: number;
  /** Placements of calls that never connected (`retry_no_connection`), after the first batch. */
  retries?: RetryRound[];
}

export interface RetryRound {
  round: number;
  batchId: string | null;
  calls: number;
  /** Why the retry's placement did not go out, when it did not. */
  problem?: string | null;
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
  const outcome = callOutcome(execution);
  if (statuses.length) out.push({ name: 'status', ...matchers.status(statuses, outcome), check: { kind: 'status', expected: statuses, actual: outcome } });
  for (const [field, expectation] of Object.entries(e.extracted ?? {})) {
    const actual = execution.extracted_data?.[field];
    for (const { check, ...m } of fieldMatches(expectation, actual)) {
      out.push({ name: `extracted.${field} ${check}`, ...m, check: { kind: 'extracted', field, check: check as FieldCheck, expectation, actual } });
    }
  }
  const transcript = execution.transcript;
  // The excerpt where it was said: the transcript's own words (saidWhere's text less its English `said: `).
  const said = (phrase: string) => ({ phrase, transcript: !!transcript, said: saidWhere(phrase, transcript)?.replace(/^said: /, '') ?? null });
  for (const phrase of e.transcript?.contains ?? []) out.push({ name: 'transcript contains', ...matchers.transcriptContains(phrase, transcript), check: { kind: 'transcriptContains', ...said(phrase) } });
  for (const phrase of e.transcript?.not_contains ?? []) out.push({ name: 'transcript does not contain', ...matchers.transcriptNotContains(phrase, transcript), check: { kind: 'transcriptNotContains', ...said(phrase) } });
  const seconds = execution.conversation_duration;
  const secondsOrNull = typeof seconds === 'number' ? seconds : null;
  if (e.duration?.at_least !== undefined) out.push({ name: 'duration', ...matchers.durationAtLeast(e.duration.at_least, seconds), check: { kind: 'duration', bound: 'atLeast', seconds: e.duration.at_least, actual: secondsOrNull } });
  if (e.duration?.at_most !== undefined) out.push({ name: 'duration', ...matchers.durationAtMost(e.duration.at_most, seconds), check: { kind: 'duration', bound: 'atMost', seconds: e.duration.at_most, actual: secondsOrNull } });
  const cost = typeof execution.total_cost === 'number' ? execution.total_cost : null;
  if (e.cost) out.push({ name: 'cost', ...matchers.costAtMost(e.cost.at_most, execution.total_cost), check: { kind: 'cost', cents: e.cost.at_most, actual: cost } });
  if (e.hangup_by) {
    const by = execution.telephony_data?.hangup_by;
    out.push({ name: 'hung up by', ...matchers.hangupBy(e.hangup_by, by), check: { kind: 'hungUpBy', expected: e.hangup_by, actual: by ?? null } });
  }
  out.push(...saidOutcomes(e, execution, patterns), ...latencyChecks(e, execution));
  return out;
}

function neverHappened(c: TestCase, execution: Execution | undefined): { error: string; errorCheck: CallError } | null {
  if (!execution) return { error: 'No execution of the batch carries this case.', errorCheck: { kind: 'noExecution' } };
  const status = execution.status;
  if (!isTerminalExecutionStatus(status)) return { error: `The call had not finished (last status: ${status}).`, errorCheck: { kind: 'notFinished', status } };
  if (NOT_PLACED.has(status) && !expectedStatuses(c).includes(status)) {
    const message = execution.error_message || null;
    return { error: `The call was not placed: ${status}${message ? ` (${message})` : ''}.`, errorCheck: { kind: 'notPlaced', status, message } };
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
  const why = unfinished
    ? {
        error: `${INTERRUPTED_TEXT[unfinished]}${execution ? ` (last status: ${execution.status})` : ' (it had not been dialled)'}.`,
        errorCheck: { kind: 'interrupted', why: unfinished, status: execution?.status ?? null } satisfies CallError,
      }
    : neverHappened(c, execution);
  const error = why?.error ?? null;
  const outcomes = execution && !error ? outcomesFor(c, execution, patterns) : [];
  const verdict: Verdict = error ? 'error' : outcomes.every((o) => o.passed) ? 'pass' : 'fail';
  return {
    caseId: c.id,
    label: c.label,
    contactNumber: c.contact_number,
    verdict,
    error,
    errorCheck: why?.errorCheck ?? null,
    unfinished,
    triage: triageCall({ verdict, execution, outcomes, unfinished }),
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
  /** Earlier calls that never connected, by callKey, oldest first (retry_no_connection). */
  retriedFrom?: ReadonlyMap<string, ReadonlyArray<{ executionId: string; status: string; batchId: string | null }>>;
  retries?: RetryRound[];
}

const failureTexts = (r: CaseResult) => (r.error ? [r.error] : r.outcomes.filter((o) => !o.passed).map((o) => `${o.name}: expected ${o.expected}, got ${o.actual}`));

function callRun(repeat: number, r: CaseResult): CallRun {
  return {
    repeat,
    verdict: r.verdict,
    triage: r.triage ?? null,
    unfinished: r.unfinished ?? null,
    executionId: r.executionId,
    status: r.status,
    durationSeconds: r.durationSeconds,
    costCents: r.costCents,
    reasons: r.verdict === 'pass' ? [] : failureTexts(r),
    failedOutcomes: r.verdict === 'pass' || r.error ? [] : r.outcomes.filter((o) => !o.passed),
    errorCheck: r.errorCheck ?? null,
    failedChecks: r.outcomes.filter((o) => !o.passed).length,
  };
}

/**
 * A case over its calls: each judged (judgeCase), then its figures and verdict (repeats.ts). The
 * result's call fields are its worst call's, so a report of one line per case shows what went wrong.
 */
export function judgeCaseCalls(plan: TestPlan, c: TestCase, executions: ReadonlyArray<Execution | undefined>, timing: RunTiming = {}): CaseResult {
  const judged = Array.from({ length: repeatsOf(plan, c) }, (_, i) => judgeCase(c, executions[i], timing.interrupted, plan.sensitive_patterns));
  const runs = judged.map((r, i) => {
    const retried = timing.retriedFrom?.get(callKey(c.id, i + 1));
    return { ...callRun(i + 1, r), ...(retried?.length ? { retriedFrom: [...retried] } : {}) };
  });
  const repeats = summarizeRepeats(runs, { minPassRate: minPassRateOf(plan, c), gate: gateOf(c) });
  const worst = worstRun(runs);
  const shown = judged[(worst?.repeat ?? 1) - 1]!;
  const verdict = repeatsVerdict(repeats);
  // Unfinished when the run was cut short and no call that did not pass failed for any other reason.
  const bad = runs.filter((r) => r.verdict !== 'pass');
  const unfinished = verdict !== 'pass' && bad.length && bad.every((r) => r.unfinished) ? bad[0]!.unfinished : null;
  return { ...shown, verdict, unfinished, triage: verdict === 'pass' ? null : shown.triage ?? null, repeats, gate: repeats.gate };
}

const zero = (): Record<Verdict, number> => ({ pass: 0, fail: 0, error: 0 });

/**
 * The run's verdict follows its blocking cases: any failing one fails the run; otherwise any in error
 * makes it `error`; else `pass`. Advisory cases are counted beside it. `executions` is keyed by callKey
 * (`case#repeat`), or by case id for a case's first call.
 */
export function judgeRun(plan: TestPlan, executions: ReadonlyMap<string, Execution>, timing: RunTiming = {}): RunResult {
  const cases = plan.cases.map((c) =>
    judgeCaseCalls(
      plan,
      c,
      Array.from({ length: repeatsOf(plan, c) }, (_, i) => executions.get(callKey(c.id, i + 1)) ?? (i === 0 ? executions.get(c.id) : undefined)),
      timing,
    ),
  );
  const counts = zero();
  const blocking = zero();
  const advisory = zero();
  for (const r of cases) {
    counts[r.verdict]++;
    (r.gate === 'advisory' ? advisory : blocking)[r.verdict]++;
  }
  const runsOf = (r: CaseResult) => r.repeats?.runs ?? [];
  const totalCostCents = Math.round(cases.flatMap(runsOf).reduce((sum, r) => sum + (r.costCents ?? 0), 0) * 100) / 100;
  const iso = (t: number | undefined) => (t === undefined ? null : new Date(t).toISOString());
  return {
    planName: plan.name,
    agentId: plan.agent_id,
    batchId: timing.batchId ?? null,
    verdict: blocking.fail ? 'fail' : blocking.error ? 'error' : 'pass',
    counts,
    cases,
    durationMs: timing.startedAt !== undefined && timing.finishedAt !== undefined ? timing.finishedAt - timing.startedAt : null,
    totalCostCents,
    startedAt: iso(timing.startedAt),
    finishedAt: iso(timing.finishedAt),
    interrupted: timing.interrupted ?? null,
    blocking,
    advisory,
    calls: cases.reduce((n, r) => n + runsOf(r).length, 0),
    passedCalls: cases.reduce((n, r) => n + (r.repeats?.passes ?? 0), 0),
    retries: timing.retries ?? [],
  };
}
