import { afterEach, describe, expect, it, vi } from 'vitest';
import { countLine } from '../../../components/page/OnThisPage';
import { formatCents } from '../../../lib/money';
import { uiLocale } from '../../../lib/locale';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("numbers and money in the browser's locale", () => {
  it('the locale is navigator.language, en-US where there is none', () => {
    vi.stubGlobal('navigator', { language: 'de-DE' });
    expect(uiLocale()).toBe('de-DE');
    vi.stubGlobal('navigator', undefined);
    expect(uiLocale()).toBe('en-US');
  });

  it.each([
    ['en-US', '$0.42', '$1,234.50'],
    ['de-DE', '0,42\u00a0$', '1.234,50\u00a0$'],
    ['fr-FR', '0,42\u00a0$US', '1\u202f234,50\u00a0$US'],
  ])('costs in %s: %s and %s', (language, small, large) => {
    vi.stubGlobal('navigator', { language });
    expect(formatCents(42)).toBe(small);
    expect(formatCents(123450)).toBe(large);
  });

  it('counts of numbers on a page are grouped for the locale (the words come from the catalogue)', () => {
    vi.stubGlobal('navigator', { language: 'de-DE' });
    expect(countLine(500, 5000)).toBe('Showing 500 of 5.000 numbers');
    vi.stubGlobal('navigator', { language: 'en-US' });
    expect(countLine(1, 1)).toBe('1 number');
    expect(countLine(5000, 5000)).toBe('5,000 numbers');
  });
});
