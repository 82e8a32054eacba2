/**
 * The plan file's richer checks (what was said, how fast) and the caller script of a guided case, as
 * schemas. schema.ts joins them into a case; every wrong field is refused there with its path.
 */
import { z } from '../zod';
import { BUILT_IN_NAMES, regexFlags } from './sensitive';

const nonNegative = z.number().nonnegative('must be 0 or more');

/** Flags a pattern may take besides `u` (always on): `i` ignore case, `m` multiline, `s` dot matches all. */
export const flags = z.string().regex(/^(?!.*(.).*\1)[ims]*$/, 'must be made of i, m and s, each at most once ("" keeps case)');

/** A regular expression (Unicode mode). */
export const pattern = z.string().min(1, 'must not be empty').refine(
  (p) => {
    try {
      new RegExp(p, 'u');
      return true;
    } catch {
      return false;
    }
  },
  { message: 'is not a valid regular expression' },
);

export const SPEAKERS = ['agent', 'caller', 'anyone'] as const;
export type Who = (typeof SPEAKERS)[number];

const lineShape = {
  /** Who said it: `agent`, `caller` (the person called) or `anyone` (default). */
  speaker: z.enum(SPEAKERS, `must be one of ${SPEAKERS.join(', ')}`).optional(),
  /** A phrase in one turn (case and spacing ignored). */
  says: z.string().trim().min(1, 'must not be empty').optional(),
  /** A regular expression tested on one turn. */
  matches: pattern.optional(),
  flags: flags.optional(),
};

const oneOfSaysOrMatches = (l: { says?: string; matches?: string }) => (l.says === undefined) !== (l.matches === undefined);
const flagsNeedMatches = (l: { matches?: string; flags?: string }) => l.flags === undefined || l.matches !== undefined;
const SAYS_OR_MATCHES = 'give says (a phrase) or matches (a pattern), one of them';
const FLAGS_WITH_MATCHES = 'flags go with matches only';

/** One turn's words: who and what (a phrase, or a pattern with its flags). */
export const line = z
  .strictObject(lineShape)
  .refine(oneOfSaysOrMatches, { message: SAYS_OR_MATCHES })
  .refine(flagsNeedMatches, { message: FLAGS_WITH_MATCHES })
  .refine((l) => l.matches === undefined || compiles(l.matches, l.flags), { message: 'is not a valid regular expression with these flags', path: ['matches'] });
export type Line = z.infer<typeof line>;

/** Compiles with its flags; flags that are themselves wrong are refused on their own (not twice). */
function compiles(source: string, f: string | undefined): boolean {
  if (f !== undefined && !flags.safeParse(f).success) return true;
  try {
    new RegExp(source, regexFlags(f));
    return true;
  } catch {
    return false;
  }
}

const count = z.number().int('must be a whole number').nonnegative('must be 0 or more');

/** How many turns may say it: `at_most` and/or `at_least`. */
export const countRule = z
  .strictObject({ ...lineShape, at_most: count.optional(), at_least: count.optional() })
  .refine(oneOfSaysOrMatches, { message: SAYS_OR_MATCHES })
  .refine(flagsNeedMatches, { message: FLAGS_WITH_MATCHES })
  .refine((r) => r.at_most !== undefined || r.at_least !== undefined, { message: 'needs at_most or at_least' })
  .refine((r) => r.at_most === undefined || r.at_least === undefined || r.at_least <= r.at_most, { message: 'at_least is above at_most' });
export type CountRule = z.infer<typeof countRule>;

const lines = z.array(line).min(1, 'needs at least one line');
const PATTERN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

/** The transcript checks beyond the whole-text `contains` / `not_contains` (which schema.ts keeps). */
export const turnChecks = {
  says: lines.optional(),
  never_says: lines.optional(),
  in_order: z.array(line).min(2, 'needs at least two lines, in the order they must come').optional(),
  count: z.array(countRule).min(1, 'needs at least one rule').optional(),
  within_first_turns: z
    .strictObject({ turns: z.number().int('must be a whole number').min(1, 'must be 1 or more'), says: lines })
    .optional(),
  no_repeated_agent_lines: z.literal(true, 'must be true (leave it out otherwise)').optional(),
  agent_ended_call: z.boolean('must be true or false').optional(),
  /** `true`: every built-in pattern and every pattern of the plan; or a list of their names. */
  agent_never_reveals: z
    .union([z.literal(true), z.array(z.string().regex(PATTERN_NAME, 'is not a pattern name')).min(1, 'needs at least one pattern name')], 'must be true or a list of pattern names')
    .optional(),
};

/** Latency bounds in milliseconds, judged on the execution's `latency_data`. */
export const latencyExpectation = z
  .strictObject({
    first_audio_at_most_ms: nonNegative.optional(),
    turn_median_at_most_ms: nonNegative.optional(),
    turn_p95_at_most_ms: nonNegative.optional(),
    turn_worst_at_most_ms: nonNegative.optional(),
  })
  .refine((l) => Object.values(l).some((v) => v !== undefined), {
    message: 'says nothing to check: use first_audio_at_most_ms, turn_median_at_most_ms, turn_p95_at_most_ms or turn_worst_at_most_ms',
  });
export type LatencyExpectation = z.infer<typeof latencyExpectation>;

/** A plan's own patterns for `agent_never_reveals`, added to the built-in ones. */
export const sensitivePatterns = z
  .array(
    z.strictObject({
      name: z.string().regex(PATTERN_NAME, 'must be 1–40 letters, digits, _ . or -, starting with a letter or digit'),
      pattern,
      flags: flags.optional(),
    }),
  )
  .max(50, 'a plan holds at most 50 patterns')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((p, i) => {
      if (BUILT_IN_NAMES.includes(p.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `"${p.name}" is a built-in pattern's name; choose another` });
      else if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `"${p.name}" is used by an earlier pattern` });
      seen.add(p.name);
      if (!compiles(p.pattern, p.flags)) ctx.addIssue({ code: 'custom', path: [i, 'pattern'], message: 'is not a valid regular expression with these flags' });
    });
  });

/** `agent_never_reveals` names that are neither built in nor the plan's: `[case index, name index, name]`. */
export function unknownRevealNames(cases: readonly { expect: { transcript?: { agent_never_reveals?: true | string[] } } }[], planNames: readonly string[]) {
  const known = new Set([...BUILT_IN_NAMES, ...planNames]);
  const out: Array<{ path: (string | number)[]; message: string }> = [];
  cases.forEach((c, i) => {
    const wanted = c.expect.transcript?.agent_never_reveals;
    if (!Array.isArray(wanted)) return;
    wanted.forEach((name, j) => {
      if (!known.has(name)) {
        out.push({
          path: ['cases', i, 'expect', 'transcript', 'agent_never_reveals', j],
          message: `"${name}" is not a pattern: use a built-in one (${BUILT_IN_NAMES.join(', ')}) or add it to the plan's sensitive_patterns`,
        });
      }
    });
  });
  return out;
}

// Guided calls: what the tester who answers the phone does, step by step.

export const STEP_KINDS = ['say', 'silent', 'interrupt', 'press', 'hang_up'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const scriptStep = z
  .strictObject({
    /** Say these words. */
    say: z.string().trim().min(1, 'must not be empty').max(500).optional(),
    /** Stay silent this many seconds. */
    silent: z.number().positive('must be above 0').max(300, 'must be 300 seconds or less').optional(),
    /** Talk over the agent: true, or what to say while doing it. */
    interrupt: z.union([z.literal(true), z.string().trim().min(1).max(500)], 'must be true or what to say').optional(),
    /** Keys to press: digits, * and #. */
    press: z.string().regex(/^[0-9*#]{1,20}$/, 'must be 1–20 keys: digits, * or #').optional(),
    hang_up: z.literal(true, 'must be true (leave it out otherwise)').optional(),
  })
  .refine((s) => STEP_KINDS.filter((k) => s[k] !== undefined).length === 1, { message: `a step does one thing: give exactly one of ${STEP_KINDS.join(', ')}` });
export type ScriptStep = z.infer<typeof scriptStep>;

export const callerScript = z.array(scriptStep).min(1, 'needs at least one step').max(50, 'a script holds at most 50 steps');

/** Each step of a case's script with its mark (null: not marked), as results and exports show them (lib/plans/guided.ts joins them). */
export interface ScriptStepResult {
  step: number;
  text: string;
  mark: 'done' | 'wrong' | null;
  note: string;
  atMs: number | null;
}

