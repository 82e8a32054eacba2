// Two runs side by side: verdict changes, extracted value changes, and the transcript line diff.
import { describe, expect, it } from 'vitest';
import { compareRuns, extractedChanges, lineDiff } from '../../../lib/plans/compare';
import { judgeRun } from '../../../lib/plans/judge';
import { liveExecution, plan } from './fixtures';

describe('lineDiff', () => {
  it('marks nothing when both sides are the same', () => {
    expect(lineDiff('a\nb', 'a\nb')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'same', text: 'b' },
    ]);
  });

  it('shows a changed line as removed then added, keeping the common lines around it', () => {
    expect(lineDiff('hello\nI am busy\nbye', 'hello\nFriday works\nbye')).toEqual([
      { kind: 'same', text: 'hello' },
      { kind: 'removed', text: 'I am busy' },
      { kind: 'added', text: 'Friday works' },
      { kind: 'same', text: 'bye' },
    ]);
  });

  it('handles lines only added, only removed, and an empty side', () => {
    expect(lineDiff('a\nc', 'a\nb\nc').map((d) => d.kind)).toEqual(['same', 'added', 'same']);
    expect(lineDiff('a\nb\nc', 'a\nc').map((d) => d.kind)).toEqual(['same', 'removed', 'same']);
    expect(lineDiff('', 'x\ny')).toEqual([
      { kind: 'added', text: 'x' },
      { kind: 'added', text: 'y' },
    ]);
    expect(lineDiff('x', '')).toEqual([{ kind: 'removed', text: 'x' }]);
    expect(lineDiff('', '')).toEqual([]);
  });

  it('treats CRLF and LF line ends alike', () => {
    expect(lineDiff('a\r\nb', 'a\nb').every((d) => d.kind === 'same')).toBe(true);
  });

  it('keeps the longest common run of lines when lines move', () => {
    const diff = lineDiff('1\n2\n3\n4', '2\n3\n4\n1');
    expect(diff.filter((d) => d.kind === 'same').map((d) => d.text)).toEqual(['2', '3', '4']);
    expect(diff.filter((d) => d.kind !== 'same')).toEqual([
      { kind: 'removed', text: '1' },
      { kind: 'added', text: '1' },
    ]);
  });
});

describe('extractedChanges', () => {
  it('names each field whose value differs, including ones present on one side only', () => {
    expect(extractedChanges({ a: 1, b: 'x', c: true }, { a: 1, b: 'y', d: null })).toEqual([
      { field: 'b', before: 'x', after: 'y' },
      { field: 'c', before: true, after: undefined },
      { field: 'd', before: undefined, after: null },
    ]);
    expect(extractedChanges(null, null)).toEqual([]);
  });
});

describe('compareRuns', () => {
  const p = plan({
    cases: [
      { id: 'ok', label: 'Callback', contact_number: '+14155550123', expect: { extracted: { interested: { equals: true } } } },
      { id: 'gone', label: 'Only before', contact_number: '+14155550124' },
    ],
  });
  const before = judgeRun(p, new Map([['ok', liveExecution()]]));
  const changed = liveExecution({ extracted_data: { interested: false }, transcript: 'assistant: Hello! This is Ava.\nuser: No thanks.' });
  const p2 = plan({ cases: [p.cases[0]!, { id: 'new', label: 'Only after', contact_number: '+14155550125' }] });
  const after = judgeRun(p2, new Map([['ok', changed]]));

  it('reports the verdicts that changed, the values that changed and the transcript diff per case', () => {
    const c = compareRuns(before, after);
    expect(c.verdicts).toEqual({ before: 'error', after: 'fail' });
    const ok = c.cases.find((x) => x.caseId === 'ok')!;
    expect(ok.before?.verdict).toBe('pass');
    expect(ok.after?.verdict).toBe('fail');
    expect(ok.verdictChanged).toBe(true);
    expect(ok.extractedChanges.map((x) => x.field)).toEqual(['budget', 'callback_time', 'customer_name', 'interested']);
    expect(ok.transcriptChanged).toBe(true);
    expect(ok.transcript[0]).toEqual({ kind: 'same', text: 'assistant: Hello! This is Ava.' });
    expect(ok.transcript.filter((d) => d.kind === 'added').map((d) => d.text)).toEqual(['user: No thanks.']);
  });

  it('keeps cases found in only one run, in the later run’s order then the earlier one’s', () => {
    const c = compareRuns(before, after);
    expect(c.cases.map((x) => x.caseId)).toEqual(['ok', 'new', 'gone']);
    expect(c.cases.find((x) => x.caseId === 'gone')!.after).toBeNull();
    expect(c.cases.find((x) => x.caseId === 'new')!.before).toBeNull();
  });

  it('finds nothing changed when a run is compared with itself', () => {
    const c = compareRuns(before, before);
    expect(c.verdictChanges).toBe(0);
    expect(c.cases.every((x) => !x.verdictChanged && !x.transcriptChanged && x.extractedChanges.length === 0)).toBe(true);
  });
});
