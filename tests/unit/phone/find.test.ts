import { describe, expect, it } from 'vitest';
import {
  explainPhoneNumbers,
  findPhoneNumbers,
  hasEnoughDigits,
  mayContainPhoneNumber,
  parseTelHref,
  supportedCountry,
} from '../../../lib/phone/find';
import { coreOf, labelKind, rejectionReason } from '../../../lib/phone/reject';

function e164s(text: string, defaultCountry = 'US'): string[] {
  return findPhoneNumbers(text, { defaultCountry }).map((m) => m.e164);
}

describe('hasEnoughDigits (the prefilter)', () => {
  it('counts ASCII and full-width digits and stops early', () => {
    expect(hasEnoughDigits('Hello world')).toBe(false);
    expect(hasEnoughDigits('Room 12, floor 3, 202')).toBe(false); // 6 digits
    expect(hasEnoughDigits('Room 12, floor 3, 2024')).toBe(true); // 7 digits
    expect(hasEnoughDigits('415-555-0132')).toBe(true);
    expect(hasEnoughDigits('４１５５５５０')).toBe(true);
    expect(hasEnoughDigits('123', 3)).toBe(true);
  });

  it('needs seven digits in one phone-shaped run', () => {
    expect(mayContainPhoneNumber('Amount $125,400.00')).toBe(false);
    expect(mayContainPhoneNumber('Page 12 of 40, item 385')).toBe(false);
    expect(mayContainPhoneNumber('(415)  555-0132')).toBe(true);
    expect(mayContainPhoneNumber('+44 (0)20 7946 0958')).toBe(true);
    expect(mayContainPhoneNumber('４１５５５５０１３２')).toBe(true);
  });

  it('skips the matcher for text with fewer than 7 digits', () => {
    expect(findPhoneNumbers('Call 555-0132', { defaultCountry: 'US' })).toEqual([]);
  });
});

describe('findPhoneNumbers: positives', () => {
  const cases: [text: string, country: string, expected: string[]][] = [
    ['Call (415) 555-0132 today', 'US', ['+14155550132']],
    ['415-555-0132', 'US', ['+14155550132']],
    ['415.555.0132', 'US', ['+14155550132']],
    ['415 555 0132', 'US', ['+14155550132']],
    ['(415)555-0132', 'US', ['+14155550132']],
    ['1-415-555-0132', 'US', ['+14155550132']],
    ['1.800.555.0199', 'US', ['+18005550199']],
    ['+1 (415) 555-0132', 'US', ['+14155550132']],
    ['+1.415.555.0132', 'GB', ['+14155550132']],
    // A bare digit run counts with a phone word before it (without one: look-alikes.test.ts).
    ['Phone 4155550132 in text', 'US', ['+14155550132']],
    ['Bare digits 4155550132 in text', 'US', []],
    ['+44 20 7946 0958', 'US', ['+442079460958']],
    ['020 7946 0958', 'GB', ['+442079460958']],
    ['+44 (0)20 7946 0958', 'US', ['+442079460958']],
    ['0044 20 7946 0958', 'GB', ['+442079460958']],
    ['011 44 20 7946 0958', 'US', ['+442079460958']],
    ['+49 30 901820', 'US', ['+4930901820']],
    ['030 901820', 'DE', ['+4930901820']],
    ['+33 1 42 68 53 00', 'US', ['+33142685300']],
    ['01 42 68 53 00', 'FR', ['+33142685300']],
    ['01.42.68.53.00', 'FR', ['+33142685300']],
    ['+91 98765 43210', 'US', ['+919876543210']],
    ['+61 2 9374 4000', 'US', ['+61293744000']],
    ['(02) 9374 4000', 'AU', ['+61293744000']],
    ['+81 3-1234-5678', 'US', ['+81312345678']],
    ['03-1234-5678', 'JP', ['+81312345678']],
    ['+55 11 3456-7890', 'US', ['+551134567890']],
    ['(11) 3456-7890', 'BR', ['+551134567890']],
    ['Tel:+44\u00a020\u00a07946\u00a00958', 'US', ['+442079460958']],
    ['Phone: 415-555-0132; Fax: 415-555-0133', 'US', ['+14155550132', '+14155550133']],
    ['(415) 555-0132 (415) 555-0133', 'US', ['+14155550132', '+14155550133']],
    ['415-555-0132, 415-555-0133', 'US', ['+14155550132', '+14155550133']],
    ['Call me at 415-555-0132.', 'US', ['+14155550132']],
    ['Mobile:+1 415 555 0132', 'US', ['+14155550132']],
    ['Phone #4155550132', 'US', ['+14155550132']],
    ['Caller ID: 415-555-0132', 'US', ['+14155550132']],
    ['Account Phone: (415) 555-0132', 'US', ['+14155550132']],
    ['San Francisco, CA 94105 415-555-0132', 'US', ['+14155550132']],
    ['Jan 05 2024 415 555 0132', 'US', ['+14155550132']],
    ['Fax (415) 555-0195', 'US', ['+14155550195']],
  ];
  for (const [text, country, expected] of cases) {
    it(`${JSON.stringify(text)} (${country})`, () => {
      expect(e164s(text, country)).toEqual(expected);
    });
  }

  it('reports offsets and the raw text', () => {
    const text = 'Office: (415) 555-0132 or +44 20 7946 0958.';
    const found = findPhoneNumbers(text, { defaultCountry: 'US' });
    expect(found).toHaveLength(2);
    for (const m of found) expect(text.slice(m.start, m.end)).toBe(m.raw);
    expect(found[0]).toMatchObject({ raw: '(415) 555-0132', e164: '+14155550132', country: 'US' });
    expect(found[1]).toMatchObject({ raw: '+44 20 7946 0958', e164: '+442079460958', country: 'GB' });
  });

  it('keeps extensions out of E.164 and exposes them as ext', () => {
    const cases: [string, string][] = [
      ['(415) 555-0132 x123', '123'],
      ['415-555-0132 ext. 45', '45'],
      ['415-555-0132 ext 45', '45'],
      ['415-555-0132 extension 7', '7'],
      ['+1 415 555 0132 #12', '12'],
    ];
    for (const [text, ext] of cases) {
      const [m] = findPhoneNumbers(text, { defaultCountry: 'US' });
      expect(m, text).toBeDefined();
      expect(m!.e164).toBe('+14155550132');
      expect(m!.ext).toBe(ext);
      expect(m!.raw).toBe(text);
    }
  });

  it('does not read "number, day" as an extension', () => {
    const [m] = findPhoneNumbers('Call 415-555-0132, 12 May at noon', { defaultCountry: 'US' });
    expect(m).toMatchObject({ raw: '415-555-0132', e164: '+14155550132' });
    expect(m!.ext).toBeUndefined();
  });

  it('reads ",," as an auto-dial extension in a dial string, but as an empty field in a comma-separated row', () => {
    // A dial string: the pause then the extension, as phones and invites write it.
    expect(findPhoneNumbers('Dial 415-555-0132,,204 and wait', { defaultCountry: 'US' })[0]).toMatchObject({ raw: '415-555-0132,,204', ext: '204' });
    expect(findPhoneNumbers('+1 323-555-0144,,847219630# United States', { defaultCountry: 'US' })[0]).toMatchObject({ e164: '+13235550144', ext: '847219630' });
    // CSV rows where an empty column follows the phone: the next field (a postal code, an id) is no extension.
    const rows: [string, string, string][] = [
      ['80000413,Ben,Okafor,Northwind,212-555-0144,,10013,jpark', '+12125550144', '212-555-0144'],
      ['Tokyo Seiki,+81 3-1234-5678,,100-0005,lchen', '+81312345678', '+81 3-1234-5678'],
      ['"Seoul Foods","+82 2 312 3456",,"04524"', '+8223123456', '+82 2 312 3456'],
      ['212-555-0144,,10013,jpark,2025-11-05', '+12125550144', '212-555-0144'],
    ];
    for (const [text, e164, raw] of rows) {
      const found = findPhoneNumbers(text, { defaultCountry: 'US' });
      expect(found.map((m) => [m.e164, m.raw, m.ext]), text).toEqual([[e164, raw, undefined]]);
    }
  });

  it('reads a number written with dots between a CSV row’s numeric fields, but no dotted amount', () => {
    // A raw CSV export: the phone's neighbours are a count or an id, joined by bare commas.
    const rows: [string, string, string][] = [
      ['E2026030200113,2026-03-02 08:53:11,call,survey,"Customer 113",646.555.0186,136,no-answer', 'US', '+16465550186'],
      ['37,415.555.0132,12,ok', 'US', '+14155550132'],
      ['1042,01.42.68.53.00,3,Paris', 'FR', '+33142685300'],
      ['7,212.555.0144,,10013', 'US', '+12125550144'],
      // Any punctuation: after a numeric field libphonenumber skips the next field altogether.
      ['37,415-555-0132,12,ok', 'US', '+14155550132'],
      ['2026-03-02 08:53:11;4; +44 20 7946 0958;12', 'US', '+442079460958'],
      ['8, 030 12345678, 2', 'DE', '+493012345678'],
    ];
    for (const [text, country, e164] of rows) expect(e164s(text, country), text).toEqual([e164]);
    // Amounts written with dots (thousands) and a decimal comma, and dotted versions and addresses, stay out.
    for (const [text, country] of [['Total,12.345.678,90,EUR', 'DE'], ['7,1.234.567,89', 'US'], ['v,10.0.1.4155,5', 'US'], ['5,415.555.01,32', 'US'], ['Total,4,155,550,132', 'US'], ['7,4155550132,12', 'US']]) {
      expect(e164s(text!, country!), text).toEqual([]);
    }
  });

  it('reads a number written with its "+" as a log line’s or config’s value (to=+1415…), but no bare digits after "="', () => {
    const lines: [string, string[]][] = [
      ['2026-03-02T08:53:11.123Z INFO call.placed to=+14155550132 from=+12125550100 agent=sales', ['+14155550132', '+12125550100']],
      ['tel=+49 30 12345678', ['+493012345678']],
      ['level=info msg="dial" number=+44 20 7946 0958 attempt=2', ['+442079460958']],
      ['CALLER_ID=+1-212-555-0100', ['+12125550100']],
    ];
    for (const [text, e164] of lines) expect(e164s(text, 'US'), text).toEqual(e164);
    // Bare digits after "=" stay an id or an amount (a query string, a formula, a log's counter).
    for (const text of ['https://example.com/track?id=2125550143&ref=mail', 'bytes=4155550132 took=12ms', 'user_id=2125550143', 'key=+14155550132abc']) expect(e164s(text, 'US'), text).toEqual([]);
  });

  it('finds only international numbers without a default country', () => {
    expect(e164s('(415) 555-0132 or +44 20 7946 0958', '')).toEqual(['+442079460958']);
    expect(findPhoneNumbers('(415) 555-0132 or +44 20 7946 0958').map((m) => m.e164)).toEqual(['+442079460958']);
    expect(supportedCountry('xx')).toBeUndefined();
    expect(supportedCountry('gb')).toBe('GB');
  });

  it('uses the default country for national formats only', () => {
    expect(e164s('020 7946 0958', 'US')).toEqual([]);
    expect(e164s('(415) 555-0132', 'GB')).toEqual([]);
  });
});

/** Each category: strings that contain no phone number (with US and, where noted, other defaults). */
const NEGATIVES: Record<string, [text: string, countries?: string[]][]> = {
  dates: [
    ['2024-05-01'],
    ['Due 05/01/2024'],
    ['Posted 01.05.2024', ['US', 'DE']],
    ['2024/05/01 – 2024/05/31', ['US', 'DE', 'FR']],
    ['Stamp 20240501', ['US', 'DE', 'GB']],
    ['Fiscal 2019-2024', ['US', 'DE']],
    ['01.05.2024 - 31.05.2024', ['US', 'DE']],
    ['Generated 2024-05-14T16:02:11Z'],
  ],
  times: [
    ['Meeting 14:30–15:45, hours 09:00–17:30'],
    ['Batch ran 2024-05-14 08:00:00', ['US', 'DE']],
    ['log 10:15:30.123 and 2:45:10'],
    ['UTC+05:30'],
  ],
  prices: [
    ['$1,234.56'],
    ['€ 1 234'],
    ['€1.234.567,89', ['US', 'DE']],
    ['Total $4,155,550,132'],
    ['USD 2125550143'],
    ['4155550132.00 due'],
    ['1234567.89'],
    ['Savings of $ 3 125 550 199 projected', ['US', 'FR']],
    ['1 234 567,89 EUR', ['US', 'FR']],
    ['R$ 1.234,56'],
    ['₹ 12,34,567.00'],
  ],
  percentages: [['Conversion 4155550132%'], ['Uptime 99.95 %'], ['Growth 1,234.56%'], ['Error 4155550132 percent']],
  ips: [
    ['Gateway 192.168.100.200', ['US', 'DE']],
    ['DNS 10.20.130.240', ['US', 'DE', 'IN']],
    ['Subnet 100.64.212.155/24', ['US', 'DE', 'IN']],
    ['API 203.0.113.195:8080'],
  ],
  zips: [
    ['San Francisco, CA 94105-3048', ['US', 'FR']],
    ['ZIP codes 94105, 94107 and 94103-1234'],
    ['10117 Berlin', ['DE']],
    ['São Paulo – SP, 01310-100', ['BR']],
  ],
  ssns: [['SSN 123-45-6789', ['US', 'DE', 'FR']], ['078-05-1120', ['US', 'GB', 'DE']], ['219 09 9999']],
  cards: [
    ['4111 1111 1111 1111', ['US', 'DE', 'GB', 'FR']],
    ['4111-1111-1111-1111', ['US', 'DE']],
    ['5500 0000 0000 0004', ['US', 'DE']],
    ['3400 000000 00009', ['US', 'DE']],
    ['4012888888881881', ['US', 'DE', 'GB']],
    ['Card 6011000990139424', ['US', 'DE']],
  ],
  recordIds: [
    ['Record ID: 4155550100'],
    ['ID 2125550199'],
    ['#2125550155'],
    ['Lead ID 7185550123'],
    ['Salesforce ID 0035g00000XyZ12AAB'],
    ['Customer CUST-4155550132'],
    ['Member ID 9175550110'],
    ['Account 7025550100'],
    ['Acct # 4045550138'],
  ],
  orderNumbers: [
    ['Order #2125550143'],
    ['Order No. 114-3941689-8772232'],
    ['Orders 3125550100, 3125550101'],
    ['Invoice 2024001873'],
    ['Invoice no.: 3125550199'],
    ['Invoice INV-4155550132'],
    ['Ticket #6175550124'],
    ['Case Number: 4155550177'],
    ['PO 4500012345'],
    ['P.O. #2065550188'],
    ['Purchase order 5125550143'],
    ['Ref: 3035550145'],
    ['Reference 7025550131'],
    ['Confirmation code 8175550166'],
    ['Reservation 6465550133'],
    ['Policy 3055550172'],
  ],
  tracking: [
    ['Tracking # 4155550132'],
    ['Tracking: 9400 1000 0000 0000 0000 00', ['US', 'DE']],
    ['FedEx tracking 7489 2349 8237', ['US', 'DE']],
    ['UPS 1Z999AA10123456784'],
    ['Shipment 3125550163'],
    ['AWB 2125550147'],
  ],
  isbns: [
    ['ISBN 978-3-16-148410-0', ['US', 'DE']],
    ['978-0-306-40615-7', ['US', 'DE']],
    ['ISBN-10: 0-306-40615-2', ['US', 'DE']],
    ['9780306406157', ['US', 'DE']],
  ],
  ibans: [
    ['IBAN DE89 3704 0044 0532 0130 00', ['US', 'DE']],
    ['GB29 NWBK 6016 1331 9268 19', ['US', 'GB']],
    ['DE89370400440532013000', ['US', 'DE']],
  ],
  versions: [
    ['Windows 10.0.19045', ['US', 'DE']],
    ['build 10.0.19045.2965', ['US', 'DE']],
    ['Chrome 124.0.6367.91', ['US', 'DE']],
    ['v1.2.3 and node v20.12.2'],
    ['Windows 7 build 6.1.7601', ['US', 'DE']],
    ['Version 2024.05.14'],
  ],
  glued: [
    ['report_20240501.pdf', ['US', 'DE']],
    ['invoice-4155550132.pdf'],
    ['scan4155550132.tiff'],
    ['IMG_20240514_103245.jpg', ['US', 'DE']],
    ['https://example.com/orders/4155550132'],
    ['https://example.com/track?id=2125550143&ref=mail'],
    ['user4155550132@example.com'],
    ['4155550132@txt.example.net'],
    ['=SUM(A1:A4155550132)'],
    ['Part 7185550123-B'],
  ],
  other: [
    ['Unix time 1715682720', ['US', 'GB', 'DE']],
    ['1715682720123 ms', ['US', 'GB', 'DE']],
    ['coordinates 37.7749, -122.4194', ['US', 'DE']],
    ['1 234 567 views', ['US', 'FR']],
    ['2 125 550 143 impressions', ['US', 'FR', 'NL']],
    ['VLDB J. 12(3): 211-227 (2003).', ['US', 'DE', 'SE']],
    ['Routing 021000021'],
    ['Sort code 20-00-00', ['GB']],
  ],
};

describe('findPhoneNumbers: negatives', () => {
  for (const [category, cases] of Object.entries(NEGATIVES)) {
    describe(category, () => {
      for (const [text, countries = ['US']] of cases) {
        for (const country of countries) {
          it(`${JSON.stringify(text)} (${country})`, () => {
            expect(findPhoneNumbers(text, { defaultCountry: country })).toEqual([]);
          });
        }
      }
    });
  }

  it('explains which rule vetoed a VALID-shaped candidate', () => {
    const reasons = (text: string, country = 'US') => explainPhoneNumbers(text, { defaultCountry: country }).rejected.map((r) => r.reason);
    expect(reasons('Order #4155550132')).toEqual(['keyword']);
    expect(reasons('report_4155550132.pdf')).toEqual(['glued']);
    expect(reasons('10.20.130.240', 'DE')).toEqual(['ip']);
    expect(reasons('01.05.2024', 'DE')).toEqual(['date']);
    expect(reasons('10.0.19045', 'DE')).toEqual(['version']);
    expect(reasons('94105-1234', 'FR')).toEqual(['zip']);
    expect(reasons('ISBN 978-3-16-148410-0', 'DE')).toEqual(['isbn']);
    expect(reasons('2019-2024', 'DE')).toEqual(['year-range']);
    expect(reasons('#4155550132')).toEqual(['hash-id']);
    expect(reasons('Total: USD 4155550132')).toEqual(['price']);
    expect(reasons('4155550132 %')).toEqual(['percent']);
    expect(reasons('4111 1111 1111 1111', 'DE')).toContain('card');
    expect(reasons('VLDB J. 12(3): 211-227 (2003).', 'DE')).toContain('too-short');
  });
});

describe('rejection layer helpers', () => {
  it('cuts the extension off the core', () => {
    expect(coreOf('(415) 555-0132 x123', '123')).toBe('(415) 555-0132');
    expect(coreOf('415-555-0132 ext. 45', '45')).toBe('415-555-0132');
    expect(coreOf('415-555-0132', undefined)).toBe('415-555-0132');
  });

  it('uses a field label when the caller passes one', () => {
    const text = '4155550132';
    expect(rejectionReason({ text, start: 0, end: 10, label: 'Account Number' })).toBe('label');
    expect(rejectionReason({ text, start: 0, end: 10, label: 'Account Phone' })).toBeNull();
    expect(findPhoneNumbers(text, { defaultCountry: 'US', label: 'Order #' })).toEqual([]);
    expect(findPhoneNumbers(text, { defaultCountry: 'US', label: 'Mobile' })).toHaveLength(1);
    expect(labelKind('Phone')).toBe('phone');
    expect(labelKind('Created Date')).toBe('other');
    expect(labelKind('Notes')).toBe('neutral');
  });
});

describe('parseTelHref', () => {
  it('reads RFC 3966 numbers, extensions and encodings', () => {
    expect(parseTelHref('tel:+1-415-555-0132;ext=12')).toMatchObject({ e164: '+14155550132', ext: '12', country: 'US', valid: true, raw: '+1-415-555-0132' });
    expect(parseTelHref('tel:%2B44%2020%207946%200958')).toMatchObject({ e164: '+442079460958', country: 'GB' });
    expect(parseTelHref('TEL:+442079460958')?.e164).toBe('+442079460958');
    expect(parseTelHref('callto://+4930901820')?.e164).toBe('+4930901820');
    expect(parseTelHref('callto:+33142685300')?.e164).toBe('+33142685300');
    expect(parseTelHref('tel:4155550132', 'US')?.e164).toBe('+14155550132');
    expect(parseTelHref('tel:7946-0958;phone-context=+4420')?.e164).toBe('+442079460958');
  });

  it('ignores sms:, mailto:, names and junk', () => {
    expect(parseTelHref('sms:+14155550132')).toBeNull();
    expect(parseTelHref('mailto:someone@example.com')).toBeNull();
    expect(parseTelHref('callto://john.doe')).toBeNull();
    expect(parseTelHref('tel:')).toBeNull();
    expect(parseTelHref('tel:%E0%A4%A')).toBeNull();
    expect(parseTelHref('tel:12')).toBeNull();
  });

  it('accepts a possible-but-not-valid number and says so', () => {
    const possible = parseTelHref('tel:+1-555-555-5555');
    expect(possible).toMatchObject({ e164: '+15555555555', valid: false });
  });
});
