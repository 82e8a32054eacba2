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
    // A headerless row naming two countries (a state code and a country) settles nothing: the default
    // reads the number, and a national number of the other country is not found rather than misread.
    expect(scan('<table><tr><td>Gaúcha Agro</td><td>RS</td><td>Brazil</td><td>(51) 3234-5678</td></tr><tr><td>Indy Parts</td><td>IN</td><td>USA</td><td>(317) 555-0124</td></tr></table>')).toEqual(['+13175550124']);
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

describe('ARIA grids and tables (div cells, no <table>) have column headers too', () => {
  const grid = (role: 'grid' | 'table', heads: string[], rows: string[][], cell = role === 'grid' ? 'gridcell' : 'cell') =>
    `<div role="${role}"><div role="rowgroup"><div role="row">${heads
      .map((h, i) => `<div role="columnheader" aria-colindex="${i + 1}"><span>${h}</span></div>`)
      .join('')}</div></div><div role="rowgroup">${rows
      .map((r) => `<div role="row">${r.map((c, i) => `<div role="${cell}" aria-colindex="${i + 1}" style="position:absolute;left:${i * 120}px">${c}</div>`).join('')}</div>`)
      .join('')}</div></div>`;

  it('a Phone / Mobile column header lets a bare digit run count; the country column still reads it', () => {
    expect(scan(grid('grid', ['Account', 'Phone', 'Account #'], [['Harbor', '4155550171', '2125550188'], ['Empire', '6465550172', '6465550187']]))).toEqual([
      '+14155550171',
      '+16465550172',
    ]);
    expect(scan(grid('table', ['Name', 'Country', 'Mobile'], [['Sanne', 'Netherlands', '0612345679'], ['Felix', 'Germany', '015123456789']]))).toEqual([
      '+31612345679',
      '+4915123456789',
    ]);
  });

  it('a non-phone column header vetoes phone-shaped values, as a <th> does', () => {
    expect(scan(grid('grid', ['Customer', 'Order ID', 'Tel.'], [['Acme', '212-555-0188', '(212) 555-0147'], ['Globex', '(312) 555-0190', '312.555.0163']]))).toEqual([
      '+12125550147',
      '+13125550163',
    ]);
  });

  it('cells found by position when there is no aria-colindex, values in nested elements', () => {
    const html = `<div role="grid"><div role="row"><div role="columnheader">Name</div><div role="columnheader">Direct line</div><div role="columnheader">Case number</div></div>
      <div role="row"><div role="gridcell"><div class="v">Ana</div></div><div role="gridcell"><div class="v">7205550114</div></div><div role="gridcell"><div class="v">7205550199</div></div></div></div>`;
    expect(scan(html)).toEqual(['+17205550114']);
  });
});

describe('digits grouped as another country groups them are not read as a NANP number', () => {
  it('Brazilian, Mexican and Indian groupings with no place around them: not found, never as +1', () => {
    // Each is a valid US number if its digits are read as one ((313) 234-5679, (331) 234-5680…).
    expect(scan('<p>Escritório: (31) 3234-5679</p>')).toEqual([]);
    expect(scan('<ul><li>Oficina 33 1234 5680</li><li>Sucursal: 55 1234-5679</li></ul>')).toEqual([]);
    expect(scan('<table><tr><th>Phone</th></tr><tr><td>(51) 3234-5678</td></tr></table>')).toEqual([]);
    expect(scan('<p>Mobile: 91234 56789</p>')).toEqual([]);
  });

  it('NANP groupings, a leading 1, bare runs and +1 numbers are still found', () => {
    expect(
      scan(
        '<p>(415) 555-0132 · 415.555.0133 · 1 (888) 555-0129 · 1-800-555-0199 · 415 5550134 · Tel 4155550135 · +1 31 3234 5679 · (503)&nbsp;555\u20110187 · <b>206</b>-555-0112 x12</p>',
      ),
    ).toEqual(['+14155550132', '+14155550133', '+18885550129', '+18005550199', '+14155550134', '+14155550135', '+13132345679', '+15035550187', '+12065550112']);
  });

  it('the same digits in a row or card that names their country are that country’s', () => {
    expect(scan('<article><h3>Belo Horizonte</h3><p>Brasil</p><p>Tel. (31) 3234-5679</p></article>')).toEqual(['+553132345679']);
    expect(scan('<table><tr><th>Country</th><th>Phone</th></tr><tr><td>Mexico</td><td>33 1234 5680</td></tr></table>')).toEqual(['+523312345680']);
  });
});

describe('business cities beyond the capitals, and cities in their own language', () => {
  it('an office card naming only its city reads the national number as that city’s country', () => {
    const card = (city: string, address: string, phone: string) => `<article><h3>${city}</h3><p>${address}</p><p>Tel. ${phone}</p></article>`;
    expect(
      scan(
        [
          card('Köln', 'Hohe Straße 1, 50667', '0221 1234567'),
          card('Genf', 'Rue du Marché 4, 1204', '022 123 45 67'),
          card('Antwerpen', 'Meir 12, 2000', '03 231 12 34'),
          card('Göteborg', 'Avenyn 5, 411 36', '031-123 45 67'),
          card('Porto Alegre', 'Av. Ipiranga 100', '(51) 3234-5678'),
          card('Medellín', 'Calle 10 # 43-12', '(604) 234 5678'),
          card('Kraków', 'Rynek Główny 1, 31-042', '12 345 67 89'),
          card('Nagoya', '1-1 Meieki, Nakamura-ku', '052-123-4567'),
          card('Brisbane', '1 Eagle Street QLD 4000', '(07) 3123 4567'),
          card('Pune', 'FC Road, 411004', '020 2345 6789'),
        ].join(''),
      ),
    ).toEqual([
      '+492211234567',
      '+41221234567',
      '+3232311234',
      '+46311234567',
      '+555132345678',
      '+576042345678',
      '+48123456789',
      '+81521234567',
      '+61731234567',
      '+912023456789',
    ]);
  });

  it('names that are more often something else stay unread (Nice, Bergen, Valencia, Santiago)', () => {
    // Each would read "(02) …" or "09 …" as its country; the default country finds none of them.
    expect(scan('<article><p>Nice office, near Bergen county</p><p>Tel. 04 93 12 34 56</p></article>')).toEqual([]);
  });
});

describe('postal codes stay postal codes when the page names their country', () => {
  it('Brazilian CEPs (ddddd-ddd) in addresses of a Brazil card, row or text', () => {
    expect(scan('<article><h3>Belo Horizonte</h3><p>Av. Afonso Pena, 1500 – MG, 30130-005</p><p>Tel. (31) 3234-5679</p></article>')).toEqual(['+553132345679']);
    expect(scan('<table><tr><th>Country</th><th>Address</th></tr><tr><td>Brazil</td><td>Rua XV de Novembro 50, Curitiba – PR, 80020-310</td></tr></table>')).toEqual([]);
    expect(scan('<p>Escritório no Brasil: CEP 22250-040, Rio de Janeiro</p>')).toEqual([]);
  });
});

describe('an identifier named after a contact or a call is not a phone field', () => {
  it('Contact ID / Call ID columns, fields and text: their values are not numbers; Caller ID and contact phone fields are', () => {
    expect(scan(table(['Name', 'Contact ID', 'Phone'], [['Ava', '6045550186', '(604) 555-0184'], ['Mei', '4035550188', '403-555-0187']]))).toEqual(['+16045550184', '+14035550187']);
    expect(scan('<dl><dt>Contact Id</dt><dd>4155550123</dd><dt>Call ID</dt><dd>2125550147</dd><dt>Contact number</dt><dd>4155550135</dd></dl>')).toEqual(['+14155550135']);
    expect(scan('<p>Contact ID: 3125550190 · Call ID 3125550191 · Caller ID: (415) 555-0132 · Contact: 415-555-0134</p>')).toEqual(['+14155550132', '+14155550134']);
    expect(scan(table(['Caller ID', 'Duration'], [['(415) 555-0133', '00:04:12']]))).toEqual(['+14155550133']);
    expect(scan('<dl><dt>Caller-ID</dt><dd>(415) 555-0136</dd><dt>WhatsApp ID</dt><dd>+44 7911 123456</dd></dl>')).toEqual(['+14155550136', '+447911123456']);
  });
});

describe('a record reads the same indented or minified', () => {
  it('source indentation does not count as the record’s text', () => {
    const lines = [
      '<div class="to">Bill to: Southbank Theatre Co., Attn: Ruby Hall, ph 03 9123 4570</div>',
      ...Array.from({ length: 12 }, (_, i) => `<p>Line item ${i + 1}: design and print services as agreed, delivered on schedule.</p>`),
      '<p>Eucalypt Design Studio, 88 George Street, Sydney, Australia</p>',
    ];
    const indent = '\n' + ' '.repeat(40);
    const minified = `<article>${lines.join('')}</article>`;
    const indented = `<article>${indent}${lines.join(indent)}${indent}</article>`;
    expect(scan(minified)).toEqual(['+61391234570']);
    expect(scan(indented)).toEqual(['+61391234570']);
  });
});

describe('a place that labels an international number next to it says nothing about the rest of the message', () => {
  it('meeting dial-in lists (Zoom, Teams) naming cities and countries do not unsettle the message’s own country', () => {
    const invite = (lines: string[]) => lines.map((l) => `<div>${l}</div>`).join('');
    const html = `<div role="document"><div>Hi Jordan, the lift contractor's site number is (02) 9374 4012.</div>
      <table role="presentation"><tr><td>Sophie Nguyen<br>Level 12, 1 Martin Place, Sydney NSW 2000</td></tr></table>
      ${invite(['Dial by your location', '+1 646 555 0107 US (New York)', '+44 20 7946 0555 United Kingdom (London)', '+61 2 8015 0106 Australia'])}</div>`;
    expect(scan(html)).toEqual(['+61293744012', '+16465550107', '+442079460555', '+61280150106']);
    const teams = `<div class="msg"><p>Call me on 0412 345 680 before the meeting.</p><p>Harbour Build, Melbourne</p>
      <p>Or call in (audio only): +1 323-555-0144,,847219630# United States, Los Angeles · +49 30 901820 Germany, Berlin</p></div>`;
    expect(scan(teams)).toEqual(['+61412345680', '+13235550144', '+4930901820']);
  });

  it('a place not written next to an international number still gives the country', () => {
    expect(scan('<div><p>Sydney office</p><p>Tel. (02) 9374 4000 · New York office +1 212 555 0147</p></div>')).toEqual(['+61293744000', '+12125550147']);
  });
});

describe('a raw export whose phone column sits between numeric columns', () => {
  it('comma and semicolon exports: every number whatever its neighbours, no amount, id or timestamp', () => {
    const csv = [
      'customer_id,phone,calls,amount,last_call',
      '10442,646.555.0186,136,"1,234.50",2026-03-02 08:53:11',
      '10443,415-555-0132,12,99.00,2026-03-02 09:03:21',
      '10444,(212) 555-0144,3,12.00,2026-03-02 09:13:31',
      '10445,+44 20 7946 0321,7,0.50,2026-03-02 10:03:21',
      '10446,1-312-555-0101,0,,2026-03-02 11:53:11',
    ].join('\n');
    const semicolons = [
      'Kundennr;Telefon;Anrufe;Umsatz;Letzter Anruf',
      '2041;+49 30 12345678;3;1.234,56;02.03.2026 08:53',
      '2042;+33 1 42 68 53 00;1;12.345.678,90;02.03.2026 09:03',
      '2043; +34 91 123 45 67; 4; 17,00; 02.03.2026 10:13',
    ].join('\n');
    expect(scan(`<pre>${csv}</pre><pre>${semicolons}</pre>`).sort()).toEqual(
      ['+16465550186', '+14155550132', '+12125550144', '+442079460321', '+13125550101', '+493012345678', '+33142685300', '+34911234567'].sort(),
    );
  });
  it('French numbers written with dots after a numeric field, on a French page', () => {
    expect(scan('<pre>id,tel,appels\n1042,01.42.68.53.00,3\n1043,06.12.34.56.78,11</pre>', 'FR')).toEqual(['+33142685300', '+33612345678']);
  });
});
