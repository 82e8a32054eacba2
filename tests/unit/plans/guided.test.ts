// Guided calls: the tester's marks on a caller script join the case's verdict, the run's counts and
// every export; the script's text form and the ready-made scripts.
import { describe, expect, it } from 'vitest';
import { parseStringPromise } from 'xml2js';
import { toCsv, toJson, toJUnit } from '../../../lib/plans/export';
import { guidedResult, READY_SCRIPT_NAMES, readyScript, scriptFromText, scriptToText, withMark, type StepMark } from '../../../lib/plans/guided';
import { judgeRun } from '../../../lib/plans/judge';
import { callerScript } from '../../../lib/plans/checks-schema';
import { liveExecution, plan } from './fixtures';
import de from '../../../public/_locales/de/messages.json';
import en from '../../../public/_locales/en/messages.json';

const script = [{ say: "I'd like Friday at 3pm" }, { silent: 8 }, { interrupt: true as const }, { press: '1' }, { hang_up: true as const }];
const guidedPlan = () =>
  plan({ cases: [{ id: 'ok', label: 'Books Friday', contact_number: '+14155550123', expect: { status: 'completed' }, caller_script: script }] });
const run = () => judgeRun(guidedPlan(), new Map([['ok', liveExecution()]]));
const mark = (step: number, m: 'done' | 'wrong', note = '', atMs = 12_000): StepMark => ({ step, mark: m, note, atMs });

describe('marks join the verdict', () => {
  it('every step done: the case passes, each marked step an outcome with its time', () => {
    const marks = script.map((_, i) => mark(i, 'done', '', 5000 * (i + 1)));
    const r = guidedResult(run(), guidedPlan().cases[0]!.caller_script, { caseId: 'ok', toNumber: '+14155550199', marks });
    expect(r.verdict).toBe('pass');
    expect(r.cases[0]!.outcomes.slice(1).map((o) => [o.name, o.expected, o.actual])).toEqual([
      ['caller script step 1', 'say "I\'d like Friday at 3pm"', 'done at 0:05'],
      ['caller script step 2', 'stay silent 8 s', 'done at 0:10'],
      ['caller script step 3', 'interrupt the agent', 'done at 0:15'],
      ['caller script step 4', 'press 1', 'done at 0:20'],
      ['caller script step 5', 'hang up', 'done at 0:25'],
    ]);
  });

  it('a step marked wrong fails the case with the note as the reason, in the counts and every export', async () => {
    const marks = [mark(0, 'done', '', 4000), mark(1, 'wrong', 'The agent talked over my silence', 71_000)];
    const r = guidedResult(run(), guidedPlan().cases[0]!.caller_script, { caseId: 'ok', toNumber: '+14155550199', marks });
    expect(r).toMatchObject({ verdict: 'fail', counts: { pass: 0, fail: 1, error: 0 } });
    const c = r.cases[0]!;
    expect(c.outcomes.find((o) => !o.passed)).toMatchObject({ name: 'caller script step 2', passed: false, expected: 'stay silent 8 s', actual: 'wrong at 1:11: The agent talked over my silence' });
    expect(c.script!.map((s) => [s.step, s.mark, s.note])).toEqual([
      [1, 'done', ''],
      [2, 'wrong', 'The agent talked over my silence'],
      [3, null, ''],
      [4, null, ''],
      [5, null, ''],
    ]);

    const doc = await parseStringPromise(toJUnit(r), { strict: true });
    const tc = doc.testsuites.testsuite[0].testcase[0];
    expect(tc.failure[0].$.message).toBe('caller script step 2: expected stay silent 8 s, got wrong at 1:11: The agent talked over my silence');
    expect(tc.properties[0].property.map((p: any) => p.$)).toContainEqual({ name: 'caller_script', value: '5 steps: 1 done, 1 wrong, 3 not marked' });
    expect(JSON.parse(toJson(r)).cases[0].script[1]).toEqual({ step: 2, text: 'stay silent 8 s', mark: 'wrong', note: 'The agent talked over my silence', atMs: 71_000 });
    expect(toCsv(r)).toContain('fail,completed');
    expect(toCsv(r)).toContain('The agent talked over my silence');
  });

  it('a call that never happened stays in error, whatever the marks', () => {
    const never = judgeRun(guidedPlan(), new Map());
    const r = guidedResult(never, script, { caseId: 'ok', toNumber: '+14155550199', marks: [mark(0, 'done')] });
    expect(r.verdict).toBe('error');
  });

  it('a new mark of a step replaces its earlier one; null clears it', () => {
    const marks = withMark([mark(1, 'wrong', 'x')], 1, mark(1, 'done'));
    expect(marks).toEqual([mark(1, 'done')]);
    expect(withMark(marks, 1, null)).toEqual([]);
  });
});

describe('the script as text, and the ready-made scripts', () => {
  it('round-trips every kind of step', () => {
    const text = scriptToText(script);
    expect(text).toBe("say: I'd like Friday at 3pm\nsilent: 8\ninterrupt\npress: 1\nhang up");
    expect(scriptFromText(text)).toEqual({ steps: script, problems: [] });
    expect(scriptFromText('Silent: 8 s\nInterrupt: stop\nhangup').steps).toEqual([{ silent: 8 }, { interrupt: 'stop' }, { hang_up: true }]);
  });

  it('names a line that is not a step; a wrong argument is left for the schema to refuse with its path', () => {
    const r = scriptFromText('say: hi\nshout: hello\npress: 1a');
    expect(r.problems).toEqual(['line 2: "shout: hello" is not a step; start it with say:, silent:, interrupt, press: or hang up']);
    expect(callerScript.safeParse(r.steps).success).toBe(false);
  });

  it('every ready-made script is a valid caller script, its lines in the catalogue’s language', () => {
    expect(READY_SCRIPT_NAMES).toEqual(['voicemail', 'angry', 'human', 'wrong-number', 'silence']);
    for (const catalogue of [en, de] as Record<string, { message: string }>[]) {
      const text = (key: string) => catalogue[key]!.message;
      for (const name of READY_SCRIPT_NAMES) expect(callerScript.safeParse(readyScript(name, text)).success, name).toBe(true);
    }
    expect(scriptToText(readyScript('silence', (key) => (de as Record<string, { message: string }>)[key]!.message))).toBe('silent: 15\nsay: Hallo?\nsilent: 15');
    expect(scriptToText(readyScript('angry', (key) => (en as Record<string, { message: string }>)[key]!.message))).toBe(
      'say: Why do you keep calling me? This is the third time this week!\ninterrupt: I said I am not interested, stop talking.\nsay: Take me off your list right now.\nsilent: 5\nhang up',
    );
  });
});
