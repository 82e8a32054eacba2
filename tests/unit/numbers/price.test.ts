import { describe, expect, it } from 'vitest';
import { checkPattern, formatPrice } from '../../../lib/numbers/price';

describe('formatPrice: the service price as dollars in the browser locale', () => {
  it('formats the quoted amount with Intl, in the given locale', () => {
    expect(formatPrice(1.15, 'en-US')).toBe('$1.15');
    expect(formatPrice(3, 'en-US')).toBe('$3.00');
    expect(formatPrice(0.0075, 'en-US')).toBe('$0.0075');
    expect(formatPrice(1.15, 'de-DE')).toMatch(/^1,15\s\$$/);
  });
  it('says nothing rather than a wrong price when the service gave none', () => {
    expect(formatPrice(null)).toBeNull();
    expect(formatPrice(undefined)).toBeNull();
    expect(formatPrice(Number.NaN)).toBeNull();
    expect(formatPrice(-1)).toBeNull();
  });
});

describe('checkPattern', () => {
  it('takes digits, ignoring spaces and dashes', () => {
    expect(checkPattern('')).toEqual({ ok: true, pattern: '' });
    expect(checkPattern(' 415 ')).toEqual({ ok: true, pattern: '415' });
    expect(checkPattern('415-555')).toEqual({ ok: true, pattern: '415555' });
  });
  it.each([['letters', 'abc'], ['a plus', '+1415'], ['eleven digits', '12345678901']])('refuses %s', (_l, text) => {
    expect(checkPattern(text).ok).toBe(false);
  });
});
