/**
 * An expectation's outcome in the UI's language. The judge keeps its fixed English `name`, `expected`
 * and `actual` (what the exports and the command line write, and CI parses); beside them each outcome
 * carries `check`, what was checked and found as data, and this formatter words it through a message
 * lookup `t`. With the English catalogue it answers the judge's own English, word for word
 * (tests/unit/plans/outcome-text.test.ts). Service data (values, transcript excerpts, statuses) and
 * the plan's own words (phrases, field names, what the caller says) stay as written. Pure.
 */
import type { MessageKey } from '../i18n';
import type { ScriptStep, Who } from './checks-schema';
import { showValue, type ExtractedValue, type Match } from './matchers';
import type { FieldExpectation } from './schema';

export type FieldCheck = 'present' | 'absent' | 'equals' | 'one_of' | 'contains' | 'matches' | 'range';
export type LatencyFigure = 'firstAudio' | 'median' | 'p95' | 'worst';
export type SaidKind = SaidCheck['kind'];

/** A turn as cited: its number, who spoke (`agent`, `caller`), its words quoted and shortened (the service's). */
export interface TurnRef {
  n: number;
  speaker: 'agent' | 'caller' | null;
  excerpt: string;
}
/** A line of a turn check as the plan wrote it. */
export interface LineRef {
  who: Who;
  says?: string;
  matches?: string;
  flags?: string;
}

/** The turn-by-turn checks (said.ts), as data. */
export type SaidCheck =
  | { kind: 'says'; line: LineRef; found: TurnRef | null; transcript: boolean }
  | { kind: 'neverSays'; line: LineRef; found: TurnRef | null; transcript: boolean }
  | { kind: 'inOrder'; lines: LineRef[]; transcript: boolean; missing: number | null; wrong: { index: number; at: number; before: number } | null; turns: number[] }
  | { kind: 'count'; line: LineRef; atLeast: number | null; atMost: number | null; transcript: boolean; hits: number[] }
  | { kind: 'withinFirst'; line: LineRef; turns: number; found: TurnRef | null; transcript: boolean }
  | { kind: 'noRepeatedAgentLines'; transcript: boolean; repeat: { first: number; second: number; text: string } | null }
  | { kind: 'neverReveals'; names: string[]; transcript: boolean; found: { name: string; turn: TurnRef } | null; agentTurns: number }
  | { kind: 'agentEnded'; expected: boolean; byAgent: boolean | null; hangupBy: string | null; last: TurnRef | null };

/** What an outcome checked and found, as data (the English text is the judge's; this is for other languages). */
export type OutcomeCheck =
  | { kind: 'status'; expected: string[]; actual: string }
  | { kind: 'extracted'; field: string; check: FieldCheck; expectation: FieldExpectation; actual: ExtractedValue }
  | { kind: 'transcriptContains' | 'transcriptNotContains'; phrase: string; transcript: boolean; said: string | null }
  | { kind: 'duration'; bound: 'atLeast' | 'atMost'; seconds: number; actual: number | null }
  | { kind: 'cost'; cents: number; actual: number | null }
  | { kind: 'hungUpBy'; expected: string; actual: string | null }
  | SaidCheck
  | { kind: 'latency'; figure: LatencyFigure; boundMs: number; valueMs: number | null; turns: number; missing: 'data' | 'turns' | 'firstAudio' | null }
  | { kind: 'callerStep'; step: number; script: ScriptStep; mark: 'done' | 'wrong'; atMs: number; note: string };

export type OutcomeKind = OutcomeCheck['kind'];

/** The fields of a run result only the results view reads (the checks as data); the JSON export leaves them out. */
export const VIEW_ONLY_KEYS: ReadonlySet<string> = new Set(['check', 'failedOutcomes', 'outcome', 'errorCheck']);

/** Why a case's call never happened, or had not ended when the run was interrupted, as data. */
export type CallError =
  | { kind: 'noExecution' }
  | { kind: 'batchNotPlaced'; message: string }
  | { kind: 'notFinished'; status: string }
  | { kind: 'notPlaced'; status: string; message: string | null }
  | { kind: 'interrupted'; why: 'cancelled' | 'not-finished'; status: string | null };

/** The judge's error of a case (`The call was not placed: busy.`) in the language of `t`; the service's status and message as it gave them. */
export function callErrorText(e: CallError, t: Lookup): string {
  switch (e.kind) {
    case 'noExecution':
      return t('plans_errNoExecution');
    case 'batchNotPlaced':
      return t('plans_errBatchNotPlaced', e.message);
    case 'notFinished':
      return t('plans_errNotFinished', e.status);
    case 'notPlaced':
      return e.message ? t('plans_errNotPlacedMessage', e.status, e.message) : t('plans_errNotPlaced', e.status);
    case 'interrupted':
      return e.why === 'cancelled'
        ? e.status === null ? t('plans_errCancelledNotDialled') : t('plans_errCancelled', e.status)
        : e.status === null ? t('plans_errTimeLimitNotDialled') : t('plans_errTimeLimit', e.status);
  }
}

/** An outcome as the judge gives it: its English text, and (from this version on) its check as data. */
export interface CheckedOutcome extends Match {
  name: string;
  check?: OutcomeCheck;
}

/** The catalogue lookup: lib/i18n's t, or a test's. */
export type Lookup = (key: MessageKey, ...subs: string[]) => string;
/** How a number is written (the UI's locale; String gives the exports' form). */
export type NumberText = (n: number) => string;

const SAID_NAME: Record<SaidKind, MessageKey> = {
  says: 'plans_outSays',
  neverSays: 'plans_outNeverSays',
  inOrder: 'plans_outInOrder',
  count: 'plans_outCount',
  withinFirst: 'plans_outWithinFirst',
  noRepeatedAgentLines: 'plans_outNoRepeated',
  agentEnded: 'plans_outAgentEnded',
  neverReveals: 'plans_outNeverReveals',
};
const FIELD_NAME: Record<FieldCheck, MessageKey> = {
  present: 'plans_outFieldPresent',
  absent: 'plans_outFieldAbsent',
  equals: 'plans_outFieldEquals',
  one_of: 'plans_outFieldOneOf',
  contains: 'plans_outFieldContains',
  matches: 'plans_outFieldMatches',
  range: 'plans_outFieldRange',
};
const LATENCY_NAME: Record<LatencyFigure, MessageKey> = {
  firstAudio: 'plans_outLatencyFirstAudio',
  median: 'plans_outLatencyMedian',
  p95: 'plans_outLatencyP95',
  worst: 'plans_outLatencyWorst',
};

function name(c: OutcomeCheck, t: Lookup, n: NumberText): string {
  switch (c.kind) {
    case 'status':
      return t('plans_outStatus');
    case 'extracted':
      return t(FIELD_NAME[c.check], c.field);
    case 'transcriptContains':
      return t('plans_outTranscriptContains');
    case 'transcriptNotContains':
      return t('plans_outTranscriptNotContains');
    case 'duration':
      return t('plans_outDuration');
    case 'cost':
      return t('plans_outCost');
    case 'hungUpBy':
      return t('plans_outHungUpBy');
    case 'latency':
      return t(LATENCY_NAME[c.figure]);
    case 'callerStep':
      return t('plans_outCallerStep', n(c.step));
    default:
      return t(SAID_NAME[c.kind]);
  }
}

/** A value the service gave (or the plan wrote): `"text"`, `3`, `true`, or the words for absent / null. */
function valueText(v: ExtractedValue, t: Lookup): string {
  return v === undefined ? t('plans_outAbsentValue') : v === null ? t('plans_outNullValue') : showValue(v);
}

function fieldExpected(c: Extract<OutcomeCheck, { kind: 'extracted' }>, t: Lookup, n: NumberText): string {
  const e = c.expectation;
  const cs = e.case_sensitive === true;
  switch (c.check) {
    case 'present':
      return t('plans_outPresent');
    case 'absent':
      return t('plans_outAbsent');
    case 'equals':
      return t(cs ? 'plans_outEqualsCase' : 'plans_outEquals', showValue(e.equals));
    case 'one_of':
      return t(cs ? 'plans_outOneOfCase' : 'plans_outOneOf', (e.one_of ?? []).map(showValue).join(', '));
    case 'contains':
      return t(cs ? 'plans_outContainsCase' : 'plans_outContains', showValue(e.contains));
    case 'matches':
      return t('plans_outMatches', `/${e.matches}/${cs ? '' : 'i'}`);
    case 'range':
      return e.min !== undefined && e.max !== undefined
        ? t('plans_outBetween', n(e.min), n(e.max))
        : e.min !== undefined
          ? t('plans_outAtLeast', n(e.min))
          : t('plans_outAtMost', n(e.max!));
  }
}

/** A caller script step as the results and the exports word it: `say "…"`, `stay silent 8 s`, `press 1`. */
export function stepText(step: ScriptStep, t: Lookup, n: NumberText = String): string {
  if (step.say !== undefined) return t('plans_outStepSay', JSON.stringify(step.say));
  if (step.silent !== undefined) return t('plans_outStepSilent', n(step.silent));
  if (step.interrupt !== undefined) return step.interrupt === true ? t('plans_outStepInterrupt') : t('plans_outStepInterruptSaying', JSON.stringify(step.interrupt));
  if (step.press !== undefined) return t('plans_outStepPress', step.press);
  return t('plans_outStepHangUp');
}

/** `m:ss` of the call's elapsed time (the same in every language). */
const elapsed = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

function sides(c: OutcomeCheck, o: CheckedOutcome, t: Lookup, n: NumberText): { expected: string; actual: string } {
  const unknown = t('plans_outUnknown');
  switch (c.kind) {
    case 'status':
      return { expected: c.expected.length === 1 ? c.expected[0]! : t('plans_outOneOf', c.expected.join(', ')), actual: c.actual };
    case 'extracted':
      return { expected: fieldExpected(c, t, n), actual: valueText(c.actual, t) };
    case 'transcriptContains':
    case 'transcriptNotContains':
      return {
        expected: t(c.kind === 'transcriptContains' ? 'plans_outSaysPhrase' : 'plans_outNeverSaysPhrase', JSON.stringify(c.phrase)),
        actual: c.said !== null ? t('plans_outSaidWhere', c.said) : c.transcript ? t('plans_outNotSaid') : t('plans_outNoTranscript'),
      };
    case 'duration':
      return {
        expected: t(c.bound === 'atLeast' ? 'plans_outAtLeastSeconds' : 'plans_outAtMostSeconds', n(c.seconds)),
        actual: c.actual === null ? unknown : t('plans_outSeconds', n(c.actual)),
      };
    case 'cost':
      return { expected: t('plans_outAtMostCents', n(c.cents)), actual: c.actual === null ? unknown : t('plans_outCents', n(c.actual)) };
    case 'hungUpBy':
      return { expected: t('plans_outHungUpByWho', c.expected), actual: c.actual ?? unknown };
    case 'latency': {
      const ms = (x: number) => n(Math.round(x));
      const missing = { data: 'plans_outNoLatencyData', turns: 'plans_outNoLatencyTurns', firstAudio: 'plans_outNoFirstAudio' } as const;
      const actual =
        c.valueMs !== null
          ? c.figure === 'firstAudio'
            ? t('plans_outMs', ms(c.valueMs))
            : t(c.turns === 1 ? 'plans_outMsOverTurn' : 'plans_outMsOverTurns', ms(c.valueMs), n(c.turns))
          : t(missing[c.missing ?? 'data']);
      return { expected: t('plans_outAtMostMs', ms(c.boundMs)), actual };
    }
    case 'callerStep': {
      const at = elapsed(c.atMs);
      const actual =
        c.mark === 'done' ? (c.note ? t('plans_outDoneAtNote', at, c.note) : t('plans_outDoneAt', at)) : c.note ? t('plans_outWrongAtNote', at, c.note) : t('plans_outWrongAtNoNote', at);
      return { expected: stepText(c.script, t, n), actual };
    }
    default:
      return saidSides(c, t, n);
  }
}

const WHO: Record<Who, MessageKey> = { agent: 'plans_outWhoAgent', caller: 'plans_outWhoCaller', anyone: 'plans_outWhoAnyone' };

/** `the agent says "date of birth"`, `the caller matches /^no\b/i`. */
function lineText(l: LineRef, t: Lookup): string {
  return l.says !== undefined ? t('plans_outLineSays', t(WHO[l.who]), JSON.stringify(l.says)) : t('plans_outLineMatches', t(WHO[l.who]), `/${l.matches}/${l.flags ?? 'i'}`);
}

/** `turn 3 (agent): "May I have…"`. */
function turnText(r: TurnRef, t: Lookup, n: NumberText): string {
  return r.speaker ? t('plans_outTurnBy', n(r.n), t(r.speaker === 'agent' ? 'plans_outSpeakerAgent' : 'plans_outSpeakerCaller'), r.excerpt) : t('plans_outTurn', n(r.n), r.excerpt);
}

function saidSides(c: SaidCheck, t: Lookup, n: NumberText): { expected: string; actual: string } {
  const none = t('plans_outNoTranscript');
  const list = (xs: readonly number[], sep: string) => xs.map(n).join(sep);
  switch (c.kind) {
    case 'says':
    case 'neverSays': {
      const line = lineText(c.line, t);
      return {
        expected: c.kind === 'says' ? line : t('plans_outNever', line),
        actual: c.found ? turnText(c.found, t, n) : c.transcript ? t('plans_outNotSaid') : none,
      };
    }
    case 'inOrder': {
      const expected = t('plans_outInThisOrder', c.lines.map((l) => lineText(l, t)).join(' → '));
      if (!c.transcript) return { expected, actual: none };
      if (c.missing !== null) return { expected, actual: t('plans_outNever', lineText(c.lines[c.missing]!, t)) };
      if (c.wrong) {
        const w = c.wrong;
        return { expected, actual: t('plans_outOutOfOrder', lineText(c.lines[w.index]!, t), n(w.at), n(w.before), lineText(c.lines[w.index - 1]!, t)) };
      }
      return { expected, actual: t('plans_outTurns', list(c.turns, ' → ')) };
    }
    case 'count': {
      const line = lineText(c.line, t);
      const expected =
        c.atLeast !== null && c.atMost !== null
          ? t('plans_outCountBetween', line, n(c.atLeast), n(c.atMost))
          : c.atLeast !== null
            ? t('plans_outCountAtLeast', line, n(c.atLeast))
            : t('plans_outCountAtMost', line, n(c.atMost ?? 0));
      if (!c.transcript) return { expected, actual: none };
      const k = c.hits.length;
      const actual = k ? t(k === 1 ? 'plans_outTimeAt' : 'plans_outTimesAt', n(k), list(c.hits, ', ')) : t('plans_outTimes', n(k));
      return { expected, actual };
    }
    case 'withinFirst': {
      const expected = t(c.turns === 1 ? 'plans_outWithinFirstTurn' : 'plans_outWithinFirstTurns', lineText(c.line, t), n(c.turns));
      if (!c.found) return { expected, actual: c.transcript ? t('plans_outNotSaid') : none };
      return { expected, actual: c.found.n <= c.turns ? turnText(c.found, t, n) : t('plans_outOnlyAt', turnText(c.found, t, n)) };
    }
    case 'noRepeatedAgentLines': {
      const expected = t('plans_outNoAgentLineTwice');
      if (c.repeat) return { expected, actual: t('plans_outRepeatedAt', n(c.repeat.first), n(c.repeat.second), c.repeat.text) };
      return { expected, actual: c.transcript ? t('plans_outNoneRepeated') : none };
    }
    case 'neverReveals': {
      const expected = t('plans_outAgentNeverSays', c.names.join(', '));
      if (c.found) return { expected, actual: t('plans_outRevealedAt', c.found.name, turnText(c.found.turn, t, n)) };
      return { expected, actual: c.transcript ? t(c.agentTurns === 1 ? 'plans_outNoneInAgentTurn' : 'plans_outNoneInAgentTurns', n(c.agentTurns)) : none };
    }
    case 'agentEnded': {
      const expected = t(c.expected ? 'plans_outAgentEndedCall' : 'plans_outAgentDidNotEnd');
      if (c.hangupBy !== null) return { expected, actual: t(c.byAgent ? 'plans_outEndedTelephony' : 'plans_outNotEndedTelephony', c.hangupBy) };
      if (c.last) return { expected, actual: t(c.byAgent ? 'plans_outEndedTranscript' : 'plans_outNotEndedTranscript', turnText(c.last, t, n)) };
      return { expected, actual: t('plans_outNoHangupNoTranscript') };
    }
  }
}

/** The outcome's name, expected and found sides in the language of `t`; an outcome without `check` (an older stored run) as the judge wrote it. */
export function outcomeText(o: CheckedOutcome, t: Lookup, n: NumberText = String): { name: string; expected: string; actual: string } {
  if (!o.check) return { name: o.name, expected: o.expected, actual: o.actual };
  return { name: name(o.check, t, n), ...sides(o.check, o, t, n) };
}

/** A failing outcome as one line: `status: expected completed, got busy` (the exports' failure line, in the language of `t`). */
export function failureText(o: CheckedOutcome, t: Lookup, n: NumberText = String): string {
  const x = outcomeText(o, t, n);
  return t('plans_outFailure', x.name, x.expected, x.actual);
}
