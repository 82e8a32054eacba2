import { describe, expect, it } from 'vitest';
import { countryName, formatAsTyped, numberInSelection, parsePhoneInput, toE164 } from '../../../lib/phone/normalize';

describe('parsePhoneInput: accepted', () => {
  const cases: [text: string, country: string | undefined, e164: string, extra?: Record<string, unknown>][] = [
    ['(415) 555-0132', 'US', '+14155550132', { national: '(415) 555-0132', international: '+1 415 555 0132', country: 'US' }],
    ['415.555.0132', 'US', '+14155550132'],
    ['+1 (415) 555-0132', 'GB', '+14155550132'],
    ['  +44 20 7946 0958  ', undefined, '+442079460958', { national: '020 7946 0958', country: 'GB', type: 'FIXED_LINE' }],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['020 7946 0958', 'gb', '+442079460958'],
    ['0044 20 7946 0958', undefined, '+442079460958'],
    ['+49 30 901820', 'US', '+4930901820', { country: 'DE' }],
    ['+33 1 42 68 53 00', 'FR', '+33142685300'],
    ['+91 98765 43210', 'IN', '+919876543210', { type: 'MOBILE' }],
    ['+61 2 9374 4000', undefined, '+61293744000'],
    ['tel:+1-415-555-0132', 'US', '+14155550132'],
    ['415-555-0132 x123', 'US', '+14155550132', { ext: '123' }],
    ['+1 415 555 0132 ext. 45', 'US', '+14155550132', { ext: '45' }],
    ['4155550132;ext=9', 'US', '+14155550132', { ext: '9' }],
    ['４１５-５５５-０１３２', 'US', '+14155550132'],
  ];
  for (const [text, country, e164, extra] of cases) {
    it(`${JSON.stringify(text)} (${country ?? 'no default'})`, () => {
      const result = parsePhoneInput(text, country);
      expect(result).toMatchObject({ ok: true, e164, ...(extra ?? {}) });
    });
  }
});

describe('parsePhoneInput: refused with a readable reason', () => {
  const cases: [text: string, country: string | undefined, code: string, message: RegExp][] = [
    ['', 'US', 'EMPTY', /^Enter a phone number\.$/],
    ['   ', 'US', 'EMPTY', /Enter a phone number/],
    ['415', 'US', 'TOO_SHORT', /Too short for a United States number: 3 digits \(United States numbers have 10 digits/],
    ['415 555 01', 'US', 'TOO_SHORT', /8 digits/],
    ['415 555 01322', 'US', 'TOO_LONG', /Too long for a United States number: 11 digits/],
    ['+44 20 7946 09581', undefined, 'TOO_LONG', /United Kingdom numbers have 7, 9 or 10 digits, not counting \+44 or the leading 0/],
    ['12345678901234567890', 'US', 'TOO_LONG', /20 digits \(the longest have 15\)/],
    ['x'.repeat(80), 'US', 'TOO_LONG_INPUT', /too long to be a phone number \(80 characters\)/],
    ['+1 555 555 5555', 'US', 'INVALID_NUMBER', /\+1 555 555 5555 is not a valid \+1 number/],
    ['07700 900123', 'GB', 'INVALID_NUMBER', /not a valid United Kingdom number.*Check the area code/],
    ['1-800-FLOWERS', 'US', 'LETTERS', /can't contain letters \("FLOWERS"\)/],
    ['call me', 'US', 'LETTERS', /letters \("call me"\)/],
    ['415@555.0132', 'US', 'BAD_CHARACTER', /"@" can't be part of a phone number/],
    ['4+155550132', 'US', 'BAD_CHARACTER', /"\+" may only start the number/],
    ['020 7946 0958', undefined, 'NO_COUNTRY', /Add the country code, starting with \+/],
    ['415 555 0132', 'XX', 'UNKNOWN_COUNTRY', /"XX" is not a country we know/],
    ['+999 123 456 789', 'US', 'UNKNOWN_CALLING_CODE', /"\+999" doesn't start with a known country calling code/],
    ['()- .', 'US', 'NOT_A_NUMBER', /no digits/],
  ];
  for (const [text, country, code, message] of cases) {
    it(`${JSON.stringify(text.length > 20 ? `${text.slice(0, 20)}…` : text)} → ${code}`, () => {
      const result = parsePhoneInput(text, country);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.code).toBe(code);
      expect(result.error).toMatch(message);
      // Plain English: a sentence, no library error codes.
      expect(result.error).not.toMatch(/[A-Z]{3,}_[A-Z]+/);
    });
  }
});

describe('toE164', () => {
  it('returns E.164 or null', () => {
    expect(toE164('(415) 555-0132', 'US')).toBe('+14155550132');
    expect(toE164('020 7946 0958', 'GB')).toBe('+442079460958');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('415-555-0132 x9', 'US')).toBe('+14155550132');
    expect(toE164('not a number', 'US')).toBeNull();
    expect(toE164('555-0132', 'US')).toBeNull();
  });
});

describe('helpers', () => {
  it('names countries in English', () => {
    expect(countryName('GB')).toBe('United Kingdom');
    expect(countryName('DE')).toBe('Germany');
  });

  it('formats as the user types', () => {
    expect(formatAsTyped('4155550', 'US')).toBe('(415) 555-0');
    expect(formatAsTyped('+44207946', undefined)).toBe('+44 20 7946');
  });
});

describe('numberInSelection (context menu and shortcut)', () => {
  it('keeps a selection that is a number as selected', () => {
    expect(numberInSelection('  (415) 555-0132 ', 'US')).toBe('(415) 555-0132');
    expect(numberInSelection('+44 20 7946 0958', 'US')).toBe('+44 20 7946 0958');
  });

  it('takes the first number out of a longer selection', () => {
    expect(numberInSelection('Call me on (415) 555-0132 after 5, or 212-555-0147', 'US')).toBe('(415) 555-0132');
    expect(numberInSelection('Tel.\n020 7946 0958', 'GB')).toBe('020 7946 0958');
  });

  it('returns a selection without a number as it is (collapsed, capped), for the form to explain', () => {
    expect(numberInSelection('Order 12 of 40', 'US')).toBe('Order 12 of 40');
    expect(numberInSelection('a\n\n b', 'US')).toBe('a b');
    expect(numberInSelection('x'.repeat(300), 'US')).toHaveLength(64);
    expect(numberInSelection('   ', 'US')).toBe('');
  });
});
