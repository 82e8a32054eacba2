/**
 * The regression gate: a run beside its plan's baseline (a run pinned in the side panel, or the JSON
 * report given as `--baseline`). Each case is one of:
 * - `flipped`: it passed in the baseline and does not now, and no call of it passed now (a regression);
 * - `flaky`: it passed in the baseline and does not now, but some of its calls passed (or the baseline's
 *   were mixed): reported, not a regression;
 * - `already-failing`: it did not pass in the baseline either;
 * - `fixed`: it did not pass in the baseline and does now;
 * - `passing`: it passed in both; `new`: not in the baseline; `unfinished`: the run was cut short before
 *   its calls ended (cancelled, --max-wait), so nothing can be said.
 * Pass rates are compared beside. The exit code follows (exitFor). Pure.
 */
import { z } from '../zod';
import type { CaseResult, RunResult, Verdict } from './judge';

export const GATE_CHANGES = ['flipped', 'flaky', 'already-failing', 'fixed', 'passing', 'new', 'unfinished'] as const;
export type GateChange = (typeof GATE_CHANGES)[number];

export interface CaseGate {
  caseId: string;
  label: string;
  change: GateChange;
  blocking: boolean;
  /** Pass rates (0–1); null where the case is not in the baseline. */
  before: number | null;
  after: number;
}

export interface GateReport {
  cases: CaseGate[];
  /** Blocking cases that flipped pass → fail: the regressions. */
  regressions: string[];
  /** The baseline's run, as it says of itself. */
  baseline: { startedAt: string | null; batchId: string | null; verdict: Verdict };
}

/** The pass rate of a case in a run (a run from before repeats: 1 or 0 by its verdict). */
export const passRate = (c: Pick<CaseResult, 'verdict' | 'repeats'>) => c.repeats?.passRate ?? (c.verdict === 'pass' ? 1 : 0);
const mixed = (c: Pick<CaseResult, 'repeats'>) => !!c.repeats?.flaky;

export function gateRun(baseline: RunResult, run: RunResult): GateReport {
  const before = new Map(baseline.cases.map((c) => [c.caseId, c]));
  const cases = run.cases.map((c): CaseGate => {
    const b = before.get(c.caseId);
    const blocking = (c.gate ?? 'blocking') === 'blocking';
    const after = passRate(c);
    if (!b) return { caseId: c.caseId, label: c.label, change: 'new', blocking, before: null, after };
    if (c.unfinished) return { caseId: c.caseId, label: c.label, change: 'unfinished', blocking, before: passRate(b), after };
    const was = b.verdict === 'pass';
    const is = c.verdict === 'pass';
    const change: GateChange = was && is ? 'passing' : !was && is ? 'fixed' : !was ? 'already-failing' : mixed(c) || mixed(b) || after > 0 ? 'flaky' : 'flipped';
    return { caseId: c.caseId, label: c.label, change, blocking, before: passRate(b), after };
  });
  return {
    cases,
    regressions: cases.filter((c) => c.change === 'flipped' && c.blocking).map((c) => c.caseId),
    baseline: { startedAt: baseline.startedAt, batchId: baseline.batchId, verdict: baseline.verdict },
  };
}

/**
 * The command line's exit for a finished run (docs/test-plans.md, "Exit codes"):
 * - 3 (`regression`): with a baseline, a blocking case flipped pass → fail;
 * - 1 (`failed`): the run was cut short, or a blocking case did not reach its pass rate — with a baseline, only one that is new
 *   (cases already failing in the baseline, and flaky ones, are reported and do not fail the job);
 * - 0 otherwise. Advisory cases never decide it.
 */
export function exitFor(run: RunResult, gate: GateReport | null): 'pass' | 'failed' | 'regression' {
  if (gate?.regressions.length) return 'regression';
  // Cut short (--max-wait): what did not end decides nothing, but the job did not get its answer.
  if (run.interrupted) return 'failed';
  const failing = run.cases.filter((c) => (c.gate ?? 'blocking') === 'blocking' && c.verdict !== 'pass');
  if (!gate) return failing.length ? 'failed' : 'pass';
  const change = new Map(gate.cases.map((c) => [c.caseId, c.change]));
  return failing.some((c) => change.get(c.caseId) === 'new') ? 'failed' : 'pass';
}

/** What a baseline file must hold: the JSON report of an earlier run (`--json`), any version with these. */
const baselineFile = z.looseObject({
  format: z.literal('voice-agent-test-run', 'must be "voice-agent-test-run" (the --json report of a run)'),
  verdict: z.enum(['pass', 'fail', 'error']),
  batchId: z.string().nullable().optional(),
  startedAt: z.string().nullable().optional(),
  cases: z.array(
    z.looseObject({
      caseId: z.string(),
      label: z.string(),
      verdict: z.enum(['pass', 'fail', 'error']),
      repeats: z.looseObject({ passRate: z.number().min(0).max(1), flaky: z.boolean() }).optional(),
    }),
  ),
});

/** Reads a baseline (a run's JSON report); a readable problem otherwise. */
export function parseBaseline(text: string): { ok: true; run: RunResult } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `it is not JSON: ${(e as Error).message}` };
  }
  const parsed = baselineFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, problem: `${issue.path.join('.') || 'the file'}: ${issue.message}` };
  }
  // Checked above for what the gate reads; the rest is the report as this tool wrote it.
  return { ok: true, run: { batchId: null, startedAt: null, ...parsed.data } as unknown as RunResult };
}

/** The gate as lines for a terminal. */
export function gateLines(gate: GateReport): string[] {
  const pct = (r: number | null) => (r === null ? '-' : `${Math.round(r * 100)}%`);
  const of = (change: GateChange) => gate.cases.filter((c) => c.change === change);
  const list = (cs: CaseGate[]) => cs.map((c) => `${c.caseId} ${pct(c.before)} → ${pct(c.after)}${c.blocking ? '' : ' (advisory)'}`).join(', ');
  const lines = [`Against the baseline (${gate.baseline.startedAt ?? 'undated'}${gate.baseline.batchId ? `, batch ${gate.baseline.batchId}` : ''}):`];
  const flipped = of('flipped');
  lines.push(flipped.length ? `  Regressions (pass → fail): ${list(flipped)}` : '  No regressions (pass → fail).');
  if (of('flaky').length) lines.push(`  Flaky (passed before, mixed now; not a regression): ${list(of('flaky'))}`);
  if (of('already-failing').length) lines.push(`  Already failing in the baseline: ${list(of('already-failing'))}`);
  if (of('fixed').length) lines.push(`  Fixed (fail → pass): ${list(of('fixed'))}`);
  if (of('unfinished').length) lines.push(`  Not finished (nothing to compare): ${of('unfinished').map((c) => c.caseId).join(', ')}`);
  if (of('new').length) lines.push(`  New (not in the baseline): ${of('new').map((c) => c.caseId).join(', ')}`);
  const dropped = gate.cases.filter((c) => c.before !== null && c.after < c.before && c.change !== 'flipped');
  if (dropped.length) lines.push(`  Pass rate down: ${list(dropped)}`);
  return lines;
}
