/**
 * The test plan file: what a good call of one agent looks like, case by case. Versioned; the same
 * schema checks a file being imported and a plan the editor saves. `parsePlan` answers readable
 * problems (a path such as `cases[2].expect.duration.at_most` and a plain message), never throws.
 */
import { z } from '../zod';
import { e164 } from '../api/schemas/common';
import { validateVariables } from '../calls/csv';
import { callerScript, latencyExpectation, pattern, sensitivePatterns, turnChecks, unknownRevealNames } from './checks-schema';

export const PLAN_FORMAT = 'voice-agent-test-plan';
export const PLAN_VERSION = 1;
/** The batch CSV column that carries each row's case id (it reaches the agent as a prompt variable too). */
export const CASE_ID_VARIABLE = 'test_case_id';
/** The batch CSV column that carries each row's repeat number (1 to the case's `repeat`). */
export const REPEAT_VARIABLE = 'test_repeat';

/** Statuses a case may expect: the terminal ones, plus `voicemail` (completed, answered by voicemail). */
export const EXPECTABLE_STATUSES = ['completed', 'voicemail', 'busy', 'no-answer', 'failed', 'canceled', 'stopped', 'error', 'balance-low'] as const;
export type ExpectableStatus = (typeof EXPECTABLE_STATUSES)[number];

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const nonNegative = z.number().nonnegative('must be 0 or more');

/** The checks of a field that compare text; each ignores case unless the field says `case_sensitive: true`. */
export const TEXT_CHECKS = ['equals', 'one_of', 'contains', 'matches'] as const;

/** One extracted-data field: every key given must hold. */
export const fieldExpectation = z
  .strictObject({
    equals: scalar.optional(),
    one_of: z.array(scalar).min(1, 'needs at least one value').optional(),
    contains: z.string().min(1, 'must not be empty').optional(),
    matches: pattern.optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    present: z.literal(true, 'must be true (leave it out otherwise)').optional(),
    absent: z.literal(true, 'must be true (leave it out otherwise)').optional(),
    /** Compare this field's text with its case (equals, one_of, contains, matches); by default case is ignored. */
    case_sensitive: z.literal(true, 'must be true (leave it out to ignore case)').optional(),
  })
  .refine((f) => Object.entries(f).some(([k, v]) => k !== 'case_sensitive' && v !== undefined), {
    message: 'says nothing to check: use equals, one_of, contains, matches, min, max, present or absent',
  })
  .refine((f) => !f.case_sensitive || TEXT_CHECKS.some((k) => f[k] !== undefined), {
    message: `case_sensitive applies to ${TEXT_CHECKS.join(', ')}: give one of them, or leave case_sensitive out`,
  })
  .refine((f) => !(f.present && f.absent), { message: 'cannot be both present and absent' })
  .refine((f) => f.min === undefined || f.max === undefined || f.min <= f.max, { message: 'min is above max' });
export type FieldExpectation = z.infer<typeof fieldExpectation>;

const phrases = z.array(z.string().trim().min(1, 'a phrase must not be empty')).min(1, 'needs at least one phrase');

const isExpectable = (s: unknown): s is ExpectableStatus => (EXPECTABLE_STATUSES as readonly unknown[]).includes(s);
const STATUS_LIST = EXPECTABLE_STATUSES.join(', ');

/** One status or a list; a wrong one is named with the statuses a case may expect. */
const expectedStatus = z
  .union([z.string(), z.array(z.string()).min(1, `needs at least one status: ${STATUS_LIST}`)], `must be a status or a list of statuses: ${STATUS_LIST}`)
  .superRefine((value, ctx) => {
    for (const s of [value].flat()) {
      if (!isExpectable(s)) ctx.addIssue({ code: 'custom', message: `"${s}" is not a status a case can expect; use one of ${STATUS_LIST}` });
    }
  })
  .transform((value) => value as ExpectableStatus | ExpectableStatus[]);

export const caseExpectations = z.strictObject({
  status: expectedStatus.optional(),
  extracted: z.record(z.string().min(1), fieldExpectation).optional(),
  transcript: z
    .strictObject({ contains: phrases.optional(), not_contains: phrases.optional(), ...turnChecks })
    .optional(),
  duration: z
    .strictObject({ at_most: nonNegative.optional(), at_least: nonNegative.optional() })
    .refine((d) => d.at_most === undefined || d.at_least === undefined || d.at_least <= d.at_most, { message: 'at_least is above at_most' })
    .optional(),
  cost: z.strictObject({ at_most: nonNegative }).optional(),
  hangup_by: z.string().trim().min(1).optional(),
  latency: latencyExpectation.optional(),
});
export type CaseExpectations = z.infer<typeof caseExpectations>;

const variables = z
  .record(z.string(), z.string())
  .superRefine((vars, ctx) => {
    for (const problem of validateVariables(vars)) ctx.addIssue({ code: 'custom', message: problem });
    if (CASE_ID_VARIABLE in vars) ctx.addIssue({ code: 'custom', message: `${CASE_ID_VARIABLE} is filled from the case id; choose another variable name.` });
    if (REPEAT_VARIABLE in vars) ctx.addIssue({ code: 'custom', message: `${REPEAT_VARIABLE} is filled with the repeat number; choose another variable name.` });
  });

// Run-level fields (repeats, pass rates, the gate, retries): how often a case is called and how its
// calls make its verdict. Kept apart from the expectations, which judge one call.
/** At most this many repeats of one case, and calls of one run (every case's repeats together). */
export const MAX_REPEAT = 20;
export const MAX_RUN_CALLS = 1_000;
export const MAX_RETRY_NO_CONNECTION = 3;
export const GATES = ['blocking', 'advisory'] as const;
export type Gate = (typeof GATES)[number];

const repeat = z.number('must be a whole number from 1 to 20').int('must be a whole number from 1 to 20').min(1, 'must be at least 1').max(MAX_REPEAT, `must be at most ${MAX_REPEAT}`);
const passRate = z.number('must be a number from 0 to 1 (0.8 is 80%)').min(0, 'must be from 0 to 1 (0.8 is 80%)').max(1, 'must be from 0 to 1 (0.8 is 80%); write 80% as 0.8');
const gate = z.enum(GATES);

export const testCase = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be 1–64 letters, digits, _ . or -, starting with a letter or digit'),
  label: z.string().trim().min(1, 'must not be empty').max(200),
  contact_number: e164,
  variables: variables.default({}),
  expect: caseExpectations.default({}),
  /** A guided case: what the tester who answers does (checks-schema.ts). */
  caller_script: callerScript.optional(),
  /** Calls of this case in the run (the plan's `repeat` when left out). */
  repeat: repeat.optional(),
  /** The share of its calls that must pass (the plan's `min_pass_rate` when left out). */
  min_pass_rate: passRate.optional(),
  /** `blocking` (default): the run's verdict follows it; `advisory`: reported, never fails the run. */
  gate: gate.optional(),
});
export type TestCase = z.infer<typeof testCase>;

export const testPlan = z
  .strictObject({
    format: z.literal(PLAN_FORMAT, `must be "${PLAN_FORMAT}"`),
    version: z.literal(PLAN_VERSION, `must be ${PLAN_VERSION}`),
    name: z.string().trim().min(1, 'must not be empty').max(200),
    agent_id: z.string().trim().min(1, 'must not be empty').max(128),
    from_number: e164.optional(),
    /** Patterns added to the built-in ones for `agent_never_reveals`. */
    sensitive_patterns: sensitivePatterns.optional(),
    cases: z.array(testCase).min(1, 'a plan needs at least one case').max(500, 'a plan holds at most 500 cases'),
    /** Calls of every case (default 1); a case's own `repeat` wins. */
    repeat: repeat.optional(),
    /** The share of a case's calls that must pass (default 1: every call); a case's own wins. */
    min_pass_rate: passRate.optional(),
    /** Calls that never connected are placed again, once the batch is over, up to this many times (default 0). */
    retry_no_connection: z
      .number(`must be a whole number from 0 to ${MAX_RETRY_NO_CONNECTION}`)
      .int(`must be a whole number from 0 to ${MAX_RETRY_NO_CONNECTION}`)
      .min(0, `must be from 0 to ${MAX_RETRY_NO_CONNECTION}`)
      .max(MAX_RETRY_NO_CONNECTION, `must be at most ${MAX_RETRY_NO_CONNECTION}`)
      .optional(),
  })
  .superRefine((plan, ctx) => {
    const seen = new Set<string>();
    plan.cases.forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: ['cases', i, 'id'], message: `"${c.id}" is used by an earlier case; case ids must be unique` });
      seen.add(c.id);
    });
    for (const issue of unknownRevealNames(plan.cases, (plan.sensitive_patterns ?? []).map((p) => p.name))) ctx.addIssue({ code: 'custom', ...issue });
    const calls = plan.cases.reduce((n, c) => n + (c.repeat ?? plan.repeat ?? 1), 0);
    if (calls > MAX_RUN_CALLS) {
      ctx.addIssue({ code: 'custom', path: [plan.repeat ? 'repeat' : 'cases'], message: `the run would make ${calls} calls (every case times its repeat); a run makes at most ${MAX_RUN_CALLS}` });
    }
  });
export type TestPlan = z.infer<typeof testPlan>;
export type TestPlanInput = z.input<typeof testPlan>;

export interface PlanProblem {
  /** Where, as a person reads it: `cases[2].expect.duration.at_most`; `` for the whole file. */
  path: string;
  message: string;
}
export type PlanParse = { ok: true; plan: TestPlan } | { ok: false; problems: PlanProblem[] };

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

const TYPE_WORDS: Record<string, string> = { string: 'text', number: 'a number', int: 'a whole number', boolean: 'true or false', object: 'an object', array: 'a list', record: 'an object' };

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  if (issue.code === 'invalid_type') {
    // Zod leaves the input out of issues; its own message ends with what it received.
    if (/received undefined$/.test(issue.message)) return 'is required';
    // A message the schema gives itself (repeat: "must be a whole number from 1 to 20").
    if (!/^Invalid input/.test(issue.message)) return issue.message;
    return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
  }
  if (issue.code === 'invalid_value' && issue.values.length > 1) return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  // A union's own message when the schema gives one (expect.status lists the statuses), else a plain word.
  if (issue.code === 'invalid_union') return issue.message && issue.message !== 'Invalid input' ? issue.message : 'has the wrong form';
  return issue.message;
}

/** Checks a plan given as a value (e.g. from the editor). */
export function checkPlan(value: unknown): PlanParse {
  if (value && typeof value === 'object' && 'version' in value && typeof value.version === 'number' && value.version > PLAN_VERSION) {
    return { ok: false, problems: [{ path: 'version', message: `this plan was written for version ${value.version}; this tool reads version ${PLAN_VERSION}` }] };
  }
  const parsed = testPlan.safeParse(value);
  if (parsed.success) return { ok: true, plan: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issueMessage(issue) })) };
}

/** Checks a plan file's text (import). */
export function parsePlan(text: string): PlanParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [{ path: '', message: `the file is not JSON: ${(e as Error).message}` }] };
  }
  return checkPlan(value);
}

/** One problem per line: `cases[2].label: must not be empty`. */
export const problemsText = (problems: readonly PlanProblem[]) => problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('\n');

/** How many calls a case makes in a run. */
export const repeatsOf = (plan: Pick<TestPlan, 'repeat'>, c: Pick<TestCase, 'repeat'>) => c.repeat ?? plan.repeat ?? 1;
/** The share of a case's calls that must pass (default every call). */
export const minPassRateOf = (plan: Pick<TestPlan, 'min_pass_rate'>, c: Pick<TestCase, 'min_pass_rate'>) => c.min_pass_rate ?? plan.min_pass_rate ?? 1;
export const gateOf = (c: Pick<TestCase, 'gate'>): Gate => c.gate ?? 'blocking';
/** Every call of the run: the sum of the cases' repeats. */
export const runCalls = (plan: TestPlan) => plan.cases.reduce((n, c) => n + repeatsOf(plan, c), 0);
