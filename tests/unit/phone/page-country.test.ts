// @vitest-environment happy-dom
/**
 * Issue 11 point 2: a national-format number is read with the country the page gives it, and never
 * as a different country's number. Each class varies its layout and the form the country takes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getCountries } from 'libphonenumber-js/min';
import { countryOfValue, ENGLISH_NAMES, placesIn } from '../../../lib/phone/place-names';
import { findPhoneNumbers } from '../../../lib/phone/find';
import { scanNode } from '../../../lib/phone/scan';

function scan(html: string, defaultCountry = 'US'): string[] {
  document.body.innerHTML = html;
  return scanNode(document.body, { defaultCountry }).map((m) => m.e164);
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('place names', () => {
  it('the English names are Intl.DisplayNames’ for every country libphonenumber knows (folded)', () => {
    const en = new Intl.DisplayNames(['en'], { type: 'region' });
    const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}. ]+/gu, ' ').replace(/ +/g, ' ').trim();
    expect(ENGLISH_NAMES).toEqual(getCountries().map((code) => `${code}${fold(en.of(code)!)}`));
  });

  it('country names in English and their own language, aliases, ISO codes, cities', () => {
    expect(['Brazil', 'Brasil', 'Deutschland', 'México', 'Mexico', 'UK', 'U.S.A.', 'Österreich', 'Zürich', 'Ciudad de México', 'MX', 'IN'].map(countryOfValue)).toEqual([
      'BR', 'BR', 'DE', 'MX', 'MX', 'GB', 'US', 'AT', 'CH', 'MX', 'MX', 'IN',
    ]);
  });

  it('ignores lower-case codes, unknown words and names that are mostly people or states', () => {
    expect(['in', 'Acme', 'Jordan', 'Georgia', 'Chad', 'Sales', 'XX'].map(countryOfValue)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('gives a value the same answer every time it is read, a list view’s repeats and past the memo’s size alike', () => {
    const values = ['Brazil', 'Acme', ' São Paulo ', 'Sales', 'Deutschland', 'Jordan'];
    const first = values.map(countryOfValue);
    expect(first).toEqual(['BR', undefined, 'BR', undefined, 'DE', undefined]);
    for (let i = 0; i < 5000; i++) countryOfValue(`Owner ${i}`);
    expect(values.map(countryOfValue)).toEqual(first);
    expect(values.map(countryOfValue)).toEqual(first);
  });

  it('finds places in free text with their offsets', () => {
    const text = 'ring the London desk, or our New York office';
    expect(placesIn(text)).toEqual([
      { at: text.indexOf('London'), country: 'GB' },
      { at: text.indexOf('New York'), country: 'US' },
    ]);
  });
});

describe('country from the page', () => {
  it('a row: a Country column (name, own-language name, ISO code), a City or Location column', () => {
    const html = `<table><thead><tr><th>Office</th><th>Country</th><th>Phone</th></tr></thead><tbody>
      <tr><td>Rio</td><td>Brazil</td><td>(21) 2345-6789</td></tr>
      <tr><td>CDMX</td><td>MX</td><td>55 1234 5679</td></tr>
      <tr><td>Berlin</td><td>Deutschland</td><td>030 12345678</td></tr>
      <tr><td>Head office</td><td>Bogotá</td><td>601 2345678</td></tr>
      <tr><td>Chicago</td><td>United States</td><td>(312) 555-0163</td></tr></tbody></table>`;
    expect(scan(html)).toEqual(['+552123456789', '+525512345679', '+493012345678', '+576012345678', '+13125550163']);
  });

  it("a row's phone, date and amount columns do not vote for its country: a place there labels that cell's own value", () => {
    // "New York" labels the international office number in its own cell; the row's Country column
    // reads the mobile. Were every cell a vote, US and GB would settle nothing and 07400 … would be lost.
    const html = `<table><thead><tr><th>Name</th><th>Phone</th><th>Mobile</th><th>Created Date</th><th>Country</th></tr></thead><tbody>
      <tr><td>Ana</td><td>+1 212 555 0147 New York</td><td>07400 123456</td><td>2024-01-05</td><td>United Kingdom</td></tr>
      <tr><td>Ben</td><td>(21) 2345-6789</td><td></td><td>2024-01-05 Sydney</td><td>Brasil</td></tr></tbody></table>`;
    expect(scan(html)).toEqual(['+12125550147', '+447400123456', '+552123456789']);
    // Other columns still vote, a Time zone one too ("Europe/Berlin" is not a time).
    const zone = `<table><thead><tr><th>Name</th><th>Time zone</th><th>Phone number</th></tr></thead><tbody>
      <tr><td>Cleo</td><td>Europe/Berlin</td><td>030 12345678</td></tr></tbody></table>`;
    expect(scan(zone)).toEqual(['+493012345678']);
  });

  it("a row's Country column decides its country: another column naming a place does not unsettle it", () => {
    // A German list whose Niederlassung (branch) column names the office that serves the customer.
    const html = `<table><thead><tr><th>Name</th><th>Niederlassung</th><th>Land</th><th>Telefon</th></tr></thead><tbody>
      <tr><td>Ana</td><td>London</td><td>Deutschland</td><td>030 12345678</td></tr>
      <tr><td>Ben</td><td>Paris</td><td>España</td><td>91 123 45 67</td></tr>
      <tr><td>Cleo</td><td>Berlin</td><td></td><td>030 23456789</td></tr></tbody></table>`;
    // The third row has no country in its Land cell: its other cells are read, and Berlin settles it.
    expect(scan(html)).toEqual(['+493012345678', '+34911234567', '+493023456789']);
    // Headed "COUNTRY:" reads the same; a header that only contains the word ("Bundesland", "Country notes") is not the country column.
    const upper = html.replace('<th>Land</th>', '<th>COUNTRY:</th>');
    expect(scan(upper)).toEqual(['+493012345678', '+34911234567', '+493023456789']);
    const notes = html.replace('<th>Land</th>', '<th>Country notes</th>');
    expect(scan(notes)).toEqual(['+493023456789']);
  });

  it('a record: an address ending in the country, a Country field with a code, a City field', () => {
    expect(scan('<section><dl><dt>Phone</dt><dd>(21) 3456-7890</dd><dt>Address</dt><dd>Rua X 10, Rio de Janeiro - RJ, Brasil</dd></dl></section>')).toEqual(['+552134567890']);
    expect(scan('<section><dl><dt>Phone</dt><dd>080 4123 4567</dd><dt>Country</dt><dd>IN</dd></dl></section>')).toEqual(['+918041234567']);
    expect(scan('<div><div><span>Mobile</span> <span>81 8123 4567</span></div><div>City: Monterrey</div></div>')).toEqual(['+528181234567']);
  });

  it('a heading or a nearby label names the country', () => {
    expect(scan('<article><h3>Italia</h3><p>Cell. 312 345 6789</p></article>')).toEqual(['+393123456789']);
    expect(scan('<p>Please call the London desk on 020 7946 0133.</p>')).toEqual(['+442079460133']);
    expect(scan('<p>Our desk is 030 12345678 (Deutschland).</p>')).toEqual(['+493012345678']);
    expect(scan('<div>UK office<br>Mobile 07400 123456</div>')).toEqual(['+447400123456']);
  });

  it('each number takes the place named nearest before it', () => {
    expect(scan('<p>Call the London desk on 020 7946 0133 or our New York office at (212) 555-0147.</p>')).toEqual(['+442079460133', '+12125550147']);
  });

  it('never a wrong-country number: not valid where the page says → not found, never the US reading', () => {
    // (212) 555-0147 is a US number, but the row says France, where it is no number at all.
    expect(scan('<table><tr><th>Country</th><th>Phone</th></tr><tr><td>France</td><td>(212) 555-0147</td></tr></table>')).toEqual([]);
    expect(scan('<article><h3>México</h3><p>Tel 55 1234 5679</p></article>')).not.toContain('+15512345679');
    expect(scan('<article><h3>China</h3><p>Mobile 131 2345 6789</p></article>')).toEqual(['+8613123456789']);
  });

  it('international numbers keep their own country whatever the page says', () => {
    expect(scan('<article><h3>Brasil</h3><p>Sales +44 20 7946 0958, support +1 (212) 555-0147</p></article>')).toEqual(['+442079460958', '+12125550147']);
  });

  it('two countries at one level settle nothing: the default country reads the number', () => {
    expect(scan('<div><p>Offices in Berlin and Chicago.</p><p>Office 312.555.0190</p></div>')).toEqual(['+13125550190']);
  });

  it('a place in another element (a sibling link) does not speak for the number', () => {
    expect(scan('<p><a href="/b">Berlin</a> <a href="/t">Text (312) 555-0177</a></p>')).toEqual(['+13125550177']);
  });

  it('the page default still applies where the page names no place', () => {
    expect(scan('<p>Call 020 7946 0133</p>', 'GB')).toEqual(['+442079460133']);
    expect(scan('<p>Call (312) 555-0163</p>')).toEqual(['+13125550163']);
  });
});

describe('IDD and trunk-prefix forms', () => {
  it('00 and 011 prefixes, with any separator, from any default country', () => {
    for (const country of ['US', 'GB', 'BR', 'JP']) {
      expect(findPhoneNumbers('Berlin: 0049 30 901820', { defaultCountry: country }).map((m) => m.e164), country).toEqual(['+4930901820']);
      expect(findPhoneNumbers('Paris 00 33 1 42 68 53 00', { defaultCountry: country }).map((m) => m.e164), country).toEqual(['+33142685300']);
      expect(findPhoneNumbers('NY: 00-1-212-555-0147', { defaultCountry: country }).map((m) => m.e164), country).toEqual(['+12125550147']);
    }
    expect(findPhoneNumbers('London: 011 44 20 7946 0958', { defaultCountry: 'US' }).map((m) => m.e164)).toEqual(['+442079460958']);
  });

  it('reports the prefix as written', () => {
    expect(findPhoneNumbers('Berlin: 0049 30 901820', { defaultCountry: 'US' })[0]).toMatchObject({ raw: '0049 30 901820', start: 8 });
  });

  it('trunk prefix in brackets after the country code', () => {
    for (const text of ['+44 (0)20 7946 0123', '+44(0)20 7946 0123', '+44 (0) 20 7946 0123']) {
      expect(findPhoneNumbers(text, { defaultCountry: 'US' }).map((m) => m.e164), text).toEqual(['+442079460123']);
    }
    expect(findPhoneNumbers('+49 (0) 89 2190-4567', { defaultCountry: 'US' }).map((m) => m.e164)).toEqual(['+498921904567']);
  });

  it('00 inside a number, glued to a word, or after a keyword is not a prefix', () => {
    expect(findPhoneNumbers('020 7946 0058', { defaultCountry: 'GB' }).map((m) => m.e164)).toEqual(['+442079460058']);
    expect(findPhoneNumbers('INV0049301234567 and Order 0044 2079 4601', { defaultCountry: 'US' })).toEqual([]);
  });
});
