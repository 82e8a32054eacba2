// The results' wording of each expectation outcome in the UI's language (lib/plans/outcome-text.ts):
// with the English catalogue it is the judge's own English (what the exports write), for every kind
// of check; with the German one our own words are German, the plan's and the service's words kept.
import { describe, expect, it } from 'vitest';
import de from '../../../public/_locales/de/messages.json';
import en from '../../../public/_locales/en/messages.json';
import { fillMessage, type Catalogue, type MessageKey } from '../../../lib/i18n';
import { toJson } from '../../../lib/plans/export';
import { withScript } from '../../../lib/plans/guided';
import { judgeCase, judgeRun, type ExpectationOutcome } from '../../../lib/plans/judge';
import { callErrorText, failureText, outcomeText, type OutcomeKind } from '../../../lib/plans/outcome-text';
import { failRun, newRun } from '../../../lib/plans/run-state';
import { EXPECTABLE_STATUSES, type CaseExpectations } from '../../../lib/plans/schema';
import { liveExecution, plan } from './fixtures';

const lookup = (catalogue: Catalogue) => (key: MessageKey, ...subs: string[]) => {
  const entry = catalogue[key];
  if (!entry) throw new Error(`no message ${key}`);
  return fillMessage(entry, subs);
};
const EN = lookup(en as Catalogue);
const DE = lookup(de as Catalogue);

// German service data and plan words, so any English left in the German text is ours.
const TRANSCRIPT = 'assistant: Guten Tag, hier ist Ava.\nuser: Ich möchte einen Rückruf morgen.\nassistant: Gerne, notiert.\nassistant: Gerne, notiert.';
const LATENCY = { time_to_first_audio: 900, llm: { turns: [{ turn: 1, turn_latency: [{ time_to_first_token: 700 }] }, { turn: 2, turn_latency: [{ time_to_first_token: 1500 }] }] } };
const ONE_TURN = { llm: { turns: [{ turn: 1, turn_latency: [{ time_to_first_token: 700 }] }] } };

const FIELDS: CaseExpectations['extracted'] = {
  interessiert: { equals: true, present: true },
  termin: { contains: 'morgen', one_of: ['morgen', 'heute'], matches: '^mor' },
  termin_genau: { equals: 'Morgen', contains: 'Mor', one_of: ['Morgen'], matches: '^Mor', case_sensitive: true },
  budget: { min: 1000, max: 2000 },
  budget_unten: { min: 5 },
  budget_oben: { max: 5 },
  name_kunde: { absent: true },
  fehlt: { equals: 'x' },
  leer: { present: true },
};
const EXPECT: CaseExpectations = {
  status: 'completed',
  extracted: FIELDS,
  transcript: {
    contains: ['Rückruf', 'Storno'],
    not_contains: ['Rückruf', 'Storno'],
    says: [{ speaker: 'agent', says: 'Ava' }],
    never_says: [{ speaker: 'caller', matches: 'storno' }],
    in_order: [{ says: 'Ava' }, { says: 'Rückruf' }],
    count: [{ speaker: 'agent', says: 'notiert', at_most: 1 }],
    within_first_turns: { turns: 1, says: [{ says: 'Ava' }] },
    no_repeated_agent_lines: true,
    agent_ended_call: true,
    agent_never_reveals: true,
  },
  duration: { at_least: 40, at_most: 41 },
  cost: { at_most: 12.5 },
  hangup_by: 'callee',
  latency: { first_audio_at_most_ms: 1000, turn_median_at_most_ms: 1000, turn_p95_at_most_ms: 2000, turn_worst_at_most_ms: 1000 },
};
const DATA = { interessiert: true, termin: 'morgen 10 Uhr', termin_genau: 'morgen', budget: '1200', budget_unten: 7, budget_oben: 'viel', name_kunde: '', leer: null };

/** Every kind of outcome, passing and failing, with and without the service's data behind it. */
function allOutcomes(): ExpectationOutcome[] {
  const p = plan({ cases: [{ id: 'k', label: 'Alles', contact_number: '+14155550123', expect: EXPECT }] });
  const c = p.cases[0]!;
  const full = judgeCase(c, liveExecution({ transcript: TRANSCRIPT, extracted_data: DATA, latency_data: LATENCY }));
  // Nothing to read: no transcript, duration, cost, hangup, latency; a status among several.
  const bare = plan({ cases: [{ ...c, expect: { ...EXPECT, status: ['busy', 'no-answer'], latency: { first_audio_at_most_ms: 1, turn_p95_at_most_ms: 1 } } }] }).cases[0]!;
  const empty = judgeCase(bare, liveExecution({ transcript: null, conversation_duration: null, total_cost: null, telephony_data: null, extracted_data: DATA }));
  const oneTurn = judgeCase(plan({ cases: [{ ...c, expect: { latency: { first_audio_at_most_ms: 1, turn_median_at_most_ms: 1 } } }] }).cases[0]!, liveExecution({ latency_data: ONE_TURN }));
  const noTurns = judgeCase(plan({ cases: [{ ...c, expect: { latency: { turn_worst_at_most_ms: 1 } } }] }).cases[0]!, liveExecution({ latency_data: { time_to_first_audio: 5 } }));
  const guided = withScript(
    { ...full, outcomes: [] },
    [{ say: 'Freitag um 15 Uhr' }, { silent: 8 }, { interrupt: true }, { interrupt: 'Moment bitte' }, { press: '1#' }, { hang_up: true }],
    [
      { step: 0, mark: 'done', note: '', atMs: 4000 },
      { step: 1, mark: 'wrong', note: 'Agent sprach dazwischen', atMs: 71_000 },
      { step: 2, mark: 'wrong', note: '', atMs: 80_000 },
      { step: 3, mark: 'done', note: 'gut', atMs: 90_000 },
      { step: 4, mark: 'done', note: '', atMs: 95_000 },
      { step: 5, mark: 'done', note: '', atMs: 99_000 },
    ],
  );
  // Turn checks in their other forms: out of order, a line never said, counted once and not at all,
  // said only later, the transcript deciding who ended the call, a card number revealed.
  const turns = (expect: CaseExpectations, transcript: string) => judgeCase(plan({ cases: [{ ...c, expect }] }).cases[0]!, liveExecution({ transcript, telephony_data: null })).outcomes;
  const other = turns(
    {
      transcript: {
        in_order: [{ says: 'Rückruf' }, { says: 'Ava' }],
        count: [{ says: 'Rückruf', at_least: 1 }, { speaker: 'caller', matches: 'storno', flags: 'im', at_least: 1, at_most: 2 }],
        within_first_turns: { turns: 1, says: [{ says: 'Rückruf' }] },
        agent_ended_call: false,
        agent_never_reveals: true,
      },
    },
    'assistant: Guten Tag, hier ist Ava.\nuser: Ich möchte einen Rückruf morgen.\nassistant: Ihre Karte 4111 1111 1111 1111 ist notiert.',
  );
  const more = turns(
    { transcript: { in_order: [{ says: 'Ava' }, { says: 'Storno' }], within_first_turns: { turns: 3, says: [{ says: 'Storno' }] }, never_says: [{ says: 'Ava' }], agent_ended_call: true } },
    'assistant: Guten Tag, hier ist Ava.\nuser: Tschüss.',
  );
  return [...full.outcomes, ...empty.outcomes, ...oneTurn.outcomes, ...noTurns.outcomes, ...guided.outcomes, ...other, ...more];
}

const KINDS: OutcomeKind[] = [
  'status', 'extracted', 'transcriptContains', 'transcriptNotContains', 'duration', 'cost', 'hungUpBy',
  'says', 'neverSays', 'inOrder', 'count', 'withinFirst', 'noRepeatedAgentLines', 'agentEnded', 'neverReveals',
  'latency', 'callerStep',
];

/** English words of our own wording; German text holding one is not German. */
const ENGLISH = /\b(expected|got|says?|said|never|at|least|most|equals|one|of|contains?|does|matches|between|and|present|absent|unknown|transcript|latency|turns?|cents|caller|script|step|stay|silent|press|hang|up|interrupt|the|done|wrong|note|no|not|over|duration|cost|hung|by|extracted|first|audio|worst|order|count|within|repeated|line|ended|call|reveals|range)\b/i;

describe('outcome text', () => {
  const outcomes = allOutcomes();

  it('covers every kind of check, each outcome carrying its check as data', () => {
    expect(outcomes.every((o) => o.check)).toBe(true);
    expect([...new Set(outcomes.map((o) => o.check!.kind))].sort()).toEqual([...KINDS].sort());
    expect(outcomes.some((o) => o.passed) && outcomes.some((o) => !o.passed)).toBe(true);
  });

  it('in English is the judge’s own text, word for word, for every outcome and its failure line', () => {
    for (const o of outcomes) {
      expect(outcomeText(o, EN)).toEqual({ name: o.name, expected: o.expected, actual: o.actual });
      expect(failureText(o, EN)).toBe(`${o.name}: expected ${o.expected}, got ${o.actual}`);
    }
  });

  it('in German has none of our English words, for every kind', () => {
    for (const o of outcomes) {
      const x = outcomeText(o, DE);
      const ours = [x.name, x.expected, x.actual];
      // The service's status values (`no-answer`) are its words, taken out first.
      for (const text of ours.map((s) => EXPECTABLE_STATUSES.reduce((rest, status) => rest.split(status).join(' '), s))) expect({ kind: o.check!.kind, text, english: ENGLISH.exec(text)?.[0] ?? null }).toEqual({ kind: o.check!.kind, text, english: null });
    }
    const failed = outcomes.find((o) => o.check!.kind === 'status' && !o.passed)!;
    expect(failureText(failed, DE)).toBe('Status: erwartet eines von busy, no-answer, erhalten completed');
    const step = outcomes.find((o) => o.check!.kind === 'callerStep' && !o.passed)!;
    expect(outcomeText(step, DE)).toEqual({ name: 'Anruferskript, Schritt 2', expected: '8 s schweigen', actual: 'falsch bei 1:11: Agent sprach dazwischen' });
  });

  it('each form of the turn checks reads in German', () => {
    const german = outcomes.filter((o) => ['inOrder', 'count', 'withinFirst', 'agentEnded', 'neverReveals'].includes(o.check!.kind)).map((o) => outcomeText(o, DE).actual);
    expect(german).toEqual(expect.arrayContaining([
      'jemand sagt "Ava" zuerst in Redebeitrag 1, vor (oder in) Redebeitrag 2, wo jemand sagt "Rückruf"',
      'nie: jemand sagt "Storno"',
      '1-mal (Redebeiträge 2)',
      '0-mal',
      'erst in Redebeitrag 2 (Anrufer): "Ich möchte einen Rückruf morgen."',
      'der Agent: zuletzt Redebeitrag 3 (Agent): "Ihre Karte 4111 1111 1111 1111 ist notiert." (Transkript; kein hangup_by)',
      'nicht der Agent: zuletzt Redebeitrag 2 (Anrufer): "Tschüss." (Transkript; kein hangup_by)',
      'card_number in Redebeitrag 3 (Agent): "Ihre Karte 4111 1111 1111 1111 ist notiert."',
    ]));
  });

  it('why a call never happened: the judge’s English word for word, and German', () => {
    const p = plan({ cases: [{ id: 'ok', label: 'Callback', contact_number: '+14155550123', expect: { status: 'completed' } }] });
    const c = p.cases[0]!;
    const results = [
      judgeCase(c, undefined),
      judgeCase(c, liveExecution({ status: 'in-progress' })),
      judgeCase(c, liveExecution({ status: 'failed', error_message: 'Nummer ungültig' })),
      judgeCase(c, liveExecution({ status: 'balance-low' })),
      judgeCase(c, undefined, 'cancelled'),
      judgeCase(c, liveExecution({ status: 'in-progress' }), 'cancelled'),
      judgeCase(c, undefined, 'not-finished'),
      judgeCase(c, liveExecution({ status: 'ringing' }), 'not-finished'),
      ...failRun(newRun({ id: 'r1', planId: 'p1', plan: p, baseUrl: 'http://127.0.0.1' }, 0), 'Agent nicht gefunden', 5).result!.cases,
    ];
    expect(new Set(results.map((r) => r.errorCheck?.kind))).toEqual(new Set(['noExecution', 'notFinished', 'notPlaced', 'interrupted', 'batchNotPlaced']));
    for (const r of results) {
      expect(callErrorText(r.errorCheck!, EN)).toBe(r.error);
      const german = callErrorText(r.errorCheck!, DE);
      const ours = EXPECTABLE_STATUSES.reduce((rest, status) => rest.split(status).join(' '), german).replace(/in-progress|ringing/g, ' ');
      expect({ german, english: ENGLISH.exec(ours)?.[0] ?? null }).toEqual({ german, english: null });
    }
    // A case of repeats that never happened: its reason in German too.
    const run = judgeRun(plan({ repeat: 2, cases: [{ id: 'ok', label: 'Callback', contact_number: '+14155550123' }] }), new Map());
    const reason = run.cases[0]!.repeats!.reasons[0]!;
    expect([reason.reason, callErrorText(reason.errorCheck!, DE)]).toEqual(['No execution of the batch carries this case.', 'Keine Ausführung des Batches gehört zu diesem Fall.']);
  });

  it('an outcome stored without its check (an older run) is shown as the judge wrote it', () => {
    expect(outcomeText({ name: 'status', passed: false, expected: 'completed', actual: 'busy' }, DE)).toEqual({ name: 'status', expected: 'completed', actual: 'busy' });
  });

  it('the JSON export leaves the checks as data out: its shape is the one CI reads', () => {
    const p = plan({ repeat: 2, cases: [{ id: 'ok', label: 'Callback', contact_number: '+14155550123', expect: { status: 'busy' } }] });
    const run = judgeRun(p, new Map([['ok#1', liveExecution()], ['ok#2', liveExecution()]]));
    expect(run.cases[0]!.outcomes[0]!.check).toBeDefined();
    expect(run.cases[0]!.repeats!.reasons[0]!.outcome).toBeDefined();
    const json = toJson(run);
    expect(json).not.toMatch(/"(check|failedOutcomes|outcome|errorCheck)"/);
    expect(JSON.parse(json).cases[0].outcomes[0]).toEqual({ name: 'status', passed: false, expected: 'busy', actual: 'completed' });
  });
});
