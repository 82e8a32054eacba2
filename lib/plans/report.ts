/** A run's results as plain text for a terminal: a table, one row per case, and a closing summary. */
import { failureLines, reasonLines } from './export';
import { passesText } from './repeats';
import { TRIAGE_TEXT } from './triage';
import type { CaseResult, RunResult } from './judge';
import { ACCOUNT_CURRENCY, formatCents } from '../money';

const VERDICT_WORD = { pass: 'PASS', fail: 'FAIL', error: 'ERROR' } as const;
const UNFINISHED_WORD = { cancelled: 'CANCELLED', 'not-finished': 'NOT FINISHED' } as const;

/** A case's word in the table: its verdict, or why its call had not ended when the run was interrupted. */
const caseWord = (c: CaseResult) => (c.unfinished ? UNFINISHED_WORD[c.unfinished] : VERDICT_WORD[c.verdict]);

/** Money as the extension shows it (lib/money.ts), in English: a terminal's report is English. */
const money = (cents: number) => formatCents(cents, ACCOUNT_CURRENCY, 'en-US');

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

const problemOf = (c: CaseResult) => {
  const text = c.error ?? failureLines(c)[0] ?? '';
  return text && c.triage ? `[${TRIAGE_TEXT[c.triage]}] ${text}` : text;
};

/** The run called some case more than once: the table shows passes of N. */
const repeated = (run: RunResult) => run.cases.some((c) => (c.repeats?.calls ?? 1) > 1);

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

export function resultTable(run: RunResult): string {
  const withPasses = repeated(run);
  const head = ['VERDICT', ...(withPasses ? ['PASSES'] : []), 'CASE', 'LABEL', 'STATUS', 'TIME', 'COST', 'FIRST PROBLEM'];
  const rows = run.cases.map((c) => [
    caseWord(c) + (c.gate === 'advisory' ? ' (advisory)' : ''),
    ...(withPasses ? [c.repeats ? `${passesText(c.repeats)}${c.repeats.flaky ? ' flaky' : ''}` : '-'] : []),
    c.caseId,
    c.label.length > 40 ? `${c.label.slice(0, 39)}…` : c.label,
    c.status ?? '-',
    c.durationSeconds === null ? '-' : `${c.durationSeconds}s`,
    c.costCents === null ? '-' : money(c.costCents),
    problemOf(c).replace(/\s+/g, ' '),
  ]);
  return table([head, ...rows]);
}

export function summaryLines(run: RunResult): string[] {
  const { pass, fail } = run.counts;
  const cancelled = run.cases.filter((c) => c.unfinished === 'cancelled').length;
  const notFinished = run.cases.filter((c) => c.unfinished === 'not-finished').length;
  const error = run.counts.error - cancelled - notFinished;
  const word = run.interrupted ? UNFINISHED_WORD[run.interrupted] : VERDICT_WORD[run.verdict];
  const lines = [
    `${word}: ${pass} passed, ${fail} failed, ${error} in error${cancelled ? `, ${cancelled} cancelled` : ''}${notFinished ? `, ${notFinished} not finished` : ''} of ${run.cases.length} cases` +
      ` · cost ${money(run.totalCostCents)}${run.durationMs === null ? '' : ` · ${formatDuration(run.durationMs)}`}` +
      (run.batchId ? ` · batch ${run.batchId}` : ''),
  ];
  const named = (pick: (c: CaseResult) => boolean) => run.cases.filter(pick).map((c) => `${c.caseId} (${c.label})`).join(', ');
  if (fail) lines.push(`Failed: ${named((c) => c.verdict === 'fail')}`);
  if (error) lines.push(`In error (call never happened): ${named((c) => c.verdict === 'error' && !c.unfinished)}`);
  if (cancelled) lines.push(`Cancelled before their calls ended: ${named((c) => c.unfinished === 'cancelled')}`);
  if (notFinished) lines.push(`Not finished at the time limit: ${named((c) => c.unfinished === 'not-finished')}`);
  const advisory = run.advisory ?? { pass: 0, fail: 0, error: 0 };
  if (advisory.fail + advisory.error + advisory.pass) {
    const b = run.blocking ?? run.counts;
    lines.push(`Blocking: ${b.pass} passed, ${b.fail} failed, ${b.error} in error (the verdict follows these) · advisory: ${advisory.pass} passed, ${advisory.fail} failed, ${advisory.error} in error`);
  }
  if (repeated(run) && run.calls !== undefined) {
    const flaky = run.cases.filter((c) => c.repeats?.flaky);
    lines.push(`Calls: ${run.passedCalls ?? 0} of ${run.calls} passed${flaky.length ? ` · flaky: ${flaky.map((c) => c.caseId).join(', ')}` : ''}`);
    for (const c of run.cases.filter((x) => x.verdict !== 'pass' && reasonLines(x).length)) lines.push(`  ${c.caseId}: ${reasonLines(c).join('; ')}`);
  }
  for (const r of run.retries ?? []) {
    lines.push(`Retry ${r.round} (calls that never connected): ${r.calls} placed again${r.batchId ? ` · batch ${r.batchId}` : ''}${r.problem ? ` · not placed: ${r.problem}` : ''}`);
  }
  return lines;
}

export const textReport = (run: RunResult) => `${resultTable(run)}\n\n${summaryLines(run).join('\n')}\n`;
