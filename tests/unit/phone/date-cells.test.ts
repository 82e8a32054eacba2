// @vitest-environment happy-dom
/**
 * A text that is a date and nothing else is not sent to the background (lib/phone/reject.ts
 * isOnlyDate): on a list with a date column that was half of what the page sent. Safe only if the
 * finder could never find a number in such a text, in any country: shown here over the date forms
 * people write, then on a page whose date column sits beside its phone column.
 */
import { describe, expect, it } from 'vitest';
import { findPhoneNumbers } from '../../../lib/phone/find';
import type { FindItem, FindRequest } from '../../../lib/phone/find-batch';
import { findItems, findRows } from '../../../lib/phone/find-rows';
import { isOnlyDate } from '../../../lib/phone/reject';
import { createPageScanner, scanNode } from '../../../lib/phone/scan';

const pad = (n: number) => String(n).padStart(2, '0');
/** The date forms of day d, month m, year y as lists, exports and forms in many countries write them. */
function forms(d: number, m: number, y: number): string[] {
  const yy = pad(y % 100);
  return [
    `${pad(d)}.${pad(m)}.${y}`, `${d}.${m}.${yy}`, `${pad(d)}.${pad(m)}.${yy}`, `${pad(m)}/${pad(d)}/${y}`, `${m}/${d}/${yy}`,
    `${pad(d)}/${pad(m)}/${y}`, `${y}-${pad(m)}-${pad(d)}`, `${pad(d)}-${pad(m)}-${y}`, `${y}.${pad(m)}.${pad(d)}`, `${y}/${pad(m)}/${pad(d)}`, `${y}${pad(m)}${pad(d)}`,
  ];
}
const DATES = [1, 7, 12, 19, 28, 31].flatMap((d) => [1, 2, 6, 9, 11, 12].flatMap((m) => [1987, 2003, 2019, 2026].flatMap((y) => forms(d, m, y))));
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'NL', 'IT', 'ES', 'CH', 'AT', 'PL', 'DK', 'NO', 'JP', 'CN', 'IN', 'BR', 'MX', 'AU', 'RU', 'ZA'] as const;

describe('a text that is only a date', () => {
  it('is one, in every form above (and, with a space before or after, still one)', () => {
    for (const date of DATES) expect(isOnlyDate(date), date).toBe(true);
    expect(isOnlyDate(' 27.06.2019 ')).toBe(true);
  });

  it('holds no number the finder finds, in any of 20 countries: leaving it unsent loses nothing', () => {
    const found = COUNTRIES.flatMap((country) => DATES.flatMap((date) => findPhoneNumbers(date, { defaultCountry: country }).map((n) => `${country} ${date} → ${n.e164}`)));
    expect(found).toEqual([]);
  });

  it('is not a number written with dots or dashes, nor a date among other words', () => {
    for (const text of ['030 5210494', '01.47.40.44.92', '12.34.5678', '06-12345678', '555-0132', '2019 555 0132', '+49 30 901820', 'Tel. 27.06.2019', '27.06.2019 +49 30 901820', '415.555.0132']) {
      expect(isOnlyDate(text), text).toBe(false);
    }
  });
});

describe('a page with a date column beside its phone column', () => {
  it('sends the phones, not the dates, and finds what the scanner with the library here finds', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>Kunde ${i}</td><td>030 ${5210000 + i * 7}</td><td>${pad((i % 28) + 1)}.${pad((i % 12) + 1)}.20${pad(19 + (i % 8))}</td><td>${2019 + (i % 8)}-${pad((i % 12) + 1)}-${pad((i % 28) + 1)}</td></tr>`);
    document.body.innerHTML = `<table><thead><tr><th>Name</th><th>Telefon</th><th>Erstellt am</th><th>Geändert</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
    const asked: FindItem[] = [];
    const scanner = createPageScanner({
      defaultCountry: 'DE',
      findAway: (request: FindRequest) => {
        asked.push(...findItems(request));
        return new Promise((resolve) => setTimeout(() => resolve(JSON.stringify(findRows(request))), 0));
      },
    });
    scanner.scanRoot(document.body);
    scanner.flush();
    for (let i = 0; i < 500 && scanner.hasPendingWork(); i++) await new Promise((r) => setTimeout(r, 0));
    expect(asked.filter((item) => isOnlyDate(item.text))).toEqual([]);
    expect(asked).toHaveLength(40);
    const here = scanNode(document.body, { defaultCountry: 'DE' }).map((m) => m.e164).sort();
    expect(scanner.matches().map((m) => m.e164).sort()).toEqual(here);
    expect(here).toHaveLength(40);
  });
});
