/**
 * libphonenumber-js's ParseError is swapped at build time (and in these tests: vitest.config.ts
 * applies the same plugin) for lib/phone/parse-error.ts, a plain subclass of Error that is cheap to
 * throw. The library must behave as before: the same codes, caught where it catches them.
 */
import { describe, expect, it } from 'vitest';
import { parsePhoneNumberFromString, parsePhoneNumberWithError, validatePhoneNumberLength } from 'libphonenumber-js/min';
import ParseError from '../../../lib/phone/parse-error';
import { isLibphonenumberParseError, PARSE_ERROR_REPLACEMENT } from '../../../lib/phone/libphonenumber-plugin';

describe('the ParseError stand-in', () => {
  it('redirects only libphonenumber-js’s own imports of its ParseError', () => {
    expect(isLibphonenumberParseError('./ParseError.js', '/x/node_modules/libphonenumber-js/es6/parse.js')).toBe(true);
    expect(isLibphonenumberParseError('../ParseError.js', '/x/node_modules/libphonenumber-js/es6/helpers/extractFormattedPhoneNumberFromPossibleRfc3966NumberUri.js')).toBe(true);
    expect(isLibphonenumberParseError('./ParseError.js', '/x/lib/phone/find.ts')).toBe(false);
    expect(isLibphonenumberParseError('./parse.js', '/x/node_modules/libphonenumber-js/es6/parsePhoneNumber_.js')).toBe(false);
    expect(PARSE_ERROR_REPLACEMENT).toMatch(/lib[\\/]phone[\\/]parse-error\.ts$/);
  });

  it('is an Error with the code as its message', () => {
    const error = new ParseError('TOO_SHORT');
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('TOO_SHORT');
    expect(error.name).toBe('ParseError');
  });

  it('is what the library throws and catches: the same answers as before', () => {
    expect(() => parsePhoneNumberWithError('not a number')).toThrow(ParseError);
    expect(() => parsePhoneNumberWithError('not a number')).toThrow('NOT_A_NUMBER');
    expect(() => parsePhoneNumberWithError('+1', 'US')).toThrow('TOO_SHORT');
    expect(parsePhoneNumberFromString('not a number')).toBeUndefined();
    expect(parsePhoneNumberFromString('4155550132', 'US')?.number).toBe('+14155550132');
    expect(validatePhoneNumberLength('415', 'US')).toBe('TOO_SHORT');
    expect(validatePhoneNumberLength('41555501321234', 'US')).toBe('TOO_LONG');
  });
});
