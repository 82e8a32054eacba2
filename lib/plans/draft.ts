/**
 * The editor's form of a plan: every field as the text typed, so nothing is lost when the plan does
 * not pass. `draftToValue` builds the plan file's value from it (numbers read where they are numbers,
 * anything else left as typed so the schema names the problem), checked by the same `checkPlan` as an
 * import; `planToDraft` opens a stored or imported plan for editing. Pure.
 */
import type { FieldExpectation, PlanProblem, TestCase, TestPlan } from './schema';
import { PLAN_FORMAT, PLAN_VERSION, TEXT_CHECKS } from './schema';
import { scriptFromText, scriptToText } from './guided';
import { turnChecks } from './checks-schema';

export const CHECK_KINDS = ['equals', 'one_of', 'contains', 'matches', 'min', 'max', 'present', 'absent'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];
/** Checks with no value to type. */
export const VALUELESS: readonly CheckKind[] = ['present', 'absent'];

export interface FieldCheckDraft {
  field: string;
  check: CheckKind;
  value: string;
  /** The field compares text with its case (`case_sensitive`, set in the plan file): kept through an edit. */
  caseSensitive?: true;
}

export interface CaseDraft {
  /** Stable while editing (for the list's keys), not part of the plan. */
  key: string;
  id: string;
  label: string;
  contactNumber: string;
  variables: { name: string; value: string }[];
  /** Expected statuses (none: any). */
  status: string[];
  checks: FieldCheckDraft[];
  /** One phrase per line. */
  contains: string;
  notContains: string;
  durationAtLeast: string;
  durationAtMost: string;
  costAtMost: string;
  hangupBy: string;
  /** The caller script, one step a line (lib/plans/guided.ts `scriptFromText`). */
  callerScript: string;
  /** The checks on what was said turn by turn and the latency bounds, as JSON: `{"transcript": {…}, "latency": {…}}`. */
  moreChecks: string;
  /** Run-level fields of the case, as typed (empty: the plan's): how often it is called, the share that must pass, advisory. */
  repeat?: string;
  minPassRate?: string;
  advisory?: boolean;
}

export interface PlanDraft {
  name: string;
  agentId: string;
  fromNumber: string;
  cases: CaseDraft[];
  /** The plan's own sensitive patterns: kept through an edit (written in the plan file). */
  sensitivePatterns?: unknown;
  /** Run-level fields, as typed (empty: left out): calls per case, the share that must pass (0–1), retries of calls that never connected. */
  repeat?: string;
  minPassRate?: string;
  retryNoConnection?: string;
}

let keys = 0;
const nextKey = () => `k${++keys}`;

export function emptyCase(id: string): CaseDraft {
  return {
    key: nextKey(),
    id,
    label: '',
    contactNumber: '',
    variables: [],
    status: [],
    checks: [],
    contains: '',
    notContains: '',
    durationAtLeast: '',
    durationAtMost: '',
    costAtMost: '',
    hangupBy: '',
    callerScript: '',
    moreChecks: '',
  };
}

export const emptyPlan = (agentId: string): PlanDraft => ({ name: '', agentId, fromNumber: '', cases: [emptyCase('case-1')] });

/** A case id not used by any case of the draft: `case-N`. */
export function freeCaseId(draft: PlanDraft, base = 'case'): string {
  const used = new Set(draft.cases.map((c) => c.id));
  for (let n = draft.cases.length + 1; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** A number where the text is one; the text itself otherwise (the schema then says what is wrong). */
function numberOrText(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
}

/** `true`, `false` and numbers as themselves; other text as text (equals compares loosely anyway). */
function scalarOf(text: string): string | number | boolean {
  const t = text.trim();
  if (t === 'true' || t === 'false') return t === 'true';
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
const compact = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
const orUndefined = <T extends object>(o: T) => (Object.keys(o).length ? o : undefined);

function extractedOf(checks: readonly FieldCheckDraft[]): Record<string, Record<string, unknown>> | undefined {
  const out: Record<string, Record<string, unknown>> = {};
  for (const c of checks) {
    const field = c.field.trim();
    if (!field && !c.value.trim()) continue;
    const entry = (out[field] ??= {});
    if (c.check === 'present' || c.check === 'absent') entry[c.check] = true;
    else if (c.check === 'min' || c.check === 'max') entry[c.check] = numberOrText(c.value) ?? '';
    else if (c.check === 'one_of') entry.one_of = c.value.split(',').map((v) => v.trim()).filter(Boolean).map(scalarOf);
    else if (c.check === 'equals') entry.equals = scalarOf(c.value);
    else entry[c.check] = c.value.trim();
    if (c.caseSensitive && TEXT_CHECKS.includes(c.check as (typeof TEXT_CHECKS)[number])) entry.case_sensitive = true;
  }
  return orUndefined(out);
}

/** The "more checks" JSON: an object, or the reason it is not one (null when blank). */
function moreChecksOf(text: string): { value: Record<string, unknown> } | { problem: string } | null {
  if (!text.trim()) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { value: value as Record<string, unknown> };
    return { problem: 'must be a JSON object such as {"transcript": {…}, "latency": {…}}' };
  } catch (e) {
    return { problem: `is not JSON: ${(e as Error).message}` };
  }
}

/** What the schema cannot see because it never became a value: "more checks" that are not JSON. */
export function draftProblems(d: PlanDraft): PlanProblem[] {
  return d.cases.flatMap((c, i) => {
    const more = moreChecksOf(c.moreChecks);
    return more && 'problem' in more ? [{ path: `cases[${i}].more_checks`, message: more.problem }] : [];
  });
}

export function caseToValue(c: CaseDraft): unknown {
  const variables = Object.fromEntries(c.variables.filter((v) => v.name.trim() || v.value.trim()).map((v) => [v.name.trim(), v.value]));
  const parsedMore = moreChecksOf(c.moreChecks);
  const more = parsedMore && 'value' in parsedMore ? parsedMore.value : {};
  const moreTranscript = more.transcript && typeof more.transcript === 'object' ? (more.transcript as Record<string, unknown>) : {};
  const transcript = orUndefined(
    compact({ contains: orUndefined(lines(c.contains)) && lines(c.contains), not_contains: orUndefined(lines(c.notContains)) && lines(c.notContains), ...moreTranscript }),
  );
  const duration = orUndefined(compact({ at_least: numberOrText(c.durationAtLeast), at_most: numberOrText(c.durationAtMost) }));
  const costAtMost = numberOrText(c.costAtMost);
  const expect = compact({
    status: c.status.length === 0 ? undefined : c.status.length === 1 ? c.status[0] : c.status,
    extracted: extractedOf(c.checks),
    transcript,
    duration,
    cost: costAtMost === undefined ? undefined : { at_most: costAtMost },
    hangup_by: c.hangupBy.trim() || undefined,
    // Anything else the JSON holds goes in as written, so the schema names what is wrong.
    ...Object.fromEntries(Object.entries(more).filter(([k]) => k !== 'transcript')),
  });
  const script = c.callerScript.trim() ? scriptFromText(c.callerScript).steps : undefined;
  const run = compact({ repeat: numberOrText(c.repeat ?? ''), min_pass_rate: numberOrText(c.minPassRate ?? ''), gate: c.advisory ? 'advisory' : undefined });
  return { ...compact({ id: c.id.trim(), label: c.label, contact_number: c.contactNumber.trim(), variables, expect, caller_script: script }), ...run };
}

export function draftToValue(d: PlanDraft): unknown {
  return compact({
    format: PLAN_FORMAT,
    version: PLAN_VERSION,
    name: d.name,
    agent_id: d.agentId,
    from_number: d.fromNumber.trim() || undefined,
    sensitive_patterns: d.sensitivePatterns,
    cases: d.cases.map(caseToValue),
    repeat: numberOrText(d.repeat ?? ''),
    min_pass_rate: numberOrText(d.minPassRate ?? ''),
    retry_no_connection: numberOrText(d.retryNoConnection ?? ''),
  });
}

const text = (v: unknown) => (v === undefined ? '' : String(v));

function checksOf(extracted: Record<string, FieldExpectation> | undefined): FieldCheckDraft[] {
  const out: FieldCheckDraft[] = [];
  for (const [field, e] of Object.entries(extracted ?? {})) {
    for (const check of CHECK_KINDS) {
      const v = e[check];
      if (v === undefined) continue;
      const caseSensitive = e.case_sensitive && TEXT_CHECKS.includes(check as (typeof TEXT_CHECKS)[number]) ? { caseSensitive: true as const } : {};
      out.push({ field, check, value: check === 'one_of' ? (v as unknown[]).map(String).join(', ') : VALUELESS.includes(check) ? '' : String(v), ...caseSensitive });
    }
  }
  return out;
}

export function caseToDraft(c: TestCase): CaseDraft {
  const e = c.expect;
  return {
    key: nextKey(),
    id: c.id,
    label: c.label,
    contactNumber: c.contact_number,
    variables: Object.entries(c.variables).map(([name, value]) => ({ name, value })),
    status: e.status === undefined ? [] : [e.status].flat(),
    checks: checksOf(e.extracted),
    contains: (e.transcript?.contains ?? []).join('\n'),
    notContains: (e.transcript?.not_contains ?? []).join('\n'),
    durationAtLeast: text(e.duration?.at_least),
    durationAtMost: text(e.duration?.at_most),
    costAtMost: text(e.cost?.at_most),
    hangupBy: e.hangup_by ?? '',
    callerScript: scriptToText(c.caller_script),
    moreChecks: moreChecksText(c),
    repeat: text(c.repeat),
    minPassRate: text(c.min_pass_rate),
    ...(c.gate === 'advisory' ? { advisory: true } : {}),
  };
}

/** The turn checks and latency bounds of a case as the editor's JSON text ('' when it has none). */
function moreChecksText(c: TestCase): string {
  const turn = Object.fromEntries(Object.entries(c.expect.transcript ?? {}).filter(([k, v]) => k in turnChecks && v !== undefined));
  const more = compact({ transcript: orUndefined(turn), latency: c.expect.latency });
  return Object.keys(more).length ? JSON.stringify(more, null, 2) : '';
}

export function planToDraft(plan: TestPlan): PlanDraft {
  return {
    name: plan.name,
    agentId: plan.agent_id,
    fromNumber: plan.from_number ?? '',
    cases: plan.cases.map(caseToDraft),
    ...(plan.sensitive_patterns ? { sensitivePatterns: plan.sensitive_patterns } : {}),
    repeat: text(plan.repeat),
    minPassRate: text(plan.min_pass_rate),
    retryNoConnection: text(plan.retry_no_connection),
  };
}

/** `cases[2].expect.status` → `Case 3 (Busy line), expect.status`: where a problem is, as a person reads it. */
export function problemPlace(path: string, draft: PlanDraft): string {
  const m = /^cases\[(\d+)\](?:\.(.*))?$/.exec(path);
  if (!m) return path || 'The plan';
  const i = Number(m[1]);
  const label = draft.cases[i]?.label.trim();
  return `Case ${i + 1}${label ? ` (${label})` : ''}${m[2] ? `, ${m[2]}` : ''}`;
}
