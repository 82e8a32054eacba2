// @vitest-environment happy-dom
/**
 * Issue 20: numbers on the world's pages. Phone words, column headers and country names in other
 * languages, digits of other scripts, identifiers of other countries, and never the wrong country;
 * varied cases that are not the outside-* fixture pages (tests/e2e/page-accuracy.spec.ts measures those).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scanNode } from '../../../lib/phone/scan';
import { mayContainPhoneNumber, mayHoldNationalNumber } from '../../../lib/phone/candidate';
import { findPhoneNumbers } from '../../../lib/phone/find';
import { parsePhoneInput } from '../../../lib/phone/normalize';
import { placesIn, warmUpPlaces } from '../../../lib/phone/place-names';
import { regionNames } from '../../../lib/phone/region-names';

function scan(html: string, defaultCountry = 'US') {
  document.body.innerHTML = html;
  return scanNode(document.body, { defaultCountry });
}
const e164s = (html: string, country = 'US') => scan(html, country).map((m) => m.e164);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('digits of other scripts', () => {
  it('the page’s candidate search sees Arabic-Indic, Persian, Devanagari and full-width digits, direction marks between them', () => {
    for (const text of ['٠٥٠ ١٢٣ ٤٥٦٧', '۰۲۱ ۸۸۷۷ ۶۶۵۵', '०२२ २३४५ ६७८०', '０３－１２３４－５６７８', '\u200E+966\u200E 11 234 5679']) {
      expect(mayContainPhoneNumber(text), text).toBe(true);
    }
    expect(mayHoldNationalNumber('\u2066+971 4 312 3456\u2069')).toBe(false);
    expect(mayHoldNationalNumber('٠٤ ٢٣٤ ٥٦٧٨')).toBe(true);
  });

  it('the background reads them as the digits they are, reports them as written, offsets on the written text', () => {
    const text = 'الجوال: ٠٥٠ ١٢٣ ٤٥٦٧ · फ़ोन ०२२ २३४५ ६७८० · ＴＥＬ：０３－１２３４－５６７８';
    expect(findPhoneNumbers(text, { defaultCountry: 'SA' }).map((m) => [m.e164, m.raw, text.slice(m.start, m.end)])).toEqual([['+966501234567', '٠٥٠ ١٢٣ ٤٥٦٧', '٠٥٠ ١٢٣ ٤٥٦٧']]);
    expect(findPhoneNumbers('फ़ोन ०२२ २३४५ ६७८०', { defaultCountry: 'IN' }).map((m) => [m.e164, m.raw])).toEqual([['+912223456780', '०२२ २३४५ ६७८०']]);
    expect(findPhoneNumbers('ＴＥＬ：（０６）６１２３－４５６７、携帯 ０９０ー１２３４ー５６７８', { defaultCountry: 'JP' }).map((m) => [m.e164, m.raw])).toEqual([
      ['+81661234567', '（０６）６１２３－４５６７'],
      ['+819012345678', '０９０ー１２３４ー５６７８'],
    ]);
  });

  it('on a page, the match covers the written digits in the text node, inside right-to-left blocks and direction marks', () => {
    warmUpPlaces(regionNames(['ar']));
    const matches = scan('<div dir="rtl" lang="ar"><p>الرياض، المملكة العربية السعودية</p><p>الهاتف: <span>&rlm;٠١١ ٢٣٤ ٥٦٧٩&rlm;</span></p><p>للتواصل: &#x2066;+971 4 312 3456&#x2069;</p></div>');
    expect(matches.map((m) => m.e164)).toEqual(['+966112345679', '+97143123456']);
    const first = matches[0]!;
    if (first.source !== 'text') throw new Error('a text match');
    expect(first.startNode.data.slice(first.startOffset, first.endOffset)).toBe('٠١١ ٢٣٤ ٥٦٧٩');
  });

  it('a number typed or selected in other scripts’ digits is the same number', () => {
    expect(parsePhoneInput('٠٥٠ ١٢٣ ٤٥٦٧', 'SA')).toMatchObject({ ok: true, e164: '+966501234567' });
    expect(parsePhoneInput('\u200E+۹۸ ۲۱ ۸۸۷۷ ۶۶۵۵\u200E')).toMatchObject({ ok: true, e164: '+982188776655' });
    expect(parsePhoneInput('＋８１－３－１２３４－５６７０')).toMatchObject({ ok: true, e164: '+81312345670' });
  });
});

describe('phone words in other languages', () => {
  // A bare national run counts only after a phone word (or under a phone label), in any of the languages.
  const card = (label: string, number: string, place: string) => `<article><p>${place}</p><p>${label}: ${number}</p></article>`;
  it.each([
    ['Handynummer', '015123456789', 'Köln, Deutschland', '+4915123456789'],
    ['Portable', '0612345679', 'Lyon, France', '+33612345679'],
    ['Móvil', '612345679', 'Sevilla, España', '+34612345679'],
    ['Telemóvel', '912345678', 'Porto, Portugal', '+351912345678'],
    ['Cellulare', '3471234568', 'Torino, Italia', '+393471234568'],
    ['Mobiel', '0612345680', 'Utrecht, Nederland', '+31612345680'],
    ['Tel. kom.', '601234567', 'Kraków, Polska', '+48601234567'],
    ['Mobilnummer', '0701234567', 'Malmö, Sverige', '+46701234567'],
    ['Cep telefonu', '05321234567', 'İzmir, Türkiye', '+905321234567'],
    ['携帯電話', '09012345679', '日本', '+819012345679'],
    ['手机', '13912345678', '中国', '+8613912345678'],
    ['휴대폰', '01012345678', '대한민국', '+821012345678'],
    ['الجوال', '0501234568', 'المملكة العربية السعودية', '+966501234568'],
    ['נייד', '0522345678', 'ישראל', '+972522345678'],
    ['मोबाइल', '9876543210', 'भारत', '+919876543210'],
  ])('%s: a bare national run counts', (label, number, place, e164) => {
    warmUpPlaces(regionNames(['de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'sv', 'tr', 'ja', 'zh', 'ko', 'ar', 'he', 'hi']));
    expect(e164s(card(label, number, place))).toEqual([e164]);
    expect(e164s(card('Kundennummer', number, place))).toEqual([]);
  });

  it('a localized phone column header lets bare runs count and is not read for the row’s country', () => {
    const html = `<table><thead><tr><th>Firma</th><th>Land</th><th>Mobiltelefon</th></tr></thead><tbody><tr><td>Gruber</td><td>Österreich</td><td>06641234567</td></tr></tbody></table>`;
    expect(e164s(html, 'DE')).toEqual(['+436641234567']);
  });
});

describe('country names from data, in the page’s languages', () => {
  beforeAll(() => warmUpPlaces(regionNames(['de', 'ja', 'ar', 'hi', 'ko'])));

  it('Intl.DisplayNames names every country in every language asked for', () => {
    expect(placesIn('Vereinigtes Königreich').map((p) => p.country)).toEqual(['GB']);
    expect(placesIn('Mexiko').map((p) => p.country)).toEqual(['MX']);
    expect(placesIn('中国上海市浦东新区').map((p) => p.country)).toEqual(['CN']);
    expect(placesIn('대한민국의 수도').map((p) => p.country)).toEqual(['KR']);
    expect(placesIn('नरीमन पॉइंट, मुंबई, भारत').map((p) => p.country)).toEqual(['IN']);
    expect(placesIn('الإمارات العربية المتحدة').map((p) => p.country)).toEqual(['AE']);
    // Offsets of the text as written (the place before a number decides which country reads it).
    const text = 'Ümraniye, İstanbul, Türkiye';
    expect(placesIn(text).map((p) => text.slice(p.at, p.at + 8))).toEqual(['İstanbul', 'Türkiye']);
  });

  it('a Land column in German gives each row its country; the French number is never read as the German one its digits make', () => {
    const html = `<table><thead><tr><th>Name</th><th>Land</th><th>Telefon</th></tr></thead><tbody>
      <tr><td>Dubois</td><td>Frankreich</td><td>04 72 10 30 32</td></tr>
      <tr><td>Rossi</td><td>Italien</td><td>02 1234 5678</td></tr>
      <tr><td>Smith</td><td>Vereinigtes Königreich</td><td>0161 496 0123</td></tr></tbody></table>`;
    expect(e164s(html, 'DE')).toEqual(['+33472103032', '+390212345678', '+441614960123']);
  });
});

describe('identifiers of other countries are never numbers, even when their digits make a valid one', () => {
  it.each([
    ['<p>RCS Paris, SIREN 362 521 879 – France</p>', 'US'],
    ['<p>Exemple SAS, immatriculée au RCS de Paris sous le numéro 362 521 879, France</p>', 'US'],
    ['<p>N° TVA intracommunautaire : FR 40 362 521 879</p>', 'FR'],
    ['<p>Milano, Italia – P.IVA 03912345679 – Codice Fiscale 03912345679</p>', 'US'],
    ['<p>São Paulo, Brasil · CPF do responsável: 119.876.543-21</p>', 'US'],
    ['<p>Umsatzsteuer-Identifikationsnummer gemäß § 27a UStG: DE 129 273 398</p>', 'DE'],
    ['<p>REGON: 123456785 · Warszawa, Polska</p>', 'US'],
    ['<p>ח.פ. 514567891 · תל אביב, ישראל</p>', 'IL'],
    ['<p>IBAN: NL91 ABNA 0417 1643 00</p>', 'NL'],
    ['<pre>+91 22 7127 9938 India\nParticipant PIN (India audio bridge): 9876543210</pre>', 'US'],
    ['<pre>Numéro de conférence : 845 123 456#\nCode PIN : 9876 5432#</pre>', 'FR'],
    ['<dl><dt>法人番号</dt><dd>1234567890123</dd><dt>郵便番号</dt><dd>〒100-0005</dd></dl>', 'JP'],
    ['<dl><dt>السجل التجاري</dt><dd>١٠١٠١٢٣٤٥٦</dd><dt>الرمز البريدي</dt><dd>١٢٢١١</dd></dl>', 'SA'],
  ])('%s', (html, country) => {
    const found = e164s(html, country).filter((n) => n !== '+912271279938');
    expect(found).toEqual([]);
  });
});

describe('never the wrong country', () => {
  it('a national number the page gives no country for is offered only where the default makes it valid', () => {
    // A French national number on a page that names no country: not found with the US default, nor read as German digits with DE.
    expect(e164s('<p>Téléphone : 04 72 10 30 32</p>', 'US')).toEqual([]);
    expect(e164s('<p>Téléphone : 04 72 10 30 32</p>', 'FR')).toEqual(['+33472103032']);
    // A number read for Saudi Arabia is never shown as another country's.
    warmUpPlaces(regionNames(['ar']));
    expect(e164s('<div><p>الرياض، المملكة العربية السعودية</p><p>الهاتف: ٠١١ ٢٣٤ ٥٦٧٩</p></div>', 'US')).toEqual(['+966112345679']);
  });
});
