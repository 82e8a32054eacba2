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

describe('parsePlan: checks on what was said, latency, caller scripts (every wrong field named with a reason)', () => {
  const transcript = (t: Record<string, unknown>) => withCase({ expect: { transcript: t } });
  const at = (text: string) => problems(text).map((p) => `${p.path}: ${p.message}`);

  it('accepts every new check written right', () => {
    const r = parsePlan(
      JSON.stringify({
        ...base,
        sensitive_patterns: [{ name: 'order-pin', pattern: '\\bpin \\d{4}\\b', flags: 'i' }],
        cases: [
          {
            ...base.cases[0],
            expect: {
              transcript: {
                says: [{ speaker: 'agent', says: 'date of birth' }],
                never_says: [{ speaker: 'caller', matches: 'lawyer', flags: '' }],
                in_order: [{ speaker: 'agent', says: 'date of birth' }, { speaker: 'agent', says: 'your balance' }],
                count: [{ speaker: 'agent', matches: 'sorry|repeat', at_most: 2 }],
                within_first_turns: { turns: 2, says: [{ speaker: 'agent', says: 'recorded' }] },
                no_repeated_agent_lines: true,
                agent_ended_call: true,
                agent_never_reveals: ['card_number', 'order-pin'],
              },
              latency: { first_audio_at_most_ms: 1500, turn_p95_at_most_ms: 2000 },
            },
            caller_script: [{ say: 'Friday at 3pm' }, { silent: 8 }, { interrupt: true }, { press: '1#' }, { hang_up: true }],
          },
        ],
      }),
    );
    expect(r.ok, JSON.stringify(!r.ok && r.problems)).toBe(true);
  });

  it('refuses wrong lines, counts and flags with the path and the reason', () => {
    expect(at(transcript({ says: [{ speaker: 'robot', says: 'x' }] }))).toEqual(['cases[0].expect.transcript.says[0].speaker: must be one of "agent", "caller", "anyone"']);
    expect(at(transcript({ says: [{ speaker: 'agent' }] }))).toEqual(['cases[0].expect.transcript.says[0]: give says (a phrase) or matches (a pattern), one of them']);
    expect(at(transcript({ never_says: [{ says: 'x', flags: 'i' }] }))).toEqual(['cases[0].expect.transcript.never_says[0]: flags go with matches only']);
    expect(at(transcript({ says: [{ matches: 'a', flags: 'gx' }] }))).toEqual(['cases[0].expect.transcript.says[0].flags: must be made of i, m and s, each at most once ("" keeps case)']);
    expect(at(transcript({ says: [{ matches: '(' }] }))).toContain('cases[0].expect.transcript.says[0].matches: is not a valid regular expression');
    expect(at(transcript({ in_order: [{ says: 'a' }] }))).toEqual(['cases[0].expect.transcript.in_order: needs at least two lines, in the order they must come']);
    expect(at(transcript({ count: [{ says: 'sorry' }] }))).toEqual(['cases[0].expect.transcript.count[0]: needs at_most or at_least']);
    expect(at(transcript({ count: [{ says: 'sorry', at_most: 1.5 }] }))).toEqual(['cases[0].expect.transcript.count[0].at_most: must be a whole number']);
    expect(at(transcript({ within_first_turns: { turns: 0, says: [{ says: 'x' }] } }))).toEqual(['cases[0].expect.transcript.within_first_turns.turns: must be 1 or more']);
    expect(at(transcript({ agent_ended_call: 'yes' }))).toEqual(['cases[0].expect.transcript.agent_ended_call: must be true or false']);
    expect(at(transcript({ no_repeated_agent_lines: false }))).toEqual(['cases[0].expect.transcript.no_repeated_agent_lines: must be true (leave it out otherwise)']);
  });

  it('refuses unknown pattern names, clashing names and bad patterns of the plan', () => {
    expect(at(transcript({ agent_never_reveals: ['passport'] }))).toEqual([
      'cases[0].expect.transcript.agent_never_reveals[0]: "passport" is not a pattern: use a built-in one (card_number, us_ssn, uk_nino, iban) or add it to the plan\'s sensitive_patterns',
    ]);
    expect(at(transcript({ agent_never_reveals: false }))).toEqual(['cases[0].expect.transcript.agent_never_reveals: must be true or a list of pattern names']);
    const plan = (patterns: unknown) => JSON.stringify({ ...base, sensitive_patterns: patterns });
    expect(at(plan([{ name: 'iban', pattern: 'x' }]))).toEqual(['sensitive_patterns[0].name: "iban" is a built-in pattern\'s name; choose another']);
    expect(at(plan([{ name: 'pin', pattern: 'a', flags: 'q' }]))).toEqual(['sensitive_patterns[0].flags: must be made of i, m and s, each at most once ("" keeps case)']);
    expect(at(plan([{ name: 'pin', pattern: '[' }]))).toContain('sensitive_patterns[0].pattern: is not a valid regular expression');
  });

  it('refuses wrong latency bounds', () => {
    expect(at(withCase({ expect: { latency: {} } }))).toEqual([
      'cases[0].expect.latency: says nothing to check: use first_audio_at_most_ms, turn_median_at_most_ms, turn_p95_at_most_ms or turn_worst_at_most_ms',
    ]);
    expect(at(withCase({ expect: { latency: { turn_p95_at_most_ms: -1 } } }))).toEqual(['cases[0].expect.latency.turn_p95_at_most_ms: must be 0 or more']);
    expect(at(withCase({ expect: { latency: { p99_ms: 1 } } }))).toContain('cases[0].expect.latency: unknown key "p99_ms"');
  });

  it('refuses wrong caller script steps', () => {
    expect(at(withCase({ caller_script: [] }))).toEqual(['cases[0].caller_script: needs at least one step']);
    expect(at(withCase({ caller_script: [{ say: 'hi', press: '1' }] }))).toEqual(['cases[0].caller_script[0]: a step does one thing: give exactly one of say, silent, interrupt, press, hang_up']);
    expect(at(withCase({ caller_script: [{ press: '12a' }] }))).toEqual(['cases[0].caller_script[0].press: must be 1–20 keys: digits, * or #']);
    expect(at(withCase({ caller_script: [{ silent: 0 }] }))).toEqual(['cases[0].caller_script[0].silent: must be above 0']);
    expect(at(withCase({ caller_script: [{ shout: 'hi' }] }))).toContain('cases[0].caller_script[0]: unknown key "shout"');
  });
});
