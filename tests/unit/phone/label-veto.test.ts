// @vitest-environment happy-dom
/**
 * Under a non-phone field label (a report's "Record ID", "Created", "Amount", "Reference" column) a
 * number counts only when the words right before it name a phone field. A cell whose text has no
 * phone word at all can therefore skip the finder: the same answer, without libphonenumber-js
 * turning down each look-alike in it (most of a large report's cost).
 */
import { describe, expect, it } from 'vitest';
import { createScanner } from '../../../lib/phone/scan';
import { hasPositiveContextBefore, mayHavePositiveContext } from '../../../lib/phone/reject';

const TEXTS = [
  'Phone: (415) 555-0132',
  'M: +44 20 7946 0958',
  'call me at 415 555 0132',
  'T. 030 901820',
  'Direct dial 020 7946 0133',
  'Ref: 2024-05-01 10:00:00',
  'ORD-2024-118233',
  'INV 4155550132',
  'Case 00012345, opened 05/01/2024 9:30 AM',
  '$125,400.00',
  'Contact our office on 415.555.0132',
  'Tracking 9400 1234 5678 9012 3456 78',
  'Mob. 07700 900123',
  'ISBN 978-0-306-40615-7',
  'Fax (503) 555-0101 Account Number 1234567890',
  'Telefon: 030 1234567',
  'Item: 4155550132 · h: 12',
];

describe('mayHavePositiveContext', () => {
  it('is true wherever hasPositiveContextBefore could be (checked at every position)', () => {
    for (const text of TEXTS) {
      const anywhere = Array.from({ length: text.length + 1 }, (_, i) => hasPositiveContextBefore(text, i)).some(Boolean);
      if (anywhere) expect(mayHavePositiveContext(text), text).toBe(true);
    }
  });

  it('is false for texts without a phone word or one-letter phone label', () => {
    for (const text of ['Ref: 2024-05-01 10:00:00', 'ORD-2024-118233', 'INV 4155550132', '$125,400.00', 'ISBN 978-0-306-40615-7', 'Tracking 9400 1234']) {
      expect(mayHavePositiveContext(text), text).toBe(false);
    }
  });
});

describe('a report with non-phone columns', () => {
  const report = `
    <table><thead><tr><th>Record ID</th><th>Created</th><th>Amount</th><th>Phone</th><th>Reference</th><th>Notes</th></tr></thead><tbody>
    <tr><td>00Q4155550132</td><td>2024-05-01 10:00 AM</td><td>$4,155,550.13</td><td>(415) 555-0132</td><td>INV 2125550147</td><td>Call back on 212-555-0199</td></tr>
    <tr><td>0034155550171</td><td>05/02/2024 9:30 AM</td><td>USD 3125550163</td><td>+44 20 7946 0958</td><td>Case 4045550138</td><td>Renewal pending review</td></tr>
    <tr><td>5004155550140</td><td>2024-05-03</td><td>$12.00</td><td>312.555.0177</td><td>Ref 6175550119, tel. 6175550152</td><td>PO 7025550156</td></tr>
    </tbody></table>`;

  it('finds the same numbers, and asks the finder only for cells that could count', () => {
    document.body.innerHTML = report;
    const scanner = createScanner({ defaultCountry: 'US' });
    scanner.scanRoot(document.body);
    scanner.flush();
    expect(scanner.matches().map((m) => m.e164).sort()).toEqual(['+12125550199', '+13125550177', '+14155550132', '+442079460958', '+16175550152'].sort());
    // The three Phone cells, the Notes cell with "Call", the Reference cell with "tel." and the
    // unlabelled-looking "PO" note (its column is Notes: neutral). Not the ID, date, amount or plain reference cells.
    expect(scanner.stats.finderCalls).toBe(6);
  });
});
