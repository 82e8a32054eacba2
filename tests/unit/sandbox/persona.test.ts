// The sandbox's conversations follow each row's variables (sandbox/persona.ts): pure rules, then a batch over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execution } from '../../../lib/api/schemas';
import { callResult, type CallContext } from '../../../sandbox/calls';
import { intentOf, personaFor } from '../../../sandbox/persona';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { placeCalls, waitForTerminal } from '../../../sandbox/testing';

const ctx = (recipientData: Record<string, string>, toNumber = '+14155550123'): CallContext => ({ agentName: 'Sales', recipientData, toNumber });

describe('persona rules', () => {
  it('the intent comes from the `intent` variable, any case; unknown or absent is the default callback', () => {
    expect(intentOf({ Intent: ' Decline ' })).toBe('decline');
    expect(intentOf({ intent: 'question' })).toBe('question');
    expect(intentOf({ intent: 'dance' })).toBe('callback');
    expect(intentOf({})).toBe('callback');
  });

  it('no variables: the default conversation, unchanged (callback tomorrow at 10am)', () => {
    const r = callResult('completed', ctx({ name: 'Grace' }));
    expect(r.extracted_data).toEqual({ interested: true, callback_time: 'tomorrow 10am', wants_demo: true, customer_name: 'Grace' });
    expect(r.transcript).toContain('user: Tomorrow at 10am works for me.');
    expect(r.hangup_by).toBe('Callee');
  });

  it('callback_time: the callee asks for that time and it is extracted as given', () => {
    const r = callResult('completed', ctx({ intent: 'callback', callback_time: 'Friday at 3pm' }));
    expect(r.extracted_data).toMatchObject({ interested: true, callback_time: 'Friday at 3pm' });
    expect(r.transcript).toContain('user: Friday at 3pm works for me.');
    expect(r.transcript).toContain("I've noted Friday at 3pm.");
    expect(r.summary).toContain('Friday at 3pm');
  });

  it('decline: interested false, no callback_time, a shorter call', () => {
    const plain = callResult('completed', ctx({}));
    const r = callResult('completed', ctx({ intent: 'decline', name: 'Bo' }));
    expect(r.extracted_data).toEqual({ interested: false, wants_demo: false, customer_name: 'Bo' });
    expect(r.transcript).toContain("No thanks, I'm not interested.");
    expect(r.transcript).not.toMatch(/call you back/);
    expect(r.conversation_duration!).toBeLessThan(plain.conversation_duration!);
    expect(r.total_cost!).toBeLessThan(plain.total_cost!);
  });

  it('question: the callee asks the row`s question, which is extracted', () => {
    const r = callResult('completed', ctx({ intent: 'question', question: 'do you support Spanish?' }));
    expect(r.extracted_data).toMatchObject({ interested: true, wants_demo: false, question: 'do you support Spanish?' });
    expect(r.transcript).toContain('Maybe. First, do you support Spanish?');
    expect(personaFor({ intent: 'question' }).extracted.question).toBe('how much does the monthly plan cost?');
  });

  it('hangup: the callee hangs up early', () => {
    const r = callResult('completed', ctx({ intent: 'hangup' }));
    expect(r).toMatchObject({ conversation_duration: 8, hangup_by: 'Callee', extracted_data: { interested: false } });
    expect(r.transcript!.split('\n').at(-1)).toBe("user: Sorry, I can't talk now.");
  });

  it('the number still decides the outcome: voicemail and busy ignore the intent', () => {
    expect(callResult('voicemail', ctx({ intent: 'decline' }, '+14155551004')).extracted_data).toEqual({ voicemail: true, interested: false });
    expect(callResult('busy', ctx({ intent: 'decline' }, '+14155551001'))).toMatchObject({ transcript: null, extracted_data: null });
  });
});

describe('over HTTP', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ speed: 600 });
  });
  afterAll(() => sb.close());

  it('each row of one batch gets its own conversation, and carries its variables as the live service shows them', async () => {
    const rows = [
      { contact_number: '+14155550123', test_case_id: 'cb', intent: 'callback', callback_time: 'Monday 9am' },
      { contact_number: '+14155550124', test_case_id: 'no', intent: 'decline', callback_time: '' },
    ];
    const { executionIds } = await placeCalls(sb.url, SEED.A.agents.sales, rows);
    const done = await Promise.all(executionIds.map((id) => waitForTerminal(sb.url, id, undefined, 15_000)));
    const records = done.map((body) => execution.parse(body));
    const byCase = Object.fromEntries(records.map((r) => [(r.context_details as any).recipient_data.test_case_id, r]));
    expect(byCase.cb!.extracted_data).toMatchObject({ interested: true, callback_time: 'Monday 9am' });
    expect(byCase.no!.extracted_data).toMatchObject({ interested: false });
    expect(byCase.no!.extracted_data).not.toHaveProperty('callback_time');
    expect(byCase.no!.context_details).toEqual({ recipient_data: { test_case_id: 'no', intent: 'decline', callback_time: '' }, recipient_phone_number: '+14155550124' });
  });
});
