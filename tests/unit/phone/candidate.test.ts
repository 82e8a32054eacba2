/**
 * The cheap tests the first stage and the scanner ask before the phone library: candidate shapes,
 * and whether a text may hold a number written without its country code (which the page's country
 * then decides; one written with "+" needs no country).
 */
import { describe, expect, it } from 'vitest';
import { hasCandidateShape, mayContainPhoneNumber, mayHoldNationalNumber } from '../../../lib/phone/candidate';

describe('candidate shapes', () => {
  it('a long text answers as mayContainPhoneNumber does', () => {
    const texts = ['Call (415) 555-0132', 'Page 12 of 40 · $125.00', '０３－１２３４－５６７８', '4155550132', '1 2 3 4 5 6', 'ISBN 978-0-306-40615-7', ''];
    for (const t of texts) expect(hasCandidateShape(t), t).toBe(mayContainPhoneNumber(t));
  });
});

describe('mayHoldNationalNumber', () => {
  it('is false only when every candidate follows a "+"', () => {
    const international = ['+44 20 7946 0958', 'Tel: +1 (415) 555-0132', '(+49) 30 901820', 'Office +33 1 42 68 53 00, mobile +81 90-1234-5678', '＋８１ ３－１２３４－５６７８', 'Page 12 · $5.00'];
    const national = ['020 7946 0958', '(415) 555-0132', '0049 30 901820', '011 44 20 7946 0958', '+44 20 7946 0958 or 020 7946 0959', '4155550132', 'Fax: 030 901820'];
    for (const t of international) expect(mayHoldNationalNumber(t), t).toBe(false);
    for (const t of national) expect(mayHoldNationalNumber(t), t).toBe(true);
  });
});
