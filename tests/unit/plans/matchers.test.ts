// Every matcher, on the values it passes, the ones it refuses, and the edges between.
import { describe, expect, it } from 'vitest';
import { fieldMatches, looseText, matchers } from '../../../lib/plans/matchers';

describe('extracted-data matchers', () => {
  it('equals compares as text, ignoring case and surrounding space', () => {
    expect(matchers.equals(true, true).passed).toBe(true);
    expect(matchers.equals(true, 'True ').passed).toBe(true);
    expect(matchers.equals(false, 'false').passed).toBe(true);
    expect(matchers.equals(3, '3').passed).toBe(true);
    expect(matchers.equals('Tomorrow 10am', 'tomorrow 10am').passed).toBe(true);
    expect(matchers.equals(true, false).passed).toBe(false);
    expect(matchers.equals('yes', 'yes please').passed).toBe(false);
    expect(matchers.equals('', undefined).passed).toBe(false);
    expect(matchers.equals('null', null).passed).toBe(false);
  });
  it('shows expected and actual side by side', () => {
    expect(matchers.equals(true, 'no')).toEqual({ passed: false, expected: 'equals true', actual: '"no"' });
    expect(matchers.equals(true, undefined).actual).toBe('(absent)');
    expect(matchers.equals(true, null).actual).toBe('(null)');
  });
  it('one of', () => {
    expect(matchers.oneOf(['warm', 'neutral'], 'Neutral').passed).toBe(true);
    expect(matchers.oneOf(['warm', 'neutral'], 'cold')).toEqual({ passed: false, expected: 'one of "warm", "neutral"', actual: '"cold"' });
    expect(matchers.oneOf([true], undefined).passed).toBe(false);
  });
  it('contains, case- and whitespace-insensitive', () => {
    expect(matchers.contains('10 am', 'Tomorrow   10  AM').passed).toBe(true);
    expect(matchers.contains('friday', 'tomorrow 10am').passed).toBe(false);
    expect(matchers.contains('x', null).passed).toBe(false);
  });
  it('pattern: a regular expression on the value as text', () => {
    expect(matchers.pattern('^\\d{4}$', '1200').passed).toBe(true);
    expect(matchers.pattern('^\\d{4}$', 1200).passed).toBe(true);
    expect(matchers.pattern('^\\d{4}$', '12000').passed).toBe(false);
    expect(matchers.pattern('.*', undefined).passed).toBe(false);
    expect(matchers.pattern('^a', 'b').expected).toBe('matches /^a/i');
  });
  it('pattern ignores case like every other text check, unless the field says case_sensitive', () => {
    expect(matchers.pattern('^friday', 'Friday at 3pm').passed).toBe(true);
    expect(fieldMatches({ matches: 'FRIDAY' }, 'friday at 3pm')[0]).toMatchObject({ check: 'matches', passed: true, expected: 'matches /FRIDAY/i' });
    expect(fieldMatches({ matches: 'FRIDAY', case_sensitive: true }, 'friday at 3pm')[0]).toMatchObject({ passed: false, expected: 'matches /FRIDAY/' });
    expect(fieldMatches({ matches: '^Friday', case_sensitive: true }, 'Friday at 3pm')[0]!.passed).toBe(true);
    // The same field's other text checks keep case too; spacing is still forgiven.
    expect(fieldMatches({ equals: 'Ann  Lee', case_sensitive: true }, ' Ann Lee ')[0]).toMatchObject({ passed: true, expected: 'equals "Ann  Lee" (case-sensitive)' });
    expect(fieldMatches({ equals: 'Ann Lee', case_sensitive: true }, 'ann lee')[0]!.passed).toBe(false);
    expect(fieldMatches({ one_of: ['ANN'], case_sensitive: true }, 'Ann')[0]!.passed).toBe(false);
    expect(fieldMatches({ contains: 'Lee', case_sensitive: true }, 'ann lee')[0]!.passed).toBe(false);
  });
  it('number range: inclusive bounds, numbers or numeric text, one side optional', () => {
    expect(matchers.range(1, 5, 1).passed).toBe(true);
    expect(matchers.range(1, 5, '5').passed).toBe(true);
    expect(matchers.range(1, 5, 5.01).passed).toBe(false);
    expect(matchers.range(1, 5, 0).passed).toBe(false);
    expect(matchers.range(undefined, 5, -3).passed).toBe(true);
    expect(matchers.range(10, undefined, 9).passed).toBe(false);
    expect(matchers.range(1, 5, 'three').passed).toBe(false);
    expect(matchers.range(1, 5, true).passed).toBe(false);
    expect(matchers.range(1, 5, undefined).passed).toBe(false);
    expect(matchers.range(1, 5, 2).expected).toBe('between 1 and 5');
    expect(matchers.range(1, undefined, 2).expected).toBe('at least 1');
  });
  it('present and absent: null and blank text count as absent; false and 0 are present', () => {
    for (const v of [true, false, 0, 'x']) {
      expect(matchers.present(v).passed).toBe(true);
      expect(matchers.absent(v).passed).toBe(false);
    }
    for (const v of [undefined, null, '', '  ']) {
      expect(matchers.present(v).passed).toBe(false);
      expect(matchers.absent(v).passed).toBe(true);
    }
  });
  it('fieldMatches runs every check the field asks for', () => {
    const checks = fieldMatches({ present: true, contains: '10', matches: 'am$', min: undefined }, 'tomorrow 10am');
    expect(checks.map((c) => [c.check, c.passed])).toEqual([
      ['present', true],
      ['contains', true],
      ['matches', true],
    ]);
    expect(fieldMatches({ min: 1, max: 3 }, '4').map((c) => [c.check, c.passed])).toEqual([['range', false]]);
  });
});

describe('transcript, duration, cost, hangup and status matchers', () => {
  const transcript = "assistant: Hello!\nuser: I'd like a   CALLBACK\ntomorrow.";
  it('looseText folds case and runs of whitespace, line breaks included', () => {
    expect(looseText('  A\n\tB  c ')).toBe('a b c');
  });
  it('a phrase that was said reports where it was said, in the transcript\'s own words, never "not said"', () => {
    expect(matchers.transcriptContains('a callback tomorrow', transcript)).toEqual({
      passed: true,
      expected: 'says "a callback tomorrow"',
      actual: 'said: "assistant: Hello! user: I\'d like a CALLBACK tomorrow."',
    });
    const long = `${'x'.repeat(100)} the refund is on its way ${'y'.repeat(100)}`;
    expect(matchers.transcriptContains('REFUND', long).actual).toBe(`said: "…${'x'.repeat(35)} the refund is on its way ${'y'.repeat(25)}…"`);
  });
  it('transcript contains / does not contain', () => {
    expect(matchers.transcriptContains('a callback tomorrow', transcript).passed).toBe(true);
    expect(matchers.transcriptContains('refund', transcript)).toEqual({ passed: false, expected: 'says "refund"', actual: 'not said' });
    expect(matchers.transcriptContains('hello', null)).toMatchObject({ passed: false, actual: '(no transcript)' });
    expect(matchers.transcriptNotContains('REFUND', transcript).passed).toBe(true);
    expect(matchers.transcriptNotContains('Callback', transcript)).toMatchObject({ passed: false, actual: 'said: "assistant: Hello! user: I\'d like a CALLBACK tomorrow."' });
    // No transcript says nothing it should not.
    expect(matchers.transcriptNotContains('x', null).passed).toBe(true);
  });
  it('duration at most / at least, inclusive; unknown never passes', () => {
    expect(matchers.durationAtMost(60, 60).passed).toBe(true);
    expect(matchers.durationAtMost(60, 61)).toEqual({ passed: false, expected: 'at most 60 s', actual: '61 s' });
    expect(matchers.durationAtLeast(10, 10).passed).toBe(true);
    expect(matchers.durationAtLeast(10, 9).passed).toBe(false);
    expect(matchers.durationAtLeast(0, null)).toMatchObject({ passed: false, actual: '(unknown)' });
  });
  it('cost at most, in cents', () => {
    expect(matchers.costAtMost(10, 9.99).passed).toBe(true);
    expect(matchers.costAtMost(10, 10.01)).toEqual({ passed: false, expected: 'at most 10 cents', actual: '10.01 cents' });
    expect(matchers.costAtMost(10, undefined).passed).toBe(false);
  });
  it('who hung up, case-insensitive', () => {
    expect(matchers.hangupBy('callee', 'Callee').passed).toBe(true);
    expect(matchers.hangupBy('Callee', 'Caller').passed).toBe(false);
    expect(matchers.hangupBy('Callee', null)).toMatchObject({ passed: false, actual: '(unknown)' });
  });
  it('terminal status: one or one of several', () => {
    expect(matchers.status(['busy'], 'busy')).toEqual({ passed: true, expected: 'busy', actual: 'busy' });
    expect(matchers.status(['busy', 'no-answer'], 'completed')).toEqual({ passed: false, expected: 'one of busy, no-answer', actual: 'completed' });
  });
});
