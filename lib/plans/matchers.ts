/**
 * Pure matchers: each takes the expected value and what the execution holds, and answers whether it
 * holds plus both sides as text for the results table. No execution shapes here (see judge.ts).
 */
import type { FieldExpectation } from './schema';

export type ExtractedValue = string | number | boolean | null | undefined;

export interface Match {
  passed: boolean;
  expected: string;
  actual: string;
}

/** Case- and whitespace-insensitive form of a text: lower case, runs of spaces as one, trimmed. */
export const looseText = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** How a field's text is compared: case ignored (every text comparison's default) or kept (`case_sensitive`). */
export interface TextRule {
  caseSensitive?: boolean;
}
/** Whitespace-insensitive always; case-insensitive unless the rule keeps case. */
const textForm = (text: string, rule: TextRule = {}) => (rule.caseSensitive ? text.replace(/\s+/g, ' ').trim() : looseText(text));

export const showValue = (value: ExtractedValue): string =>
  value === undefined ? '(absent)' : value === null ? '(null)' : typeof value === 'string' ? JSON.stringify(value) : String(value);

const isEmpty = (value: ExtractedValue) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Equal as text, ignoring case (unless the rule keeps it) and surrounding space: `true` equals `"True"`, `3` equals `"3"`. */
export function valueEquals(expected: string | number | boolean, actual: ExtractedValue, rule: TextRule = {}): boolean {
  if (isEmpty(actual)) return false;
  return textForm(String(expected), rule) === textForm(String(actual), rule);
}

const caseNote = (rule: TextRule) => (rule.caseSensitive ? ' (case-sensitive)' : '');

/** A number read from a number or a numeric string. */
function numberOf(value: ExtractedValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

const CONTEXT = 40;

/**
 * Where `phrase` was said, as the results show it: `said: "…like a CALLBACK tomorrow."`, the
 * transcript's own words around the match (spaces and line breaks as one space); null when not said.
 */
export function saidWhere(phrase: string, transcript: string | null | undefined): string | null {
  if (!transcript) return null;
  const text = transcript.replace(/\s+/g, ' ').trim();
  const wanted = looseText(phrase);
  const at = text.toLowerCase().indexOf(wanted);
  if (at < 0 || !wanted) return null;
  const start = Math.max(0, at - CONTEXT);
  const end = Math.min(text.length, at + wanted.length + CONTEXT);
  return `said: ${JSON.stringify(`${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`)}`;
}

export const matchers = {
  equals: (expected: string | number | boolean, actual: ExtractedValue, rule: TextRule = {}): Match => ({
    passed: valueEquals(expected, actual, rule),
    expected: `equals ${showValue(expected)}${caseNote(rule)}`,
    actual: showValue(actual),
  }),
  oneOf: (expected: readonly (string | number | boolean)[], actual: ExtractedValue, rule: TextRule = {}): Match => ({
    passed: expected.some((e) => valueEquals(e, actual, rule)),
    expected: `one of ${expected.map(showValue).join(', ')}${caseNote(rule)}`,
    actual: showValue(actual),
  }),
  contains: (expected: string, actual: ExtractedValue, rule: TextRule = {}): Match => ({
    passed: !isEmpty(actual) && textForm(String(actual), rule).includes(textForm(expected, rule)),
    expected: `contains ${showValue(expected)}${caseNote(rule)}`,
    actual: showValue(actual),
  }),
  /**
   * A JavaScript regular expression (Unicode mode), tested against the value as text; it ignores case
   * like every other text check (the `i` flag) unless the rule keeps case.
   */
  pattern: (expected: string, actual: ExtractedValue, rule: TextRule = {}): Match => ({
    passed: !isEmpty(actual) && new RegExp(expected, rule.caseSensitive ? 'u' : 'iu').test(String(actual)),
    expected: `matches /${expected}/${rule.caseSensitive ? '' : 'i'}`,
    actual: showValue(actual),
  }),
  range: (min: number | undefined, max: number | undefined, actual: ExtractedValue): Match => {
    const n = numberOf(actual);
    const expected = min !== undefined && max !== undefined ? `between ${min} and ${max}` : min !== undefined ? `at least ${min}` : `at most ${max}`;
    return { passed: n !== null && (min === undefined || n >= min) && (max === undefined || n <= max), expected, actual: showValue(actual) };
  },
  /** Present: there, not null, not blank text. */
  present: (actual: ExtractedValue): Match => ({ passed: !isEmpty(actual), expected: 'present', actual: showValue(actual) }),
  absent: (actual: ExtractedValue): Match => ({ passed: isEmpty(actual), expected: 'absent', actual: showValue(actual) }),

  /** `actual` is where it was said (saidWhere), `not said`, or `(no transcript)`. */
  transcriptContains: (phrase: string, transcript: string | null | undefined): Match => {
    const said = saidWhere(phrase, transcript);
    return { passed: said !== null, expected: `says ${JSON.stringify(phrase)}`, actual: said ?? (transcript ? 'not said' : '(no transcript)') };
  },
  transcriptNotContains: (phrase: string, transcript: string | null | undefined): Match => {
    const said = saidWhere(phrase, transcript);
    return { passed: said === null, expected: `never says ${JSON.stringify(phrase)}`, actual: said ?? (transcript ? 'not said' : '(no transcript)') };
  },
  durationAtMost: (seconds: number, actual: number | null | undefined): Match => ({
    passed: typeof actual === 'number' && actual <= seconds,
    expected: `at most ${seconds} s`,
    actual: typeof actual === 'number' ? `${actual} s` : '(unknown)',
  }),
  durationAtLeast: (seconds: number, actual: number | null | undefined): Match => ({
    passed: typeof actual === 'number' && actual >= seconds,
    expected: `at least ${seconds} s`,
    actual: typeof actual === 'number' ? `${actual} s` : '(unknown)',
  }),
  /** Costs are in cents, as the service writes them. */
  costAtMost: (cents: number, actual: number | null | undefined): Match => ({
    passed: typeof actual === 'number' && actual <= cents,
    expected: `at most ${cents} cents`,
    actual: typeof actual === 'number' ? `${actual} cents` : '(unknown)',
  }),
  hangupBy: (expected: string, actual: string | null | undefined): Match => ({
    passed: !!actual && looseText(actual) === looseText(expected),
    expected: `hung up by ${expected}`,
    actual: actual ?? '(unknown)',
  }),
  status: (expected: readonly string[], actual: string): Match => ({
    passed: expected.includes(actual),
    expected: expected.length === 1 ? expected[0]! : `one of ${expected.join(', ')}`,
    actual,
  }),
};

/** Every check one extracted-data field asks for, in a fixed order. */
export function fieldMatches(expectation: FieldExpectation, actual: ExtractedValue): Array<Match & { check: string }> {
  const out: Array<Match & { check: string }> = [];
  const e = expectation;
  const rule: TextRule = { caseSensitive: e.case_sensitive === true };
  if (e.present) out.push({ check: 'present', ...matchers.present(actual) });
  if (e.absent) out.push({ check: 'absent', ...matchers.absent(actual) });
  if (e.equals !== undefined) out.push({ check: 'equals', ...matchers.equals(e.equals, actual, rule) });
  if (e.one_of) out.push({ check: 'one_of', ...matchers.oneOf(e.one_of, actual, rule) });
  if (e.contains !== undefined) out.push({ check: 'contains', ...matchers.contains(e.contains, actual, rule) });
  if (e.matches !== undefined) out.push({ check: 'matches', ...matchers.pattern(e.matches, actual, rule) });
  if (e.min !== undefined || e.max !== undefined) out.push({ check: 'range', ...matchers.range(e.min, e.max, actual) });
  return out;
}
