// @vitest-environment happy-dom
/**
 * The walk also passes over a block with no child elements whose text the scanner would settle with
 * no number whatever it holds: a text without a phone word under a non-phone column header (a list's
 * account number, id, date and amount columns). The rule is onGroup's label veto, asked before the
 * block's text nodes are read. What must hold: exactly the numbers found before, for every kind of
 * value under every kind of header; and those columns' text nodes no longer read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createScanner, scanNode, type PhoneMatch, type ScanOptions } from '../../../lib/phone/scan';
import type { TextPhoneMatch } from '../../../lib/phone/scan-types';
import { mount } from '../../support/mount';

const US: ScanOptions = { defaultCountry: 'US' };

afterEach(() => {
  document.body.innerHTML = '';
});

const HEADERS = ['Account Number', 'Phone', 'Created Date', 'Amount', 'Notes', 'Kundennr.', 'Telefon', 'USt-IdNr.', '電話', 'Order #', 'Contact', ''];
const VALUES = [
  '2125550037',
  '212-555-0101',
  '(212) 555-0101',
  '+1 212 555 0101',
  '+44 20 7946 0958',
  '2020-01-01',
  '$6170.00',
  'ORD-2024-118233',
  'Main: 212-555-0101',
  'M: 212 555 0101',
  'Tel. 030 1234567',
  'call us at 212 555 0101',
  '(212)\n      555\n      0101',
  '+81 ０３－１２３４－５６７８',
  '+966 ٠٥٠ ١٢٣ ٤٥٦٧',
  'DE123456789',
];

/** One table per header, a row per value; `wrap`: the value inside a <span>, so its cell is walked as before. */
function tables(wrap: boolean): HTMLElement {
  return mount(
    HEADERS.map(
      (head, t) =>
        `<table data-t="${t}"><thead><tr><th>Name</th><th>${head}</th></tr></thead><tbody>` +
        VALUES.map((v) => `<tr><td>Ada Park</td><td>${wrap ? `<span>${v}</span>` : v}</td></tr>`).join('') +
        '</tbody></table>',
    ).join(''),
  );
}

/** Each match as "table row e164" ("0 8 +12125550101"). */
function found(matches: PhoneMatch[]): string[] {
  return matches
    .map((m) => {
      const row = (m as TextPhoneMatch).startNode.parentElement!.closest('tr') as HTMLTableRowElement;
      return `${row.closest('table')!.dataset.t} ${row.sectionRowIndex} ${m.e164}`;
    })
    .sort();
}

const rowsOf = (lines: string[], table: number) => lines.filter((l) => l.startsWith(`${table} `)).map((l) => Number(l.split(' ')[1]));

describe('cells a non-phone column header vetoes', () => {
  it('yield the same numbers passed over as walked, for every value under every header', () => {
    const walked = found(scanNode(tables(true), US));
    document.body.innerHTML = '';
    const passed = found(scanNode(tables(false), US));
    expect(passed).toEqual(walked);
    // The veto is real: under "Account Number" only the values with a phone word before the number…
    expect(rowsOf(passed, 0)).toEqual(expect.arrayContaining([8, 11]));
    for (const row of rowsOf(passed, 0)) expect([8, 9, 10, 11]).toContain(row);
    // …and under "Phone" every letterless number is found, under no header every one but the bare run.
    expect(rowsOf(passed, 1)).toEqual(expect.arrayContaining([0, 1, 2, 3, 4, 12, 13, 14]));
    expect(rowsOf(passed, HEADERS.length - 1)).toEqual(expect.arrayContaining([1, 2, 3, 4, 12, 13, 14]));
  });

  it("does not read the text nodes of a list's id, date and amount columns", () => {
    const rows = Array.from(
      { length: 100 },
      (_, i) => `<tr><td>(415) 555-${String(1000 + i)}</td><td>${2125550000 + i}</td><td>2024-05-${String((i % 28) + 1).padStart(2, '0')}</td><td>$${1234567 + i}.00</td><td>ORD-${100000 + i}</td></tr>`,
    ).join('');
    const root = mount(`<table><thead><tr><th>Phone</th><th>Account Number</th><th>Created Date</th><th>Amount</th><th>Order ID</th></tr></thead><tbody>${rows}</tbody></table>`);
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    expect(scanner.matches()).toHaveLength(100);
    // The phone cell's text node only: the four value cells are settled by their header.
    expect(scanner.stats.textNodes).toBe(100);
  });

  it('still reads them with labels off, where no header vetoes anything', () => {
    const root = mount('<table><thead><tr><th>Account Number</th></tr></thead><tbody><tr><td>(212) 555-0101</td></tr></tbody></table>');
    expect(scanNode(root, US).map((m) => m.e164)).toEqual([]);
    expect(scanNode(root, { ...US, labels: false }).map((m) => m.e164)).toEqual(['+12125550101']);
  });

  it('clears a number a cell held before its column became a vetoed one', () => {
    const root = mount('<table><thead><tr><th id="h">Phone</th></tr></thead><tbody><tr><td>(212) 555-0101</td></tr></tbody></table>');
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    expect(scanner.matches()).toHaveLength(1);
    root.querySelector('#h')!.textContent = 'Account Number';
    scanner.scanRoot(root);
    scanner.flush();
    expect(scanner.matches()).toHaveLength(0);
  });
});
