// @vitest-environment happy-dom
/**
 * Look-alike non-numbers: digit runs that libphonenumber reads as VALID numbers but that the page
 * writes as something else. The class found on generated look-alike pages and mail threads: a BARE
 * digit run (no "+", no separator: "5804633393") after a word that is not a phone word ("Item:",
 * "Updated:", "the total is now", "On …, someone wrote") or after nothing at all. A bare run counts
 * only with phone context: a phone word before it, a phone field label (column header, <dt>, form
 * label), a tel: link, or a list that a phone word opened. Each case here has its counter-case.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findPhoneNumbers } from '../../../lib/phone/find';
import { scanNode, type PhoneMatch } from '../../../lib/phone/scan';
import { lookAlikes, mailThread } from '../../../bench/lib/page-shapes';
import { mount } from '../../support/mount';

const US = { defaultCountry: 'US' } as const;
const raws = (text: string, label?: string) => findPhoneNumbers(text, { ...US, ...(label ? { label } : {}) }).map((m) => m.raw);

const found = (matches: PhoneMatch[]) => matches.map((m) => `${m.source}:${m.e164}`).sort();

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a bare digit run without phone context is not a number', () => {
  it.each([
    // After a label that names something else (the generator's and others).
    'Item: 2695658799',
    'Updated: 5804633393 #64',
    'Last updated 6202558261',
    'Part no. 4155550123',
    'Model 3125550100',
    'Qty: 2125550143',
    'Status: shipped, ref 6175550123',
    'Customer since 7705658879',
    // In prose, with nothing that says phone.
    'I have attached the updated figures; the total is now 6784046178.',
    'On 9487859172, someone wrote: please confirm the revised quote.',
    'See 4155550123 for the details of the change.',
    'Invoices 3125550100 and 3125550101 are overdue.',
    // Other lengths and countries' bare runs.
    '14155550123 rows exported',
    'Batch 020794601 closed',
  ])('%s', (text) => {
    expect(raws(text)).toEqual([]);
  });

  it('a bare run under a non-phone field label, or a neutral one, is not a number', () => {
    expect(raws('4155550123', 'Item')).toEqual([]);
    expect(raws('4155550123', 'Notes')).toEqual([]);
    expect(raws('4155550123')).toEqual([]);
  });
});

describe('counter-cases: phone context makes a bare run a number', () => {
  it.each([
    ['Tel: 4155550123', '4155550123'],
    ['Mobile 4155550123', '4155550123'],
    ['M: 4155550123', '4155550123'],
    ['Call me at 4155550123 after lunch.', '4155550123'],
    ['Direct dial\n4155550123', '4155550123'],
    ['Fax: 14155550123', '14155550123'],
  ])('%s', (text, raw) => {
    expect(raws(text)).toEqual([raw]);
  });

  it('a list opened by a phone word: every bare run of it', () => {
    expect(raws('Phone: 4155550123, 4155550124 or 4155550125')).toEqual(['4155550123', '4155550124', '4155550125']);
  });

  it('a phone field label', () => {
    expect(raws('4155550123', 'Phone')).toEqual(['4155550123']);
    expect(raws('4155550123', 'Mobile number')).toEqual(['4155550123']);
  });
});

describe('counter-cases: written numbers need no context', () => {
  it.each([
    ['On Tuesday (415) 555-0123 rang twice.', '(415) 555-0123'],
    ['the total is now fine; ring 415-555-0123.', '415-555-0123'],
    ['Item: see 415.555.0123', '415.555.0123'],
    ['Someone wrote from +14155550123 yesterday.', '+14155550123'],
    ['Reach the desk on +44 20 7946 0133.', '+44 20 7946 0133'],
    ['Updated 1-415-555-0123', '1-415-555-0123'],
  ])('%s', (text, raw) => {
    expect(raws(text)).toEqual([raw]);
  });
});

describe('in the page', () => {
  it('a table: bare runs count in a Phone column, not in Item, Order or untitled columns', () => {
    const root = mount(
      '<table><thead><tr><th>Item</th><th>Order</th><th>Phone</th><th>Mobile</th><th>Notes</th></tr></thead>' +
        '<tbody><tr><td>2695658799</td><td>3125550100</td><td>4155550123</td><td>4155550124</td><td>7705658879</td></tr>' +
        '<tr><td>6175550123</td><td>5804633393</td><td>(415) 555-0125</td><td>+14155550126</td><td>Call 4155550127</td></tr></tbody></table>',
    );
    expect(found(scanNode(root, US))).toEqual(
      ['text:+14155550123', 'text:+14155550124', 'text:+14155550125', 'text:+14155550126', 'text:+14155550127'].sort(),
    );
  });

  it('a record: <dt>Mobile</dt><dd>bare</dd> counts, <dt>Updated</dt><dd>bare</dd> does not', () => {
    const root = mount('<dl><dt>Mobile</dt><dd>4155550123</dd><dt>Updated</dt><dd>5804633393</dd><dt>Item</dt><dd>2695658799</dd></dl>');
    expect(found(scanNode(root, US))).toEqual(['text:+14155550123']);
  });

  it('a list of labelled look-alikes reports nothing; a Tel: item in it does', () => {
    const root = mount(
      '<ul><li>Item: 2695658799 <small>#76</small></li><li>Updated: 5804633393 <small>#64</small></li>' +
        '<li>Build: 6202558261</li><li>Tel: 4155550123 <small>#3</small></li></ul>',
    );
    expect(found(scanNode(root, US)).map((s) => s.replace(/;.*/, ''))).toEqual(['text:+14155550123']);
  });

  it('a tel: link with a bare number is reported (once, as the link)', () => {
    const root = mount('<p>Questions? <a href="tel:4155550123">4155550123</a></p>');
    expect(found(scanNode(root, US))).toEqual(['link:+14155550123']);
  });

  it('a read-only tel input or one labelled Phone keeps its bare value; one labelled Item does not', () => {
    const root = mount(
      '<input type="tel" readonly value="4155550123">' +
        '<label>Phone <input readonly value="4155550124"></label>' +
        '<label>Item <input readonly value="4155550125"></label>',
    );
    expect(found(scanNode(root, US))).toEqual(['input:+14155550123', 'input:+14155550124']);
  });

  it('a mail message: the signature number is found, the bare total and the date stand-in are not', () => {
    const root = mount(
      '<article><p>Following up on order ORD-2024-000123; the total is now 6784046178.</p>' +
        '<blockquote>On 9487859172, someone wrote: please confirm.</blockquote>' +
        '<footer>--<br>Ravi Tanaka<br>Direct: 818.555.0176<br>Cell 4155550123</footer></article>',
    );
    expect(found(scanNode(root, US))).toEqual(['text:+14155550123', 'text:+18185550176']);
  });
});

describe("the cost bench's generated pages (bench/lib/page-shapes.ts)", () => {
  const scanPage = (html: string) => {
    const doc = document.implementation.createHTMLDocument('');
    doc.documentElement.innerHTML = html.replace(/^<!doctype html>/i, '');
    return scanNode(doc.body, US);
  };

  it('look-alikes: 5,000 labelled non-numbers, not one reported', () => {
    const shape = lookAlikes(5000);
    expect(shape.numbers).toBe(0);
    expect(scanPage(shape.html).map((m) => m.raw)).toEqual([]);
  });

  it('mail thread: exactly the numbers written in the signatures', () => {
    const shape = mailThread();
    expect(scanPage(shape.html)).toHaveLength(shape.numbers);
  });
});
