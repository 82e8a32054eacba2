/**
 * A case called N times: its passes of N, pass rate, whether it is flaky, its worst call, and each
 * failure reason with how often it occurred; and the case's verdict from its `min_pass_rate`. Pure;
 * judge.ts judges each call and hands the calls here.
 */
import type { Gate } from './schema';
import type { CallError, CheckedOutcome } from './outcome-text';
import type { Triage } from './triage';

type Verdict = 'pass' | 'fail' | 'error';

/** One call of a case (one repeat), as judged. */
export interface CallRun {
  repeat: number;
  verdict: Verdict;
  triage: Triage | null;
  /** Set when the run was interrupted before this call ended. */
  unfinished: 'cancelled' | 'not-finished' | null;
  executionId: string | null;
  status: string | null;
  durationSeconds: number | null;
  costCents: number | null;
  /** Why it did not pass: the error, or each failing expectation (`status: expected completed, got busy`). */
  reasons: string[];
  /** The failing expectations behind `reasons`, in the same order (none when the reason is an error); for the results in the UI's language, never exported. */
  failedOutcomes?: CheckedOutcome[];
  /** Why the call never happened (its reason then), as data; never exported. */
  errorCheck?: CallError | null;
  /** Failed expectations (for ranking the worst call). */
  failedChecks: number;
  /**
   * Earlier calls of this repeat that never connected and were placed again (`retry_no_connection`),
   * oldest first; this call is the last try.
   */
  retriedFrom?: Array<{ executionId: string; status: string; batchId: string | null }>;
}

export interface FailureReason {
  reason: string;
  triage: Triage | null;
  count: number;
  /** The failing expectation this reason words (none for an error); for the results in the UI's language, never exported. */
  outcome?: CheckedOutcome;
  /** Why the call never happened, as data (an error reason); never exported. */
  errorCheck?: CallError;
}

export interface CaseRepeats {
  calls: number;
  passes: number;
  /** passes / calls, 0–1. */
  passRate: number;
  minPassRate: number;
  /** It both passed and did not pass in this run. */
  flaky: boolean;
  gate: Gate;
  /** The repeat number of its worst call (null when every call passed). */
  worstRepeat: number | null;
  /** Each reason a call did not pass, with how many calls it happened to; the most frequent first. */
  reasons: FailureReason[];
  /** Calls placed again because their line never connected (`retry_no_connection`). */
  retried: number;
  runs: CallRun[];
}

/** Rates are compared with a little room: 2 of 3 reaches 0.6667 written as 2/3 in binary. */
const EPSILON = 1e-9;

/** How bad a call is: an error (the call never happened) over a failure, more failed checks worse; a cut-short call last of the bad ones. */
function badness(run: CallRun): number {
  if (run.verdict === 'pass') return 0;
  if (run.verdict === 'error') return run.unfinished ? 2 : 4;
  return 3 + Math.min(run.failedChecks, 999) / 1000;
}

export function worstRun(runs: readonly CallRun[]): CallRun | null {
  let worst: CallRun | null = null;
  for (const run of runs) if (badness(run) > 0 && (!worst || badness(run) > badness(worst))) worst = run;
  return worst;
}

export function failureReasons(runs: readonly CallRun[]): FailureReason[] {
  const counts = new Map<string, FailureReason>();
  for (const run of runs) {
    if (run.verdict === 'pass') continue;
    const seen = new Set<string>();
    run.reasons.forEach((reason, i) => {
      if (seen.has(reason)) return;
      seen.add(reason);
      const key = `${run.triage}\u0000${reason}`;
      const known = counts.get(key);
      const outcome = run.failedOutcomes?.[i];
      const errorCheck = !outcome && run.errorCheck ? run.errorCheck : null;
      if (known) known.count++;
      else counts.set(key, { reason, triage: run.triage, count: 1, ...(outcome ? { outcome } : {}), ...(errorCheck ? { errorCheck } : {}) });
    });
  }
  return [...counts.values()].sort((a, b) => b.count - a.count);
}

/** A case's figures over its calls. */
export function summarizeRepeats(runs: readonly CallRun[], rule: { minPassRate: number; gate: Gate }): CaseRepeats {
  const passes = runs.filter((r) => r.verdict === 'pass').length;
  const calls = runs.length;
  const worst = worstRun(runs);
  return {
    calls,
    passes,
    passRate: calls ? passes / calls : 0,
    minPassRate: rule.minPassRate,
    flaky: passes > 0 && passes < calls,
    gate: rule.gate,
    worstRepeat: worst?.repeat ?? null,
    reasons: failureReasons(runs),
    retried: runs.reduce((n, r) => n + (r.retriedFrom?.length ?? 0), 0),
    runs: [...runs],
  };
}

/**
 * The case's verdict: `pass` when its pass rate reaches its minimum; otherwise `fail` when any call
 * failed an expectation, else `error` (no call that did not pass happened at all).
 */
export function repeatsVerdict(summary: Pick<CaseRepeats, 'passRate' | 'minPassRate' | 'runs'>): Verdict {
  if (summary.runs.length && summary.passRate + EPSILON >= summary.minPassRate) return 'pass';
  return summary.runs.some((r) => r.verdict === 'fail') ? 'fail' : 'error';
}

/** "2/3 (67%)". */
export const passesText = (r: Pick<CaseRepeats, 'passes' | 'calls'>) => `${r.passes}/${r.calls} (${Math.round((r.calls ? r.passes / r.calls : 0) * 100)}%)`;
