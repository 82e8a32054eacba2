// The editor's draft: what is typed becomes the plan file's value, checked like an import; plans open for editing unchanged.
import { describe, expect, it } from 'vitest';
import { caseToDraft, draftProblems, draftToValue, emptyCase, emptyPlan, freeCaseId, planToDraft, problemPlace, type PlanDraft } from '../../../lib/plans/draft';
import { checkPlan } from '../../../lib/plans/schema';
import { plan } from './fixtures';

const full = plan({
  from_number: '+14155550100',
  cases: [
    {
      id: 'ok',
      label: 'Callback',
      contact_number: '+14155550123',
      variables: { intent: 'callback', name: 'Ann' },
      expect: {
        status: 'completed',
        extracted: { interested: { equals: true }, callback_time: { present: true, contains: '10am' }, budget: { min: 10, max: 20 }, tier: { one_of: ['gold', 'silver'] }, code: { matches: '^A\\d+$' }, gone: { absent: true } },
        transcript: { contains: ['call back', 'tomorrow'], not_contains: ['refund'] },
        duration: { at_least: 5, at_most: 60 },
        cost: { at_most: 30 },
        hangup_by: 'Callee',
      },
    },
    { id: 'busy', label: 'Busy', contact_number: '+14155551001', expect: { status: ['busy', 'no-answer'] } },
  ],
});

describe('draft ↔ plan', () => {
  it('a plan opened in the editor and saved unchanged is the same plan', () => {
    const again = checkPlan(draftToValue(planToDraft(full)));
    expect(again).toEqual({ ok: true, plan: full });
  });

  it('a field compared with its case (case_sensitive) keeps it through an edit', () => {
    const strict = plan({
      cases: [{ id: 'c', label: 'C', contact_number: '+14155550123', expect: { extracted: { name: { matches: '^Ann$', case_sensitive: true }, city: { contains: 'paris' } } } }],
    });
    const again = checkPlan(draftToValue(planToDraft(strict)));
    expect(again).toEqual({ ok: true, plan: strict });
  });

  it('a fresh draft is refused with the problems of the fields left empty, by place', () => {
    const d = emptyPlan('agent-1');
    const r = checkPlan(draftToValue(d));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.problems.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'cases[0].label', 'cases[0].contact_number']));
  });

  it('keeps a number field typed wrong as text, so the schema names it (nothing is silently dropped)', () => {
    const d: PlanDraft = { ...planToDraft(full) };
    d.cases[0] = { ...d.cases[0]!, durationAtMost: 'a minute', costAtMost: '-1', checks: [{ field: 'budget', check: 'min', value: 'ten' }] };
    const r = checkPlan(draftToValue(d));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => `${p.path}: ${p.message}`)).toEqual(
      expect.arrayContaining(['cases[0].expect.duration.at_most: must be a number', 'cases[0].expect.cost.at_most: must be 0 or more', 'cases[0].expect.extracted.budget.min: must be a number']),
    );
  });

  it('reads typed values: true/false and numbers as such, one_of split on commas, phrases one per line, blank rows ignored', () => {
    const c = { ...emptyCase('x'), label: 'L', contactNumber: ' +14155550123 ' };
    c.variables = [{ name: 'intent', value: 'decline' }, { name: '', value: '' }];
    c.checks = [
      { field: 'interested', check: 'equals', value: 'false' },
      { field: 'tier', check: 'one_of', value: 'gold, 3 ,' },
      { field: '', check: 'equals', value: '' },
    ];
    c.contains = 'No thanks\n\n  not interested ';
    const r = checkPlan(draftToValue({ name: 'P', agentId: 'a', fromNumber: '', cases: [c] }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.plan.cases[0]).toEqual({
      id: 'x',
      label: 'L',
      contact_number: '+14155550123',
      variables: { intent: 'decline' },
      expect: { extracted: { interested: { equals: false }, tier: { one_of: ['gold', 3] } }, transcript: { contains: ['No thanks', 'not interested'] } },
    });
  });

  it('a case made from a call opens with its values', () => {
    const d = caseToDraft(full.cases[1]!);
    expect(d.status).toEqual(['busy', 'no-answer']);
    expect(d.contactNumber).toBe('+14155551001');
  });

  it('names free case ids and problem places as a person reads them', () => {
    const d = planToDraft(plan({ cases: [{ id: 'case-2', label: 'Two', contact_number: '+14155550123' }] }));
    expect(freeCaseId(d)).toBe('case-3');
    expect(problemPlace('cases[0].expect.status', d)).toBe('Case 1 (Two), expect.status');
    expect(problemPlace('name', d)).toBe('name');
    expect(problemPlace('', d)).toBe('The plan');
  });
});

describe('the editor keeps the checks on what was said, latency, caller scripts and sensitive patterns', () => {
  it('a plan with every new field opens in the editor and saves back unchanged', () => {
    const value = {
      format: 'voice-agent-test-plan',
      version: 1,
      name: 'Bank',
      agent_id: 'agent-1',
      sensitive_patterns: [{ name: 'pin', pattern: '\\bpin \\d{4}\\b' }],
      cases: [
        {
          id: 'dob',
          label: 'Date of birth first',
          contact_number: '+14155550123',
          variables: {},
          expect: {
            transcript: { contains: ['balance'], in_order: [{ speaker: 'agent', says: 'date of birth' }, { speaker: 'agent', says: 'your balance' }], agent_never_reveals: true },
            latency: { turn_p95_at_most_ms: 2000 },
          },
          caller_script: [{ say: 'My balance please' }, { silent: 8 }, { hang_up: true }],
        },
      ],
    };
    const parsed = checkPlan(value);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const draft = planToDraft(parsed.plan);
    expect(draft.cases[0]!.callerScript).toBe('say: My balance please\nsilent: 8\nhang up');
    const again = checkPlan(draftToValue(draft));
    expect(again).toEqual({ ok: true, plan: parsed.plan });
  });

  it('"more checks" that are not JSON are named with their case, and nothing typed is lost', () => {
    const c = { ...emptyCase('case-1'), moreChecks: '{"latency": ' };
    const problems = draftProblems({ name: 'x', agentId: 'a', fromNumber: '', cases: [c] });
    expect(problems).toEqual([{ path: 'cases[0].more_checks', message: expect.stringMatching(/^is not JSON: /) }]);
    expect(c.moreChecks).toBe('{"latency": ');
  });
});
