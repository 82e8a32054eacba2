// The plan file's schema: what it accepts, and readable problems (path + plain message) for what it refuses.
import { describe, expect, it } from 'vitest';
import { parsePlan, problemsText, type PlanProblem } from '../../../lib/plans/schema';

const base = {
  format: 'voice-agent-test-plan',
  version: 1,
  name: 'Sales smoke',
  agent_id: 'agent-1',
  cases: [{ id: 'callback', label: 'Asks for a callback', contact_number: '+14155550123', variables: { name: 'Ann' }, expect: { status: 'completed' } }],
};
const withCase = (c: Record<string, unknown>) => JSON.stringify({ ...base, cases: [{ ...base.cases[0], ...c }] });
const problems = (text: string): PlanProblem[] => {
  const r = parsePlan(text);
  if (r.ok) throw new Error('expected problems');
  return r.problems;
};

describe('parsePlan', () => {
  it('accepts a full plan and fills defaults', () => {
    const r = parsePlan(
      withCase({
        variables: undefined,
        expect: {
          status: ['busy', 'no-answer'],
          extracted: { interested: { equals: false }, callback_time: { present: true }, budget: { min: 1, max: 5 }, tone: { one_of: ['warm', 'neutral'] }, x: { matches: '^a', contains: 'b' }, y: { absent: true } },
          transcript: { contains: ['callback'], not_contains: ['price'] },
          duration: { at_least: 5, at_most: 120 },
          cost: { at_most: 30 },
          hangup_by: 'Callee',
        },
      }),
    );
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.plan.cases[0]!.variables).toEqual({});
  });
  it('a case with no expectations is valid (it only has to be placed)', () => {
    expect(parsePlan(withCase({ expect: undefined })).ok).toBe(true);
  });

  it.each([
    ['not JSON', '{"format":', '', /not JSON/],
    ['wrong format', JSON.stringify({ ...base, format: 'x' }), 'format', /must be "voice-agent-test-plan"/],
    ['newer version', JSON.stringify({ ...base, version: 2 }), 'version', /written for version 2; this tool reads version 1/],
    ['missing name', JSON.stringify({ ...base, name: undefined }), 'name', /is required/],
    ['no cases', JSON.stringify({ ...base, cases: [] }), 'cases', /at least one case/],
    ['bad number', withCase({ contact_number: '415 555 0123' }), 'cases[0].contact_number', /E\.164/],
    ['bad id', withCase({ id: 'has space' }), 'cases[0].id', /letters, digits/],
    ['blank label', withCase({ label: '  ' }), 'cases[0].label', /must not be empty/],
    ['bad variable name', withCase({ variables: { 'first name': 'Ann' } }), 'cases[0].variables', /Variable name "first name"/],
    ['reserved variable', withCase({ variables: { test_case_id: 'x' } }), 'cases[0].variables', /filled from the case id/],
    ['non-text variable', withCase({ variables: { age: 3 } }), 'cases[0].variables.age', /must be text/],
    ['unknown status', withCase({ expect: { status: 'done' } }), 'cases[0].expect.status', /^"done" is not a status a case can expect; use one of completed, voicemail, busy, no-answer, failed, canceled, stopped, error, balance-low$/],
    ['unknown status in a list', withCase({ expect: { status: ['busy', 'answered'] } }), 'cases[0].expect.status', /^"answered" is not a status .*use one of completed, voicemail, busy/],
    ['status of the wrong type', withCase({ expect: { status: 3 } }), 'cases[0].expect.status', /must be a status or a list of statuses: completed, voicemail/],
    ['case_sensitive alone', withCase({ expect: { extracted: { t: { case_sensitive: true } } } }), 'cases[0].expect.extracted.t', /says nothing to check/],
    ['case_sensitive with no text check', withCase({ expect: { extracted: { n: { min: 1, case_sensitive: true } } } }), 'cases[0].expect.extracted.n', /case_sensitive applies to equals, one_of, contains, matches/],
    ['case_sensitive false', withCase({ expect: { extracted: { t: { matches: 'a', case_sensitive: false } } } }), 'cases[0].expect.extracted.t.case_sensitive', /must be true \(leave it out to ignore case\)/],
    ['unknown expectation key', withCase({ expect: { statuz: 'completed' } }), 'cases[0].expect', /unknown key "statuz"/],
    ['empty field check', withCase({ expect: { extracted: { interested: {} } } }), 'cases[0].expect.extracted.interested', /says nothing to check/],
    ['bad pattern', withCase({ expect: { extracted: { t: { matches: '(' } } } }), 'cases[0].expect.extracted.t.matches', /not a valid regular expression/],
    ['min above max', withCase({ expect: { extracted: { n: { min: 5, max: 1 } } } }), 'cases[0].expect.extracted.n', /min is above max/],
    ['present and absent', withCase({ expect: { extracted: { n: { present: true, absent: true } } } }), 'cases[0].expect.extracted.n', /both present and absent/],
    ['negative duration', withCase({ expect: { duration: { at_most: -1 } } }), 'cases[0].expect.duration.at_most', /0 or more/],
    ['duration bounds crossed', withCase({ expect: { duration: { at_most: 5, at_least: 10 } } }), 'cases[0].expect.duration', /at_least is above at_most/],
    ['empty phrase', withCase({ expect: { transcript: { contains: [' '] } } }), 'cases[0].expect.transcript.contains[0]', /must not be empty/],
  ])('%s: names the path and says what is wrong', (_, text, path, message) => {
    const found = problems(text);
    const hit = found.find((p) => p.path === path);
    expect(hit, JSON.stringify(found)).toBeDefined();
    expect(hit!.message).toMatch(message);
  });

  it('duplicate case ids point at the later case', () => {
    const text = JSON.stringify({ ...base, cases: [base.cases[0], { ...base.cases[0], label: 'again' }] });
    expect(problems(text)).toEqual([{ path: 'cases[1].id', message: '"callback" is used by an earlier case; case ids must be unique' }]);
  });

  it('lists every problem at once, one per line', () => {
    const text = JSON.stringify({ ...base, name: '', cases: [{ ...base.cases[0], contact_number: 'x', label: '' }] });
    const lines = problemsText(problems(text)).split('\n');
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^name: /), expect.stringMatching(/^cases\[0\]\.contact_number: /), expect.stringMatching(/^cases\[0\]\.label: /)]));
  });
});

describe('planToJson', () => {
  it('exports a plan that imports back unchanged', async () => {
    const { planToJson } = await import('../../../lib/plans');
    const r = parsePlan(withCase({ expect: { status: ['busy'], extracted: { a: { one_of: [true, 'x'] } }, transcript: { contains: ['hi'] } } }));
    if (!r.ok) throw new Error('fixture');
    const back = parsePlan(planToJson(r.plan));
    expect(back).toEqual({ ok: true, plan: r.plan });
  });
});
