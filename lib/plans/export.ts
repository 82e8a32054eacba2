/** A run's results as JUnit XML (what CI systems read), JSON and CSV. Pure string builders. */
import { csvField } from '../calls/csv';
import type { CaseResult, RunResult } from './judge';
import { passesText } from './repeats';
import { TRIAGE_TEXT } from './triage';
import { VIEW_ONLY_KEYS } from './outcome-text';

/** XML 1.0 text: the five special characters escaped, characters XML cannot hold dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

/** The failing expectations of a case, one per line: `status: expected busy, got completed`. */
export function failureLines(result: CaseResult): string[] {
  return result.outcomes.filter((o) => !o.passed).map((o) => `${o.name}: expected ${o.expected}, got ${o.actual}`);
}

/** A case's latency figures and caller script marks, as JUnit properties (only when there are any). */
function caseFigures(result: CaseResult): string[][] {
  const out: string[][] = [];
  const l = result.latency;
  const ms = (n: number | null) => (n === null ? '' : String(Math.round(n)));
  if (l) out.push(['latency_first_audio_ms', ms(l.firstAudioMs)], ['latency_turn_median_ms', ms(l.medianMs)], ['latency_turn_p95_ms', ms(l.p95Ms)], ['latency_turn_worst_ms', ms(l.worstMs)]);
  if (result.script) out.push(['caller_script', scriptSummary(result.script)]);
  return out;
}

/** `5 steps: 3 done, 1 wrong, 1 not marked`. */
export function scriptSummary(steps: readonly { mark: 'done' | 'wrong' | null }[]): string {
  const n = (m: 'done' | 'wrong' | null) => steps.filter((s) => s.mark === m).length;
  return `${steps.length} step${steps.length === 1 ? '' : 's'}: ${n('done')} done, ${n('wrong')} wrong, ${n(null)} not marked`;
}

/** `2/3 (67%), needs 100%; flaky; worst call #2`: the repeats of a case, when it was called more than once. */
export function repeatsLine(result: CaseResult): string | null {
  const r = result.repeats;
  if (!r || r.calls < 2) return null;
  const parts = [`${passesText(r)} passed, needs ${Math.round(r.minPassRate * 100)}%`];
  if (r.flaky) parts.push('flaky');
  if (r.worstRepeat !== null && result.verdict !== 'pass') parts.push(`worst call #${r.worstRepeat}`);
  if (r.retried) parts.push(`${r.retried} placed again (never connected)`);
  return parts.join('; ');
}

/** Each reason a case's calls did not pass, with its class and count: `[agent] ×2 status: expected …`. */
export function reasonLines(result: CaseResult): string[] {
  const r = result.repeats;
  if (!r || r.calls < 2) return [];
  return r.reasons.map((x) => `${x.triage ? `[${TRIAGE_TEXT[x.triage]}] ` : ''}×${x.count} ${x.reason}`);
}

/** The message a failing or erroring case carries: its class first, then what went wrong (and its repeats). */
function problemMessage(result: CaseResult, first: string): string {
  const head = result.triage ? `[${TRIAGE_TEXT[result.triage]}] ` : '';
  const repeats = repeatsLine(result);
  return `${head}${first}${repeats ? ` (${repeats})` : ''}`;
}

function testcase(result: CaseResult, suite: string): string {
  const attrs = `name="${xmlEscape(`${result.caseId}: ${result.label}`)}" classname="${xmlEscape(suite)}" time="${(result.durationSeconds ?? 0).toFixed(3)}"`;
  const props = [
    ['execution_id', result.executionId ?? ''],
    ['status', result.status ?? ''],
    ['contact_number', result.contactNumber],
    ['cost_cents', String(result.costCents ?? '')],
    ...caseFigures(result),
    ...(result.triage ? [['triage', result.triage]] : []),
    ...(result.repeats
      ? [
          ['passes', String(result.repeats.passes)],
          ['calls', String(result.repeats.calls)],
          ['pass_rate', String(Math.round(result.repeats.passRate * 10_000) / 10_000)],
          ['min_pass_rate', String(result.repeats.minPassRate)],
          ['flaky', String(result.repeats.flaky)],
          ['gate', result.repeats.gate],
          ...(result.repeats.retried ? [['retried_no_connection', String(result.repeats.retried)]] : []),
        ]
      : []),
  ]
    .map(([name, value]) => `        <property name="${name}" value="${xmlEscape(value!)}"/>`)
    .join('\n');
  const body = [`      <properties>\n${props}\n      </properties>`];
  if (result.verdict === 'error') {
    // type: call-not-placed, or why the run ended before the call did (cancelled, not-finished).
    const reasons = reasonLines(result);
    const message = result.unfinished ? result.error ?? 'The call never happened.' : problemMessage(result, result.error ?? 'The call never happened.');
    body.push(`      <error message="${xmlEscape(message)}" type="${result.unfinished ?? 'call-not-placed'}"${reasons.length ? `>${xmlEscape(reasons.join('\n'))}</error>` : '/>'}`);
  } else if (result.verdict === 'fail') {
    const lines = failureLines(result);
    const text = [...lines, ...reasonLines(result)];
    body.push(`      <failure message="${xmlEscape(problemMessage(result, lines[0] ?? result.error ?? 'failed'))}" type="expectation">${xmlEscape(text.join('\n'))}</failure>`);
  }
  return `    <testcase ${attrs}>\n${body.join('\n')}\n    </testcase>`;
}

export function toJUnit(run: RunResult): string {
  const n = run.cases.length;
  const counts = `tests="${n}" failures="${run.counts.fail}" errors="${run.counts.error}"`;
  const suite = run.planName;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suite)}" ${counts} time="${seconds(run.durationMs)}">`,
    `  <testsuite name="${xmlEscape(suite)}" ${counts} skipped="0" time="${seconds(run.durationMs)}"${run.startedAt ? ` timestamp="${run.startedAt}"` : ''}>`,
    ...run.cases.map((c) => testcase(c, suite)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The run as exported: the result itself, versioned, less what only the results view reads (the
 * checks as data behind the English text, for the UI's language: outcome-text.ts), so the file's
 * shape stays the one CI reads.
 */
export const toJson = (run: RunResult) =>
  `${JSON.stringify({ format: 'voice-agent-test-run', version: 1, ...run }, (key, value: unknown) => (VIEW_ONLY_KEYS.has(key) ? undefined : value), 2)}\n`;

export const CSV_COLUMNS = ['case_id', 'label', 'contact_number', 'verdict', 'status', 'duration_s', 'cost_cents', 'execution_id', 'problems', 'triage', 'passes', 'calls', 'pass_rate', 'flaky', 'gate'] as const;

/**
 * One row per case; `problems` holds the failing expectations (or why the call never happened). The
 * `verdict` column says `cancelled` or `not-finished` for a case whose call had not ended when the run
 * was interrupted (its JSON verdict is `error`, with `unfinished` saying why).
 */
export function toCsv(run: RunResult): string {
  const rows = run.cases.map((c) => [
    c.caseId,
    c.label,
    c.contactNumber,
    c.unfinished ?? c.verdict,
    c.status ?? '',
    c.durationSeconds === null ? '' : String(c.durationSeconds),
    c.costCents === null ? '' : String(c.costCents),
    c.executionId ?? '',
    c.error ?? failureLines(c).join('\n'),
    c.triage ?? '',
    String(c.repeats?.passes ?? (c.verdict === 'pass' ? 1 : 0)),
    String(c.repeats?.calls ?? 1),
    String(Math.round((c.repeats?.passRate ?? (c.verdict === 'pass' ? 1 : 0)) * 10_000) / 10_000),
    String(c.repeats?.flaky ?? false),
    c.gate ?? 'blocking',
  ]);
  return [[...CSV_COLUMNS], ...rows].map((cells) => cells.map(csvField).join(',')).join('\r\n') + '\r\n';
}
