import { describe, expect, it } from 'vitest';
import { csvField, singleCallCsv, validateVariables, CsvError } from '../../../lib/calls/csv';

describe('single-call CSV', () => {
  it('has a contact_number header and one row', () => {
    expect(singleCallCsv('+14155552671')).toBe('contact_number\n+14155552671\n');
  });
  it('quotes commas, quotes and line breaks', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('plain')).toBe('plain');
  });
  it('refuses bad variable names with a readable reason', () => {
    expect(validateVariables({ 'first name': 'x' })[0]).toMatch(/letters, digits and _/);
    expect(validateVariables({ contact_number: 'x' })[0]).toMatch(/filled from the phone number/);
    expect(() => singleCallCsv('+1', { '1x': 'y' })).toThrow(CsvError);
  });
});
