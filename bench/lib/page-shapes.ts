/**
 * Page shapes for bench/page-cost.ts, generated from a seed (the same seed gives the same page): not
 * the fixtures the finder was tuned on. Each shape says how many phone numbers it holds (`numbers`),
 * as a sanity figure beside the cost, and whether it counts as a large page for the cost aims.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { crmTable } from './crm-table';
import { seededRandom } from '../../tests/support/fault-proxy';

export interface PageShape {
  name: string;
  html: string;
  /** Phone numbers written on the page (occurrences). */
  numbers: number;
  /** Different numbers among them (what a report counts). */
  distinct: number;
  large: boolean;
}

/** A seeded PRNG (the fault proxy's mulberry32), so every run builds the same pages. */
export const seeded = seededRandom;

type Rand = () => number;

/** How many different numbers `texts` hold (read as the US would; the international ones carry their +). */
function distinctNumbers(texts: string[]): number {
  return new Set(texts.map((t) => parsePhoneNumberFromString(t, 'US')?.number ?? t)).size;
}
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
  `<style>body{font:14px system-ui;margin:16px}td,th{padding:2px 6px;border-bottom:1px solid #ddd}</style></head><body>${body}</body></html>`;

const US_AREAS = ['201', '206', '212', '303', '312', '404', '415', '503', '512', '617', '646', '702', '713', '818'];

/** A phone number in one of many real-world shapes, US and international (all valid numbers). */
export function phoneText(r: Rand): string {
  const a = pick(r, US_AREAS);
  const line = `01${pad(int(r, 0, 99), 2)}`;
  const forms: (() => string)[] = [
    () => `(${a}) 555-${line}`,
    () => `${a}-555-${line}`,
    () => `${a}.555.${line}`,
    () => `+1 ${a} 555 ${line}`,
    () => `1-${a}-555-${line}`,
    () => `(${a}) 555-${line} ext. ${int(r, 10, 999)}`,
    () => `+44 20 7946 ${pad(int(r, 0, 999), 4)}`,
    () => `+44 161 496 ${pad(int(r, 0, 999), 4)}`,
    () => `+49 30 ${int(r, 2000000, 9999999)}`,
    () => `+33 1 ${int(r, 40, 49)} ${pad(int(r, 0, 99), 2)} ${pad(int(r, 0, 99), 2)} ${pad(int(r, 0, 99), 2)}`,
    () => `+61 2 9${int(r, 100, 999)} ${int(r, 1000, 9999)}`,
    () => `+81 3-${int(r, 3000, 6999)}-${int(r, 1000, 9999)}`,
    () => `+34 91 ${int(r, 100, 999)} ${pad(int(r, 0, 99), 2)} ${pad(int(r, 0, 99), 2)}`,
    () => `+39 06 ${int(r, 1000, 9999)} ${int(r, 1000, 9999)}`,
    () => `+52 55 ${int(r, 1000, 9999)} ${int(r, 1000, 9999)}`,
    () => `+55 11 ${int(r, 2000, 5999)}-${int(r, 1000, 9999)}`,
  ];
  return pick(r, forms)();
}

/** Digit-heavy values that are not phone numbers, as report exports and admin pages show them. */
function lookAlike(r: Rand): string {
  const forms: (() => string)[] = [
    () => `${int(r, 2019, 2026)}-${pad(int(r, 1, 12), 2)}-${pad(int(r, 1, 28), 2)} ${pad(int(r, 0, 23), 2)}:${pad(int(r, 0, 59), 2)}:${pad(int(r, 0, 59), 2)}`,
    () => `${pad(int(r, 1, 12), 2)}/${pad(int(r, 1, 28), 2)}/${int(r, 2019, 2026)} ${int(r, 1, 12)}:${pad(int(r, 0, 59), 2)} ${pick(r, ['AM', 'PM'])}`,
    () => `$${int(r, 1, 999)},${pad(int(r, 0, 999), 3)}.${pad(int(r, 0, 99), 2)}`,
    () => `${int(r, 1, 99)}.${pad(int(r, 0, 999), 3)},${pad(int(r, 0, 99), 2)} €`,
    () => `ORD-${int(r, 2019, 2026)}-${pad(int(r, 0, 999999), 6)}`,
    () => `INV ${int(r, 1000000, 9999999)}`,
    () => `Case ${pad(int(r, 0, 99999999), 8)}`,
    () => `SKU ${int(r, 100, 999)}-${int(r, 1000, 9999)}-${int(r, 10, 99)}`,
    () => `1Z${int(r, 100, 999)}A${int(r, 10, 99)}${int(r, 1000000000, 9999999999)}`,
    () => `9400 ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 10, 99)}`,
    () => `${int(r, 10000, 99999)}-${int(r, 1000, 9999)}`,
    () => `v${int(r, 1, 20)}.${int(r, 0, 40)}.${int(r, 0, 200)}`,
    () => `${int(r, 10, 250)}.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
    () => `978-${int(r, 0, 9)}-${int(r, 100, 999)}-${int(r, 10000, 99999)}-${int(r, 0, 9)}`,
    () => `${int(r, 4000, 4999)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)} ${int(r, 1000, 9999)}`,
    () => `${int(r, 1000000000, 9999999999)}`,
    () => `#${int(r, 100000, 999999)}`,
  ];
  return pick(r, forms)();
}

const FIRST = ['Maya', 'Omar', 'Lena', 'Tariq', 'Sofia', 'Kenji', 'Ines', 'Paul', 'Zara', 'Noah', 'Chloé', 'Ravi'];
const LAST = ['Okafor', 'Lindqvist', 'Moreau', 'Haddad', 'Costa', 'Tanaka', 'Novak', 'Reyes', 'Walsh', 'Iyer'];
const name = (r: Rand) => `${pick(r, FIRST)} ${pick(r, LAST)}`;

/** A report export: `rows` rows, 6 columns, one phone number per row in a column that moves per report. */
export function reportExport(rows: number, seed = 11): PageShape {
  const r = seeded(seed);
  const head = ['Record ID', 'Created', 'Amount', 'Phone', 'Reference', 'Shipment'];
  const body: string[] = [];
  const phones: string[] = [];
  for (let i = 0; i < rows; i++) {
    phones.push(phoneText(r));
    const cells = [
      `${pick(r, ['00Q', '003', '500'])}${int(r, 1e9, 9.9e9)}`,
      lookAlike(r),
      pick(r, [`$${int(r, 10, 99999)}.${pad(int(r, 0, 99), 2)}`, lookAlike(r)]),
      esc(phones[i]!),
      lookAlike(r),
      lookAlike(r),
    ];
    body.push(`<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`);
  }
  const html = page(
    'Report export',
    `<h1>Opportunities with contacts (${rows} rows)</h1><table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`,
  );
  return { name: `report-export-${rows}`, html, numbers: rows, distinct: distinctNumbers(phones), large: true };
}

export function bigTable(rows: number): PageShape {
  const { html, occurrences } = crmTable(rows);
  return { name: `crm-table-${rows}`, html, numbers: Object.values(occurrences).reduce((a, b) => a + b, 0), distinct: Object.keys(occurrences).length, large: true };
}

/** A CRM record view: a header, a few dozen label/value fields, related lists, an activity feed. */
export function recordView(seed = 12): PageShape {
  const r = seeded(seed);
  const phones = [phoneText(r), phoneText(r), phoneText(r)];
  const fields: [string, string][] = [
    ['Account Name', 'Northwind Traders'],
    ['Phone', esc(phones[0]!)],
    ['Fax', esc(phones[1]!)],
    ['Mobile', esc(phones[2]!)],
    ['Account Number', String(int(r, 1e9, 9.9e9))],
    ['Website', 'northwind.example'],
    ['Annual Revenue', '$12,400,000'],
    ['Employees', '1,250'],
    ['SIC Code', '5141'],
    ['Billing Address', `${int(r, 1, 999)} Market St, Suite ${int(r, 100, 999)}, San Francisco, CA ${int(r, 94100, 94199)}-${int(r, 1000, 9999)}`],
    ['Created', lookAlike(r)],
    ['Last Modified', lookAlike(r)],
  ];
  for (let i = 0; i < 30; i++) fields.push([`Custom field ${i + 1}`, i % 3 ? lookAlike(r) : 'Enterprise tier, renewal pending review']);
  const dl = fields.map(([k, v]) => `<div class="field"><span class="k" style="display:block">${k}</span><span style="display:block">${v}</span></div>`).join('');
  const feed = Array.from({ length: 20 }, () => `<li><b>${name(r)}</b> logged a call on ${lookAlike(r)}. Outcome: left a voicemail, will follow up next week.</li>`).join('');
  const html = page('Northwind Traders | Account', `<header><h1>Northwind Traders</h1></header><section>${dl}</section><h2>Activity</h2><ul>${feed}</ul>`);
  return { name: 'record-view', html, numbers: 3, distinct: distinctNumbers(phones), large: false };
}

/** A mail thread of eight messages with quoted replies and signatures. */
export function mailThread(seed = 13): PageShape {
  const r = seeded(seed);
  const phones: string[] = [];
  const messages: string[] = [];
  for (let i = 0; i < 8; i++) {
    const who = name(r);
    const withNumber = i % 2 === 0;
    if (withNumber) phones.push(phoneText(r));
    messages.push(
      `<article><header><b>${who}</b> &lt;${who.split(' ')[0]!.toLowerCase()}@example.com&gt; · ${lookAlike(r)}</header>` +
        `<p>Hi team, following up on order ${lookAlike(r)} and the invoice we discussed on Tuesday. The shipment ${lookAlike(r)} is delayed by two days.</p>` +
        `<p>Can we move the review to Thursday? I have attached the updated figures; the total is now ${lookAlike(r)}.</p>` +
        `<blockquote>On ${lookAlike(r)}, someone wrote: please confirm the revised quote before Friday.</blockquote>` +
        `<footer>--<br>${who}<br>Account Manager, Northwind${withNumber ? `<br>Direct: ${esc(phones.at(-1)!)}` : ''}</footer></article>`,
    );
  }
  return { name: 'mail-thread', html: page('Re: Q3 order', `<h1>Re: Q3 order</h1>${messages.join('')}`), numbers: phones.length, distinct: distinctNumbers(phones), large: false };
}

const WORDS = 'the a of and to in that is was he for it with as his on be at by had are but from or have an they which one you were her all she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'.split(' ');

/** A long article: `paragraphs` paragraphs of prose with headings, links and lists, and not one digit. */
export function longArticle(paragraphs: number, seed = 14): PageShape {
  const r = seeded(seed);
  const sentence = () => {
    const n = int(r, 8, 22);
    const words = Array.from({ length: n }, () => pick(r, WORDS));
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    return `${words.join(' ')}.`;
  };
  const parts: string[] = [];
  for (let i = 0; i < paragraphs; i++) {
    if (i % 12 === 0) parts.push(`<h2>${sentence().slice(0, 40)}</h2>`);
    const inner = Array.from({ length: int(r, 3, 7) }, (_, j) => (j === 1 ? `<a href="#s">${sentence()}</a>` : j === 2 ? `<em>${sentence()}</em>` : sentence())).join(' ');
    parts.push(i % 9 === 4 ? `<ul>${Array.from({ length: 4 }, () => `<li>${sentence()}</li>`).join('')}</ul>` : `<p>${inner}</p>`);
  }
  return { name: `article-${paragraphs}p`, html: page('A long read', `<article><h1>A long read</h1>${parts.join('')}</article>`), numbers: 0, distinct: 0, large: true };
}

/** A page of look-alike non-numbers: dates, times, prices, order, invoice and case numbers, IDs, IPs, cards… */
export function lookAlikes(items: number, seed = 15): PageShape {
  const r = seeded(seed);
  const rows = Array.from({ length: items }, (_, i) => `<li>${pick(r, ['Ref', 'Order', 'Updated', 'Total', 'Item', 'Tracking', 'Build'])}: ${esc(lookAlike(r))} <small>#${i}</small></li>`);
  return { name: `look-alikes-${items}`, html: page('Order history', `<h1>Order history</h1><ul>${rows.join('')}</ul>`), numbers: 0, distinct: 0, large: true };
}

/**
 * A "view raw" page: about `bytes` of an activity-log CSV in ONE text node of a <pre> (a raw export,
 * a log view), a customer number on the call lines (one in ten), ids, timestamps and durations
 * around them; an ordinary table below it.
 */
export function rawText(bytes = 1_000_000, seed = 21): PageShape {
  const r = seeded(seed);
  const kinds = ['page_view', 'email_open', 'form_submit', 'call', 'page_view', 'email_click', 'page_view', 'meeting', 'page_view', 'email_open'];
  const lines = ['event_id,at,kind,agent,customer,customer_phone,duration_s,outcome'];
  const phones: string[] = [];
  let size = lines[0]!.length;
  for (let i = 0; size < bytes; i++) {
    const kind = kinds[i % kinds.length]!;
    const phone = kind === 'call' ? phoneText(r) : '';
    if (phone) phones.push(phone);
    const line = `E${2026030200000 + i},2026-03-02 ${pad(8 + ((i >> 9) % 12), 2)}:${pad(i % 60, 2)}:${pad((i * 7) % 60, 2)},${kind},${pick(r, ['sales', 'reminder', 'survey'])},"Customer ${i % 997}",${phone},${kind === 'call' ? int(r, 5, 900) : ''},${kind === 'call' ? pick(r, ['completed', 'no-answer', 'busy']) : ''}`;
    lines.push(line);
    size += line.length + 1;
  }
  const table = Array.from({ length: 3 }, () => phoneText(r));
  phones.push(...table);
  const html = page(
    'activity.csv · Raw',
    `<pre>${esc(lines.join('\n'))}</pre><table><thead><tr><th>Contact</th><th>Phone</th></tr></thead><tbody>${table.map((t, i) => `<tr><td>Follow-up ${i}</td><td>${esc(t)}</td></tr>`).join('')}</tbody></table>`,
  );
  return { name: `raw-text-${Math.round(bytes / 1_000_000)}mb`, html, numbers: phones.length, distinct: distinctNumbers(phones), large: true };
}

/** Countries of a localized list: the German name the Land column shows, and a national number in the country's own format. */
const LOCAL_COUNTRIES: readonly { land: string; city: string; phone: (r: Rand) => string }[] = [
  { land: 'Deutschland', city: 'Berlin', phone: (r) => `030 ${int(r, 2000000, 8999999)}` },
  { land: 'Frankreich', city: 'Paris', phone: (r) => `01 ${int(r, 40, 49)} ${pad(int(r, 0, 99), 2)} ${pad(int(r, 0, 99), 2)} ${pad(int(r, 0, 99), 2)}` },
  { land: 'Spanien', city: 'Madrid', phone: (r) => `91 ${int(r, 100, 999)} ${pad(int(r, 0, 99), 2)} ${pad(int(r, 0, 99), 2)}` },
  { land: 'Italien', city: 'Rom', phone: (r) => `06 ${int(r, 1000, 9999)} ${int(r, 1000, 9999)}` },
  { land: 'Niederlande', city: 'Amsterdam', phone: (r) => `020 ${int(r, 100, 999)} ${int(r, 1000, 9999)}` },
  { land: 'Vereinigtes Königreich', city: 'London', phone: (r) => `020 7946 ${pad(int(r, 0, 999), 4)}` },
  { land: 'Japan', city: 'Tokio', phone: (r) => `03-${int(r, 3000, 6999)}-${int(r, 1000, 9999)}` },
  { land: 'Mexiko', city: 'Mexiko-Stadt', phone: (r) => `55 ${int(r, 1000, 9999)} ${int(r, 1000, 9999)}` },
];

/**
 * A localized CRM list (issue 20): `rows` rows of a German list view, the Land column naming each
 * row's country in German only, a national number per row, and ids, VAT ids, amounts and dates.
 * The page's language brings the country names of page/config.
 */
export function localizedList(rows: number, seed = 16): PageShape {
  const r = seeded(seed);
  const phones: string[] = [];
  const body = Array.from({ length: rows }, (_, i) => {
    const c = pick(r, LOCAL_COUNTRIES);
    const phone = c.phone(r);
    phones.push(`${c.land}:${phone}`);
    return `<tr><td>${esc(name(r))}</td><td>${c.city}</td><td>${c.land}</td><td>${esc(phone)}</td><td>${int(r, 1000000, 9999999)}</td><td>DE${int(r, 100000000, 999999999)}</td><td>${int(r, 1, 999)}.${pad(int(r, 0, 999), 3)},${pad(int(r, 0, 99), 2)}</td><td>${pad(int(r, 1, 28), 2)}.${pad(int(r, 1, 12), 2)}.${int(r, 2019, 2026)}</td><td>#${i}</td></tr>`;
  });
  const html =
    `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Alle Kontakte</title>` +
    `<style>body{font:14px system-ui;margin:16px}td,th{padding:2px 6px;border-bottom:1px solid #ddd}</style></head><body>` +
    `<h1>Alle Kontakte</h1><table><thead><tr><th>Name</th><th>Ort</th><th>Land</th><th>Telefon</th><th>Kundennr.</th><th>USt-IdNr.</th><th>Umsatz (EUR)</th><th>Erstellt am</th><th>Zeile</th></tr></thead><tbody>${body.join('')}</tbody></table></body></html>`;
  return { name: `localized-list-${rows}`, html, numbers: rows, distinct: new Set(phones).size, large: true };
}

/** Every shape the cost bench measures, large pages first. */
export function pageShapes(rows = 5000): PageShape[] {
  return [reportExport(rows), bigTable(rows), localizedList(rows), longArticle(1500), lookAlikes(rows), rawText(), recordView(), mailThread()];
}
