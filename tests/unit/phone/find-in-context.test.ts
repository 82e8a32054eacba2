/**
 * findInContext (lib/phone/page-country.ts): the numbers of a text read with the country its page
 * gives it. The cases a list view meets most: a phone cell under its row's country, with no place of
 * its own, and the same cell naming a place.
 */
import { describe, expect, it } from 'vitest';
import { findInContext, type PageCountry } from '../../../lib/phone/page-country';
import { findPhoneNumbers } from '../../../lib/phone/find';
import { placesIn } from '../../../lib/phone/place-names';
import type { CountryCode } from '../../../lib/phone/countries';

const find = (text: string, country: CountryCode | undefined) => findPhoneNumbers(text, { defaultCountry: country });
const read = (text: string, around: CountryCode | null, defaultCountry: CountryCode | undefined = 'US') => {
  const context: PageCountry = { own: placesIn(text), around };
  return findInContext(text, defaultCountry, context, find).map((m) => m.e164);
};

describe('findInContext', () => {
  it("reads a cell with no place of its own for its row's country, never the default's", () => {
    expect(read('01 42 68 53 00', 'FR')).toEqual(['+33142685300']);
    expect(read('030 2345678', 'DE')).toEqual(['+49302345678']);
    expect(read('03-3456-7890', 'JP')).toEqual(['+81334567890']);
    // A US-shaped number under a French row is not read as American.
    expect(read('(415) 555-0132', 'FR')).toEqual([]);
    expect(read('(415) 555-0132', null)).toEqual(['+14155550132']);
  });

  it('keeps international numbers and every number of the text, in order', () => {
    expect(read('+44 20 7946 0958 / 01 42 68 53 00', 'FR')).toEqual(['+442079460958', '+33142685300']);
    expect(read('01 42 68 53 00, 01 45 55 91 11', 'FR')).toEqual(['+33142685300', '+33145559111']);
  });

  it('reads a national number after a place the text names for that place, whatever the row says', () => {
    expect(read('Paris: 01 42 68 53 00', 'DE')).toEqual(['+33142685300']);
    expect(read('Berlin 030 2345678 · Paris 01 42 68 53 00', 'US')).toEqual(['+49302345678', '+33142685300']);
  });
});
