/**
 * Two runs of a plan side by side: the verdicts that changed, the extracted values that changed, and
 * a line diff of each case's transcript. Pure.
 */
import type { CaseResult, RunResult, Verdict } from './judge';

export type DiffLine = { kind: 'same' | 'removed' | 'added'; text: string };

/**
 * A line diff (longest common subsequence): lines only in `before` are `removed`, only in `after`
 * `added`. Transcripts are short (tens of lines), so the quadratic table is fine; past MAX_LINES a
 * side, the lines are compared one for one instead.
 */
export const MAX_LINES = 2_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.replace(/\r\n?/g, '\n').split('\n');
  const b = after === '' ? [] : after.replace(/\r\n?/g, '\n').split('\n');
  if (a.length > MAX_LINES || b.length > MAX_LINES) {
    const out: DiffLine[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] === b[i]) out.push({ kind: 'same', text: a[i]! });
      else {
        if (i < a.length) out.push({ kind: 'removed', text: a[i]! });
        if (i < b.length) out.push({ kind: 'added', text: b[i]! });
      }
    }
    return out;
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ kind: 'removed', text: a[i++]! });
    else out.push({ kind: 'added', text: b[j++]! });
  }
  while (i < a.length) out.push({ kind: 'removed', text: a[i++]! });
  while (j < b.length) out.push({ kind: 'added', text: b[j++]! });
  return out;
}

export const diffChanged = (diff: readonly DiffLine[]) => diff.some((d) => d.kind !== 'same');

export interface ValueChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface CaseComparison {
  caseId: string;
  label: string;
  /** Null where the case is not in that run (the plan changed between them). */
  before: CaseResult | null;
  after: CaseResult | null;
  verdictChanged: boolean;
  extractedChanges: ValueChange[];
  transcript: DiffLine[];
  transcriptChanged: boolean;
}

export interface RunComparison {
  verdicts: { before: Verdict; after: Verdict };
  cases: CaseComparison[];
  /** Cases whose verdict changed, e.g. `pass → fail`. */
  verdictChanges: number;
}

const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

/** Every field of either side whose value differs (absent on one side counts as a change). */
export function extractedChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null): ValueChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  return fields
    .map((field) => ({ field, before: before?.[field], after: after?.[field] }))
    .filter((c) => !same(c.before, c.after));
}

/** Cases in the order of the later run, then any only in the earlier one. */
export function compareRuns(before: RunResult, after: RunResult): RunComparison {
  const earlier = new Map(before.cases.map((c) => [c.caseId, c]));
  const later = new Map(after.cases.map((c) => [c.caseId, c]));
  const ids = [...after.cases.map((c) => c.caseId), ...before.cases.map((c) => c.caseId).filter((id) => !later.has(id))];
  const cases = ids.map((caseId): CaseComparison => {
    const b = earlier.get(caseId) ?? null;
    const a = later.get(caseId) ?? null;
    const transcript = lineDiff(b?.transcript ?? '', a?.transcript ?? '');
    return {
      caseId,
      label: (a ?? b)!.label,
      before: b,
      after: a,
      verdictChanged: b?.verdict !== a?.verdict,
      extractedChanges: extractedChanges(b?.extracted ?? null, a?.extracted ?? null),
      transcript,
      transcriptChanged: diffChanged(transcript),
    };
  });
  return { verdicts: { before: before.verdict, after: after.verdict }, cases, verdictChanges: cases.filter((c) => c.verdictChanged).length };
}
