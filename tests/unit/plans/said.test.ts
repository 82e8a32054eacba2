// Checks on what was said, turn by turn, on transcripts in the sandbox's (spec) shape and in the live
// service's looser shape, through the judge as a plan states them.
import { describe, expect, it } from 'vitest';
import { judgeCase } from '../../../lib/plans/judge';
import { inOrder, turnsOf } from '../../../lib/plans/said';
import { BUILT_IN_PATTERNS, findSensitive, ibanValid, luhn } from '../../../lib/plans/sensitive';
import type { TestPlanInput } from '../../../lib/plans/schema';
import { liveExecution, plan, specExecution } from './fixtures';

/** A support call as the sandbox and the spec write it: one `assistant:` / `user:` utterance per line. */
const BANK = [
  'assistant: Hello, this is Ava from Acme Bank. This call is recorded.',
  "user: Hi, I'd like to know my balance.",
  'assistant: Sorry, could you repeat that?',
  'user: My   BALANCE please.',
  'assistant: Of course. Can you confirm your date of birth?',
  'user: March 3rd, 1980.',
  'assistant: Thank you. Your balance is 1,204 dollars.',
  'user: Thanks, bye.',
  'assistant: Goodbye!',
].join('\n');

/** The same call as live transcripts come: a blank first line, CRLF, other speaker words, a wrapped turn. */
const BANK_LIVE = [
  '',
  'Agent: Hello, this is Ava from Acme Bank.',
  'This call is recorded.',
  "Customer:  Hi, I'd like to know my balance.",
  'Agent: Sorry, could you repeat that?',
  'Customer: My   BALANCE please.',
  'Agent: Of course. Can you confirm your date of birth?',
  'Customer: March 3rd, 1980.',
  'Agent: Thank you. Your balance is 1,204 dollars.',
  'Customer: Thanks, bye.',
  'Agent: Goodbye!',
].join('\r\n');

const oneCase = (expect: NonNullable<TestPlanInput['cases'][number]['expect']>, extra: Partial<TestPlanInput> = {}) =>
  plan({ ...extra, cases: [{ id: 'bank', label: 'Balance after date of birth', contact_number: '+14155550123', expect }] });

const judge = (expect: Parameters<typeof oneCase>[0], transcript: string, over: Record<string, unknown> = {}, extra: Partial<TestPlanInput> = {}) => {
  const p = oneCase(expect, extra);
  return judgeCase(p.cases[0]!, liveExecution({ transcript, ...over }), null, p.sensitive_patterns);
};

describe.each([
  ['spec/sandbox shape', BANK],
  ['live shape', BANK_LIVE],
])('turn checks on the %s', (_shape, transcript) => {
  it('reads nine turns, the wrapped line staying in its turn', () => {
    const turns = turnsOf(transcript);
    expect(turns).toHaveLength(9);
    expect(turns[0]).toMatchObject({ n: 1, speaker: 'assistant' });
    expect(turns[0]!.text.replace(/\s+/g, ' ')).toBe('Hello, this is Ava from Acme Bank. This call is recorded.');
  });

  it('per speaker: a caller phrase is not an agent phrase; case and spacing are ignored', () => {
    const r = judge(
      {
        transcript: {
          says: [{ speaker: 'caller', says: 'my balance please' }, { speaker: 'agent', says: 'DATE OF BIRTH' }],
          never_says: [{ speaker: 'agent', says: 'my balance please' }],
        },
      },
      transcript,
    );
    expect(r.verdict).toBe('pass');
    expect(r.outcomes[0]).toMatchObject({ name: 'transcript says', expected: 'the caller says "my balance please"', actual: 'turn 4 (caller): "My BALANCE please."' });

    const wrong = judge({ transcript: { says: [{ speaker: 'agent', says: 'my balance please' }] } }, transcript);
    expect(wrong.verdict).toBe('fail');
    expect(wrong.outcomes[0]).toMatchObject({ passed: false, actual: 'not said' });
  });

  it('in order: date of birth before the balance passes; the other way round fails naming both turns', () => {
    const dob = { speaker: 'agent' as const, says: 'date of birth' };
    const balance = { speaker: 'agent' as const, matches: 'balance is [0-9,]+' };
    expect(judge({ transcript: { in_order: [dob, balance] } }, transcript).outcomes[0]).toMatchObject({ passed: true, actual: 'turns 5 → 7' });
    const reversed = judge({ transcript: { in_order: [balance, dob] } }, transcript);
    expect(reversed.verdict).toBe('fail');
    expect(reversed.outcomes[0]!.actual).toBe('the agent says "date of birth" first at turn 5, before (or in) turn 7 where the agent matches /balance is [0-9,]+/i');
  });

  it('counted: at most 1 re-prompt passes, at most 0 fails with where they were', () => {
    const reprompt = { speaker: 'agent' as const, matches: 'sorry|repeat|say that again' };
    expect(judge({ transcript: { count: [{ ...reprompt, at_most: 1 }] } }, transcript).verdict).toBe('pass');
    const strict = judge({ transcript: { count: [{ ...reprompt, at_most: 0 }] } }, transcript);
    expect(strict.outcomes[0]).toMatchObject({ passed: false, expected: 'the agent matches /sorry|repeat|say that again/i at most 0 times', actual: '1 time (turns 3)' });
  });

  it('within the first turns: the recording notice in turn 1 passes; the date of birth within 3 fails', () => {
    const r = judge({ transcript: { within_first_turns: { turns: 3, says: [{ speaker: 'agent', says: 'call is recorded' }, { speaker: 'agent', says: 'date of birth' }] } } }, transcript);
    expect(r.outcomes.map((o) => o.passed)).toEqual([true, false]);
    expect(r.outcomes[1]!.actual).toMatch(/^only at turn 5 \(agent\)/);
  });

  it('the agent ended the call: from the transcript when telephony has no hangup_by', () => {
    const r = judge({ transcript: { agent_ended_call: true } }, transcript, { telephony_data: { to_number: '+14155550123' } });
    expect(r.outcomes[0]).toMatchObject({ passed: true, actual: 'the agent: the last turn 9 (agent): "Goodbye!" (transcript; no hangup_by)' });
  });
});

describe('turn checks beyond one transcript shape', () => {
  it('no agent line said twice: a repeated line fails whatever its case and spacing', () => {
    const looping = 'assistant: Can I help you?\nuser: Hm.\nassistant: can I  help you?\nuser: No.';
    const r = judge({ transcript: { no_repeated_agent_lines: true } }, looping);
    expect(r.outcomes[0]).toMatchObject({ passed: false, actual: 'turns 1 and 3: "can I help you?"' });
    expect(judge({ transcript: { no_repeated_agent_lines: true } }, BANK).outcomes[0]!.passed).toBe(true);
  });

  it('the agent ended the call: telephony hangup_by decides when present (outbound: Caller is the agent)', () => {
    // The fixture's live execution was hung up by the Callee (the person called).
    const byCallee = judge({ transcript: { agent_ended_call: true } }, BANK);
    expect(byCallee.outcomes[0]).toMatchObject({ passed: false, actual: 'not the agent: hangup_by "Callee" (telephony)' });
    const byCaller = judgeCase(oneCase({ transcript: { agent_ended_call: true } }).cases[0]!, specExecution());
    expect(byCaller.outcomes[0]).toMatchObject({ passed: true, actual: 'the agent: hangup_by "Caller" (telephony)' });
    const inbound = judge({ transcript: { agent_ended_call: false } }, BANK, { telephony_data: { hangup_by: 'Caller', call_type: 'inbound' } });
    expect(inbound.outcomes[0]!.passed).toBe(true);
  });

  it('patterns take flags: "" keeps case, the default ignores it', () => {
    expect(judge({ transcript: { says: [{ speaker: 'agent', matches: 'ACME BANK' }] } }, BANK).verdict).toBe('pass');
    const kept = judge({ transcript: { says: [{ speaker: 'agent', matches: 'ACME BANK', flags: '' }] } }, BANK);
    expect(kept.outcomes[0]).toMatchObject({ passed: false, expected: 'the agent matches /ACME BANK/', actual: 'not said' });
  });

  it('never reveals: a card number (Luhn-valid) in an agent turn fails; an order number of card length does not', () => {
    const leak = `${BANK}\nassistant: Your card 4111 1111 1111 1111 is on file.`;
    const r = judge({ transcript: { agent_never_reveals: true } }, leak);
    expect(r.outcomes[0]).toMatchObject({ name: 'agent never reveals', passed: false });
    expect(r.outcomes[0]!.actual).toBe('card_number at turn 10 (agent): "Your card 4111 1111 1111 1111 is on file."');
    const order = `${BANK}\nassistant: Your order 4111 1111 1111 1112 ships today.`;
    expect(judge({ transcript: { agent_never_reveals: true } }, order).outcomes[0]).toMatchObject({ passed: true, actual: 'none in 6 agent turns' });
    // The caller saying it is not the agent revealing it.
    expect(judge({ transcript: { agent_never_reveals: ['card_number'] } }, `${BANK}\nuser: It is 4111-1111-1111-1111.`).verdict).toBe('pass');
  });

  it("never reveals: national ids, and the plan's own pattern with its flags", () => {
    const plans = { sensitive_patterns: [{ name: 'pin', pattern: String.raw`\bpin (is )?\d{4}\b` }] };
    expect(judge({ transcript: { agent_never_reveals: true } }, 'assistant: Your SSN is 123-45-6789.').outcomes[0]!.actual).toMatch(/^us_ssn at turn 1/);
    expect(judge({ transcript: { agent_never_reveals: ['uk_nino'] } }, 'assistant: NI number AB 12 34 56 C, right?').outcomes[0]!.actual).toMatch(/^uk_nino/);
    const pin = judge({ transcript: { agent_never_reveals: ['pin'] } }, 'assistant: Your PIN is 4821.', {}, plans);
    expect(pin.outcomes[0]).toMatchObject({ passed: false, expected: 'the agent never says a pin', actual: 'pin at turn 1 (agent): "Your PIN is 4821."' });
  });

  it('a missing transcript fails what must be said and passes what must not be', () => {
    const r = judge({ transcript: { says: [{ says: 'hello' }], never_says: [{ says: 'refund' }], in_order: [{ says: 'a' }, { says: 'b' }] } }, '');
    expect(r.outcomes.map((o) => [o.passed, o.actual])).toEqual([
      [false, '(no transcript)'],
      [true, '(no transcript)'],
      [false, '(no transcript)'],
    ]);
  });

  it('inOrder needs every line said', () => {
    const r = inOrder([{ says: 'hello' }, { says: 'refund' }], turnsOf(BANK));
    expect(r).toMatchObject({ passed: false, actual: 'never: anyone says "refund"' });
  });
});

describe('sensitive shapes', () => {
  it('Luhn and IBAN checksums', () => {
    expect(luhn('4111111111111111')).toBe(true);
    expect(luhn('4111111111111112')).toBe(false);
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    const iban = BUILT_IN_PATTERNS.filter((p) => p.name === 'iban');
    expect(findSensitive('IBAN DE89370400440532013001 is wrong', iban)).toEqual([]);
    expect(findSensitive('IBAN DE89 3704 0044 0532 0130 00 please', iban)).toEqual([
      { name: 'iban', text: 'DE89 3704 0044 0532 0130 00' },
    ]);
  });
});
