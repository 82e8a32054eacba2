/**
 * Checks on what was said, turn by turn: who said what (agent or caller), in which order, how often,
 * within the first turns, and what the agent must never say. Turns come from the one transcript
 * parser (lib/executions/transcript.ts); phrases compare as every text check does (looseText: case
 * and spacing ignored), patterns with their flags (default `i`) on the turn's text with spacing as
 * one space. Each check answers a Match: both sides as text for the results. Pure.
 */
import { parseTranscript, type TranscriptTurn } from '../executions/transcript';
import type { CountRule, Line, Who } from './checks-schema';
import { looseText, type Match } from './matchers';
import type { LineRef, SaidCheck, TurnRef } from './outcome-text';
import { findSensitive, regexFlags, type SensitivePattern } from './sensitive';

/** A turn with its place in the conversation, counted from 1 over both speakers. */
export interface Turn extends TranscriptTurn {
  n: number;
}

export const turnsOf = (transcript: string | null | undefined): Turn[] => parseTranscript(transcript).map((t, i) => ({ ...t, n: i + 1 }));

const WHO_WORD: Record<Who, string> = { agent: 'the agent', caller: 'the caller', anyone: 'anyone' };
const SPEAKER_WORD = { assistant: 'agent', user: 'caller' } as const;

export function spokenBy(turn: TranscriptTurn, who: Who = 'anyone'): boolean {
  if (who === 'anyone') return true;
  return turn.speaker === (who === 'agent' ? 'assistant' : 'user');
}

/** Does this turn say the line? Phrases: case and spacing ignored. Patterns: their flags (default i). */
export function turnSays(turn: TranscriptTurn, l: Pick<Line, 'speaker' | 'says' | 'matches' | 'flags'>): boolean {
  if (!spokenBy(turn, l.speaker)) return false;
  if (l.says !== undefined) return looseText(turn.text).includes(looseText(l.says));
  return new RegExp(l.matches!, regexFlags(l.flags)).test(turn.text.replace(/\s+/g, ' '));
}

/** `the agent says "date of birth"`, `the caller matches /^no\b/i`. */
export function lineText(l: Pick<Line, 'speaker' | 'says' | 'matches' | 'flags'>): string {
  const what = l.says !== undefined ? `says ${JSON.stringify(l.says)}` : `matches /${l.matches}/${l.flags ?? 'i'}`;
  return `${WHO_WORD[l.speaker ?? 'anyone']} ${what}`;
}

const EXCERPT = 60;
/** A turn as the results cite it: its number, who spoke, its words (quoted, shortened). */
export function turnRef(turn: Turn): TurnRef {
  const text = turn.text.replace(/\s+/g, ' ');
  const short = text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text;
  return { n: turn.n, speaker: turn.speaker ? SPEAKER_WORD[turn.speaker] : null, excerpt: JSON.stringify(short) };
}

/** `turn 3 (agent): "May I have your date of birth?"`, shortened. */
export function turnText(turn: Turn): string {
  const r = turnRef(turn);
  return `turn ${r.n}${r.speaker ? ` (${r.speaker})` : ''}: ${r.excerpt}`;
}

/** A line as data, for the results in the UI's language. */
const lineRef = (l: Pick<Line, 'speaker' | 'says' | 'matches' | 'flags'>): LineRef => ({ who: l.speaker ?? 'anyone', says: l.says, matches: l.matches, flags: l.flags });
const refOr = (t: Turn | null | undefined) => (t ? turnRef(t) : null);

const NO_TRANSCRIPT = '(no transcript)';
const firstSaying = (turns: readonly Turn[], l: Line) => turns.find((t) => turnSays(t, l)) ?? null;

type Said<K extends SaidCheck['kind']> = Match & { check: Extract<SaidCheck, { kind: K }> };

export function says(l: Line, turns: readonly Turn[]): Said<'says'> {
  const found = firstSaying(turns, l);
  return {
    passed: !!found,
    expected: lineText(l),
    actual: found ? turnText(found) : turns.length ? 'not said' : NO_TRANSCRIPT,
    check: { kind: 'says', line: lineRef(l), found: refOr(found), transcript: turns.length > 0 },
  };
}

export function neverSays(l: Line, turns: readonly Turn[]): Said<'neverSays'> {
  const found = firstSaying(turns, l);
  return {
    passed: !found,
    expected: `never: ${lineText(l)}`,
    actual: found ? turnText(found) : turns.length ? 'not said' : NO_TRANSCRIPT,
    check: { kind: 'neverSays', line: lineRef(l), found: refOr(found), transcript: turns.length > 0 },
  };
}

/**
 * "X before Y": the first turn saying each line comes after the first turn saying the line before it.
 * Every line must be said (a line never said fails the order).
 */
export function inOrder(ls: readonly Line[], turns: readonly Turn[]): Said<'inOrder'> {
  const expected = `in this order: ${ls.map(lineText).join(' → ')}`;
  const check = { kind: 'inOrder', lines: ls.map(lineRef), transcript: turns.length > 0, missing: null, wrong: null, turns: [] } satisfies SaidCheck;
  if (!turns.length) return { passed: false, expected, actual: NO_TRANSCRIPT, check };
  const firsts = ls.map((l) => firstSaying(turns, l));
  const missing = firsts.findIndex((t) => !t);
  if (missing >= 0) return { passed: false, expected, actual: `never: ${lineText(ls[missing]!)}`, check: { ...check, missing } };
  for (let i = 1; i < firsts.length; i++) {
    if (firsts[i]!.n <= firsts[i - 1]!.n) {
      return {
        passed: false,
        expected,
        actual: `${lineText(ls[i]!)} first at turn ${firsts[i]!.n}, before (or in) turn ${firsts[i - 1]!.n} where ${lineText(ls[i - 1]!)}`,
        check: { ...check, wrong: { index: i, at: firsts[i]!.n, before: firsts[i - 1]!.n } },
      };
    }
  }
  const at = firsts.map((t) => t!.n);
  return { passed: true, expected, actual: `turns ${at.join(' → ')}`, check: { ...check, turns: at } };
}

/** How many turns say the line, within `at_least`..`at_most`. */
export function counted(rule: CountRule, turns: readonly Turn[]): Said<'count'> {
  const hits = turns.filter((t) => turnSays(t, rule));
  const bounds = [rule.at_least !== undefined ? `at least ${rule.at_least}` : '', rule.at_most !== undefined ? `at most ${rule.at_most}` : ''].filter(Boolean).join(' and ');
  const n = hits.length;
  const passed = (rule.at_least === undefined || n >= rule.at_least) && (rule.at_most === undefined || n <= rule.at_most);
  const where = n ? ` (turns ${hits.map((t) => t.n).join(', ')})` : '';
  return {
    passed: turns.length ? passed : false,
    expected: `${lineText(rule)} ${bounds} times`,
    actual: turns.length ? `${n} time${n === 1 ? '' : 's'}${where}` : NO_TRANSCRIPT,
    check: { kind: 'count', line: lineRef(rule), atLeast: rule.at_least ?? null, atMost: rule.at_most ?? null, transcript: turns.length > 0, hits: hits.map((t) => t.n) },
  };
}

/** Said within the first `n` turns of the conversation (both speakers counted). */
export function withinFirst(n: number, l: Line, turns: readonly Turn[]): Said<'withinFirst'> {
  const found = firstSaying(turns, l);
  const expected = `${lineText(l)} within the first ${n} turn${n === 1 ? '' : 's'}`;
  const check = { kind: 'withinFirst', line: lineRef(l), turns: n, found: refOr(found), transcript: turns.length > 0 } satisfies SaidCheck;
  if (!found) return { passed: false, expected, actual: turns.length ? 'not said' : NO_TRANSCRIPT, check };
  return { passed: found.n <= n, expected, actual: found.n <= n ? turnText(found) : `only at ${turnText(found)}`, check };
}

/** No agent line said twice (compared as every text is: case and spacing ignored). */
export function noRepeatedAgentLines(turns: readonly Turn[]): Said<'noRepeatedAgentLines'> {
  const seen = new Map<string, Turn>();
  const check = { kind: 'noRepeatedAgentLines', transcript: turns.length > 0, repeat: null } satisfies SaidCheck;
  for (const t of turns) {
    if (!spokenBy(t, 'agent')) continue;
    const key = looseText(t.text);
    const earlier = seen.get(key);
    if (earlier) {
      const text = JSON.stringify(t.text.replace(/\s+/g, ' '));
      return { passed: false, expected: 'no agent line said twice', actual: `turns ${earlier.n} and ${t.n}: ${text}`, check: { ...check, repeat: { first: earlier.n, second: t.n, text } } };
    }
    seen.set(key, t);
  }
  return { passed: true, expected: 'no agent line said twice', actual: turns.length ? 'none repeated' : NO_TRANSCRIPT, check };
}

/** What the agent must never say, found in its turns by pattern. */
export function neverReveals(patterns: readonly SensitivePattern[], turns: readonly Turn[]): Said<'neverReveals'> {
  const names = patterns.map((p) => p.name);
  const expected = `the agent never says a ${names.join(', ')}`;
  const agentTurns = turns.filter((t) => spokenBy(t, 'agent')).length;
  const check = { kind: 'neverReveals', names, transcript: turns.length > 0, found: null, agentTurns } satisfies SaidCheck;
  for (const t of turns) {
    if (!spokenBy(t, 'agent')) continue;
    const [found] = findSensitive(t.text, patterns);
    if (found) return { passed: false, expected, actual: `${found.name} at ${turnText(t)}`, check: { ...check, found: { name: found.name, turn: turnRef(t) } } };
  }
  return { passed: true, expected, actual: turns.length ? `none in ${agentTurns} agent turn${agentTurns === 1 ? '' : 's'}` : NO_TRANSCRIPT, check };
}

/** Telephony's word for who hung up, from the agent's side of the call. */
const AGENT_SIDE = new Set(['agent', 'assistant', 'bot', 'ai']);

/**
 * Who ended the call, from `telephony_data.hangup_by` when the service says it: the agent places
 * outbound calls, so there `Caller` is the agent and `Callee` the person called (inbound: the other
 * way round). Without `hangup_by`, the transcript decides: the agent said the last turn.
 */
export function agentEnded(
  expected: boolean,
  hangup: { hangupBy: string | null | undefined; callType: string | null | undefined },
  turns: readonly Turn[],
): Said<'agentEnded'> {
  const expectedText = expected ? 'the agent ended the call' : 'the agent did not end the call';
  const check = { kind: 'agentEnded', expected, byAgent: null, hangupBy: null, last: null } satisfies SaidCheck;
  if (hangup.hangupBy) {
    const by = looseText(hangup.hangupBy);
    const agentWord = looseText(hangup.callType ?? '') === 'inbound' ? 'callee' : 'caller';
    const byAgent = by === agentWord || AGENT_SIDE.has(by);
    const quoted = JSON.stringify(hangup.hangupBy);
    return { passed: byAgent === expected, expected: expectedText, actual: `${byAgent ? 'the agent' : 'not the agent'}: hangup_by ${quoted} (telephony)`, check: { ...check, byAgent, hangupBy: quoted } };
  }
  const last = turns[turns.length - 1];
  if (!last) return { passed: false, expected: expectedText, actual: '(no hangup_by, no transcript)', check };
  const byAgent = last.speaker === 'assistant';
  return {
    passed: byAgent === expected,
    expected: expectedText,
    actual: `${byAgent ? 'the agent' : 'not the agent'}: the last ${turnText(last)} (transcript; no hangup_by)`,
    check: { ...check, byAgent, last: turnRef(last) },
  };
}
