/**
 * Guided calls: a case's caller script for the tester who answers the phone, the marks they give each
 * step during the call, and how marks join the case's verdict (a step marked wrong fails the case, its
 * note the reason). Also the script's one-step-a-line text form the editor uses, and the ready-made
 * scripts. Pure.
 */
import { z } from '../zod';
import type { MessageKey } from '../i18n';
import type { ScriptStep, ScriptStepResult } from './checks-schema';
import type { CheckedOutcome } from './outcome-text';

export type { ScriptStepResult } from './checks-schema';
import type { CaseResult, RunResult, Verdict } from './judge';

export const NOTE_MAX = 200;

/** A step's mark as the tester gives it; `atMs` is the call's elapsed time when they marked it. */
export const stepMark = z.strictObject({
  step: z.number().int().min(0).max(49),
  mark: z.enum(['done', 'wrong']),
  note: z.string().trim().max(NOTE_MAX, `must be ${NOTE_MAX} characters or fewer`).default(''),
  atMs: z.number().int().nonnegative(),
});
export type StepMark = z.infer<typeof stepMark>;

/** What a guided run keeps beside its plan run: the case, the tester's number, the marks so far. */
export const guidedRun = z.strictObject({
  caseId: z.string().min(1).max(64),
  toNumber: z.string().min(1).max(32),
  marks: z.array(stepMark).max(50),
});
export type GuidedRun = z.infer<typeof guidedRun>;

/** A step as a person reads it: `say "I'd like Friday at 3pm"`, `stay silent 8 s`, `press 1`. */
export function stepText(step: ScriptStep): string {
  if (step.say !== undefined) return `say ${JSON.stringify(step.say)}`;
  if (step.silent !== undefined) return `stay silent ${step.silent} s`;
  if (step.interrupt !== undefined) return step.interrupt === true ? 'interrupt the agent' : `interrupt the agent: ${JSON.stringify(step.interrupt)}`;
  if (step.press !== undefined) return `press ${step.press}`;
  return 'hang up';
}

/** A mark replacing any earlier mark of the same step; `null` clears it. */
export function withMark(marks: readonly StepMark[], step: number, mark: StepMark | null): StepMark[] {
  const rest = marks.filter((m) => m.step !== step);
  return (mark ? [...rest, mark] : rest).sort((a, b) => a.step - b.step);
}

export const elapsedText = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * The case's result with the tester's marks joined: every marked step an outcome (`caller script step
 * 2`), a step marked wrong failing it with the note as the reason. Unmarked steps judge nothing but are
 * listed. A case whose call never happened stays in error.
 */
export function withScript(result: CaseResult, script: readonly ScriptStep[], marks: readonly StepMark[]): CaseResult {
  const steps: ScriptStepResult[] = script.map((s, i) => {
    const m = marks.find((x) => x.step === i);
    return { step: i + 1, text: stepText(s), mark: m?.mark ?? null, note: m?.note ?? '', atMs: m?.atMs ?? null };
  });
  const outcomes: CheckedOutcome[] = steps
    .filter((s) => s.mark)
    .map((s) => ({
      name: `caller script step ${s.step}`,
      passed: s.mark === 'done',
      expected: s.text,
      actual: `${s.mark === 'done' ? 'done' : 'wrong'} at ${elapsedText(s.atMs!)}${s.note ? `: ${s.note}` : s.mark === 'wrong' ? ' (no note)' : ''}`,
      check: { kind: 'callerStep', step: s.step, script: script[s.step - 1]!, mark: s.mark!, atMs: s.atMs!, note: s.note },
    }));
  const all = [...result.outcomes, ...outcomes];
  const verdict: Verdict = result.verdict === 'error' ? 'error' : all.every((o) => o.passed) ? 'pass' : 'fail';
  return { ...result, outcomes: all, verdict, script: steps };
}

/** The run's result with a guided case's marks joined, counts and verdict again from its cases. */
export function guidedResult(result: RunResult, script: readonly ScriptStep[] | undefined, guided: GuidedRun): RunResult {
  if (!script) return result;
  const cases = result.cases.map((c) => (c.caseId === guided.caseId ? withScript(c, script, guided.marks) : c));
  const counts: Record<Verdict, number> = { pass: 0, fail: 0, error: 0 };
  for (const c of cases) counts[c.verdict]++;
  return { ...result, cases, counts, verdict: counts.fail ? 'fail' : counts.error ? 'error' : 'pass' };
}

// The text form: one step a line, `say: …`, `silent: 8`, `interrupt` (or `interrupt: …`), `press: 1`, `hang up`.

export function scriptToText(script: readonly ScriptStep[] | undefined): string {
  return (script ?? [])
    .map((s) =>
      s.say !== undefined ? `say: ${s.say}` : s.silent !== undefined ? `silent: ${s.silent}` : s.interrupt !== undefined ? (s.interrupt === true ? 'interrupt' : `interrupt: ${s.interrupt}`) : s.press !== undefined ? `press: ${s.press}` : 'hang up',
    )
    .join('\n');
}

/**
 * Steps from the text form, blank lines skipped; each line that is not a step is named with its
 * number. The steps are then checked by the plan's schema like any other field.
 */
export function scriptFromText(text: string): { steps: Array<Record<string, unknown>>; problems: string[] } {
  const steps: Array<Record<string, unknown>> = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const m = /^(say|silent|interrupt|press|hang ?up)\s*(?::\s*(.*))?$/i.exec(line);
    const kind = m?.[1]!.toLowerCase().replace(' ', '');
    const arg = m?.[2]?.trim() ?? '';
    if (!m) {
      problems.push(`line ${i + 1}: "${line}" is not a step; start it with say:, silent:, interrupt, press: or hang up`);
      // Kept as written, so the plan's schema refuses it with its path (an unknown key).
      const [word, ...rest] = line.split(':');
      steps.push({ [word!.trim() || 'step']: rest.join(':').trim() });
    }
    else if (kind === 'say') steps.push({ say: arg });
    else if (kind === 'silent') steps.push({ silent: arg === '' ? Number.NaN : Number(arg.replace(/\s*s(ec(onds?)?)?$/i, '')) });
    else if (kind === 'interrupt') steps.push({ interrupt: arg || true });
    else if (kind === 'press') steps.push({ press: arg });
    else steps.push({ hang_up: true });
  });
  return { steps, problems };
}

/**
 * Ready-made scripts for the classic cases (insertable in the plan editor). What the caller says is a
 * message key: the tester says it in the UI's language (the agent under test speaks it too, most
 * often), so readyScript takes the catalogue's lookup.
 */
type ReadyStep = { say: MessageKey } | { interrupt: MessageKey } | { silent: number } | { press: string } | { hang_up: true };
const READY = {
  voicemail: [{ say: 'plans_readyVoicemailSay' }, { silent: 20 }, { hang_up: true }],
  angry: [{ say: 'plans_readyAngrySay1' }, { interrupt: 'plans_readyAngryInterrupt' }, { say: 'plans_readyAngrySay2' }, { silent: 5 }, { hang_up: true }],
  human: [{ say: 'plans_readyHumanSay1' }, { say: 'plans_readyHumanSay2' }, { press: '0' }, { silent: 10 }],
  'wrong-number': [{ say: 'plans_readyWrongNumberSay1' }, { say: 'plans_readyWrongNumberSay2' }, { hang_up: true }],
  silence: [{ silent: 15 }, { say: 'plans_readySilenceSay' }, { silent: 15 }],
} satisfies Record<string, ReadyStep[]>;

/** A ready-made script, its lines in the language `text` answers in (the UI's t). */
export function readyScript(name: ReadyScript, text: (key: MessageKey) => string): ScriptStep[] {
  return (READY[name] as ReadyStep[]).map((step) => ('say' in step ? { say: text(step.say) } : 'interrupt' in step ? { interrupt: text(step.interrupt) } : step));
}
export type ReadyScript = keyof typeof READY;
export const READY_SCRIPT_NAMES = Object.keys(READY) as ReadyScript[];

/**
 * A stored run's result as the panel shows and exports it: a guided run's marks joined (they are stored
 * apart from the result, since the tester marks during the call, before the result exists).
 */
export function runResultOf(run: { result: RunResult | null; guided?: GuidedRun | null; plan: { cases: readonly { id: string; caller_script?: ScriptStep[] }[] } }): RunResult | null {
  if (!run.result || !run.guided) return run.result;
  return guidedResult(run.result, run.plan.cases.find((c) => c.id === run.guided!.caseId)?.caller_script, run.guided);
}

/** When a guided call began dialling, on our clock: the batch's start less the service clock's offset. */
export function callStartMs(run: { scheduledAt: string | null; clockOffset?: number }): number | null {
  const at = run.scheduledAt ? Date.parse(run.scheduledAt) : NaN;
  return Number.isNaN(at) ? null : at - (run.clockOffset ?? 0);
}
