// @vitest-environment happy-dom
/**
 * Issue 11 point 6: the classes of misses and wrong-country numbers the outside-* fixture pages
 * showed (tests/e2e/page-accuracy.spec.ts), each with varied cases that are not those pages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scanNode } from '../../../lib/phone/scan';

function scan(html: string, defaultCountry = 'US'): string[] {
  document.body.innerHTML = html;
  return scanNode(document.body, { defaultCountry }).map((m) => m.e164);
}

afterEach(() => {
  document.body.innerHTML = '';
});

const table = (head: string[], rows: string[][]) =>
  `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;

describe('a state or province abbreviation is not a country code', () => {
  it('State/Province columns hold US states, Brazilian and Indian states, Canadian provinces: the Country column or the default decides', () => {
    // Each row: a 2-letter state that is also an ISO country code (IN India, DE Germany, RS Serbia,
    // NL Netherlands, TN Tunisia, SA Saudi Arabia, PA Panama).
    expect(
      scan(
        table(
          ['Name', 'State/Province', 'Country', 'Phone'],
          [
            ['Indy Parts', 'IN', 'United States', '(317) 555-0123'],
            ['Blue Hen Co', 'DE', 'USA', '302-555-0144'],
            ['Gaúcha Agro', 'RS', 'Brazil', '(51) 3234-5678'],
            ['Cabot Fish', 'NL', 'Canada', '(709) 555-0166'],
            ['Chennai Mills', 'TN', 'India', '044 2345 6789'],
            ['Barossa Wines', 'SA', 'Australia', '(08) 8123 4567'],
          ],
        ),
      ),
    ).toEqual(['+13175550123', '+13025550144', '+555132345678', '+17095550166', '+914423456789', '+61881234567']);
    // No Country column: a State column's codes are states, so the default country reads the number.
    expect(scan(table(['Account', 'City', 'State', 'Phone'], [['Hoosier Supply', 'Fort Wayne', 'IN', '(260) 555-0188'], ['Keystone', 'Erie', 'PA', '814 555 0190']]))).toEqual([
      '+12605550188',
      '+18145550190',
    ]);
  });

  it('a Region column of ISO codes still gives the country', () => {
    expect(scan(table(['Partner', 'Region', 'Phone'], [['Sur Logística', 'AR', '011 4123-4567'], ['Hanbit', 'KR', '02-312-3456']]))).toEqual(['+541141234567', '+8223123456']);
  });
});

describe('a place in a text block speaks for the numbers after it, not for those before it', () => {
  it('a quoted reply or a later line naming a place does not make the earlier numbers that country’s', () => {
    // Plain-text mail: US numbers first, a quoted line about the London office at the end.
    expect(
      scan(`<div class="msg"><pre>Ask for Dee: (562) 555-0127 x 204, after hours 562-555-0128, gate line 1 (888) 555-0129.

&gt; I'm in our London office this week, best on 020 7946 0377.</pre></div>`),
    ).toEqual(['+15625550127', '+15625550128', '+18885550129', '+442079460377']);
    // A paragraph that ends with a place, with a US number in it.
    expect(scan('<div><p>Reach our support team on (415) 555-0101 or visit us at the Paris trade fair, stand 4.</p></div>')).toEqual(['+14155550101']);
    // A signature: US number, then a line about the Sydney office with its own number.
    expect(scan('<div class="sig"><p>Dana Ruiz &middot; (646) 555-0172<br>Our Sydney office: (02) 9374 4000</p></div>')).toEqual(['+16465550172', '+61293744000']);
  });

  it('a place right after a number, or before it, still speaks for it', () => {
    expect(scan('<p>Zentrale: 030 12345678 (Deutschland)</p>')).toEqual(['+493012345678']);
    expect(scan('<div><p>London desk: 020 7946 0133</p></div>')).toEqual(['+442079460133']);
  });
});
