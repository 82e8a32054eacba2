/**
 * The page's finder knows countries and calling codes without libphonenumber-js (lib/phone/countries.ts):
 * the table must stay the library's, or the page would take a setting, a Country cell's ISO code or a
 * number's country code differently from the background that parses.
 */
import { describe, expect, it } from 'vitest';
import { getCountries, getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/min';
import { callingCodeOf, countryCodes, isCountry, supportedCountry } from '../../../lib/phone/countries';

describe('countries without the phone library', () => {
  it('are exactly the library’s, each with its calling code', () => {
    expect(countryCodes()).toEqual(getCountries());
    for (const country of getCountries()) expect(callingCodeOf(country)).toBe(getCountryCallingCode(country));
  });

  it('answers as the library does for codes it does not know', () => {
    for (const code of ['ZZ', 'UK', 'EU', 'us', '', 'USA']) {
      expect(isCountry(code)).toBe(isSupportedCountry(code));
      expect(callingCodeOf(code)).toBe('');
    }
  });

  it('reads a setting in any case, and nothing for an unknown one', () => {
    expect(supportedCountry('gb')).toBe('GB');
    expect(supportedCountry('GB')).toBe('GB');
    expect(supportedCountry('UK')).toBeUndefined();
    expect(supportedCountry(undefined)).toBeUndefined();
  });
});
