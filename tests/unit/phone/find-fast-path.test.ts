/**
 * Table-cell fast paths in findPhoneNumbers: phone-only texts are parsed directly, date-only and
 * ZIP+4-only texts skip libphonenumber. Results must match the full search exactly.
 */
import { describe, expect, it } from 'vitest';
import { explainPhoneNumbers, findPhoneNumbers } from '../../../lib/phone/find';

describe('phone-only cells', () => {
  it('reports the whole trimmed cell with its number and extension', () => {
    expect(findPhoneNumbers(' (415) 555-0132 ', { defaultCountry: 'US' })).toEqual([
      { raw: '(415) 555-0132', e164: '+14155550132', country: 'US', start: 1, end: 15 },
    ]);
    expect(findPhoneNumbers('+1 415-555-0133', { defaultCountry: 'US' })).toEqual([
      { raw: '+1 415-555-0133', e164: '+14155550133', country: 'US', start: 0, end: 15 },
    ]);
    expect(findPhoneNumbers('415.555.0134 x123', { defaultCountry: 'US' })).toEqual([
      { raw: '415.555.0134 x123', e164: '+14155550134', country: 'US', ext: '123', start: 0, end: 17 },
    ]);
    expect(findPhoneNumbers('+44 20 7946 0958')).toEqual([
      { raw: '+44 20 7946 0958', e164: '+442079460958', country: 'GB', start: 0, end: 16 },
    ]);
  });

  it('still applies the rejection rules and the label', () => {
    expect(findPhoneNumbers('415-555-0132', { defaultCountry: 'US', label: 'Account Number' })).toEqual([]);
    expect(explainPhoneNumbers('415-555-0132', { defaultCountry: 'US', label: 'Account Number' }).rejected).toEqual([
      { raw: '415-555-0132', e164: '+14155550132', start: 0, end: 12, reason: 'label' },
    ]);
    expect(findPhoneNumbers('2125550143', { defaultCountry: 'US', label: 'Phone' })).toHaveLength(1);
  });

  it('falls back to the full search for cells that are not one valid number', () => {
    // Unbalanced bracket: not the fast path's shape; the full search decides (as before).
    expect(findPhoneNumbers('(415 555-0132', { defaultCountry: 'US' }).map((m) => m.raw)).toEqual(['(415 555-0132']);
    expect(findPhoneNumbers('05 2024 415 555 0132', { defaultCountry: 'US' }).map((m) => m.raw)).toEqual(['415 555 0132']);
  });
});

describe('date and ZIP+4 cells', () => {
  const cells = ['2024-05-01', ' 2024-05-01T10:00 ', '2024-05-01T10:00:00.123Z', '2024-05-01T10:00+02:00', '94105-1234'];
  for (const country of ['US', 'DE', 'FR', 'IN', undefined]) {
    it(`find nothing, like the full search (${country ?? 'no country'})`, () => {
      for (const cell of cells) {
        expect(findPhoneNumbers(cell, { defaultCountry: country })).toEqual([]);
        expect(explainPhoneNumbers(cell, { defaultCountry: country }).found).toEqual([]);
      }
    });
  }
});

describe('findPhoneNumbers agrees with explainPhoneNumbers (full search)', () => {
  const texts = [
    '(415) 555-0132', '+1 (415) 555-0132', '1-800-555-0199', '4155550132', '415 555 0132 ext. 45', '415-555-0132 X 7',
    '020 7946 0958', '+49 30 123456', '2024-05-01', '2024-13-01', '1899-05-01', '94105-1234', '94105-12345',
    '2024-05-01 10:00', '$1,234.56', 'ACC-000123', 'Jane Doe', '415-555-0132, 12', '+1 415 555 0132 / 0133',
  ];
  for (const country of ['US', 'GB', 'DE', undefined]) {
    it(`${country ?? 'no country'}`, () => {
      for (const text of texts) {
        expect(findPhoneNumbers(text, { defaultCountry: country })).toEqual(explainPhoneNumbers(text, { defaultCountry: country }).found);
      }
    });
  }
});
