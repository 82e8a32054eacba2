/**
 * Many texts' numbers in one call, for the background's `page/find` answer: the page's scanner
 * reads the DOM (texts, labels, the page's country) and sends the texts that may hold a number; the
 * parse and validation (libphonenumber-js, most of a large page's cost) run on the background's
 * thread instead of the page's. The scanner settles each answer against the DOM it read
 * (./scan.ts), so a text's numbers come out the same as a local findPhoneNumbers would give.
 *
 * On the wire both ways are JSON strings of flat arrays (a request's texts, countries and labels;
 * the answer's rows), not an object per text: the browser hands a message to the page value by
 * value, which costs the page's thread far more than JSON.parse of one string.
 */
import type { CountryCode } from 'libphonenumber-js/min';
import { findPhoneNumbers, type FoundPhoneNumber } from './find';

/** Texts per request: a slice of scanning sends fewer; a bigger batch is split. */
export const MAX_FIND_ITEMS = 400;
/** Longer texts (a whole <pre>, a page with no blocks) are read on the page. */
export const MAX_FIND_TEXT = 20_000;
/** Characters of text per request: a batch that reaches it goes at once. */
export const MAX_FIND_CHARS = 1_000_000;
/** Countries one text is read for (the default or its surroundings', plus places named in it). */
export const MAX_FIND_COUNTRIES = 8;
/** Longer field labels (an aria-label sentence) are read on the page. */
export const MAX_FIND_LABEL = 300;

export interface FindItem {
  text: string;
  /** ISO countries to read the text for, in order (null: only numbers written with their +code). */
  countries: (string | null)[];
  /** The field label the text sits under ('' for none). */
  label: string;
}

/** For each of an item's countries: the numbers findPhoneNumbers finds. */
export type FindAnswer = FoundPhoneNumber[][];

/**
 * A request as sent: per text, its countries as one string ("BR,US"; an empty entry is null:
 * "" alone, "BR," with a second) and its label.
 */
export interface FindRequest {
  texts: string[];
  countries: string[];
  labels: string[];
}

/** One number found: [text index, country index, start, end, e164, raw, country or '', ext or '']. */
export type FoundRow = [number, number, number, number, string, string, string, string];

export const COUNTRY_LIST_RE = new RegExp(`^(?:[A-Z]{2})?(?:,(?:[A-Z]{2})?){0,${MAX_FIND_COUNTRIES - 1}}$`);

export function fitsFindRequest(item: FindItem): boolean {
  return item.text.length <= MAX_FIND_TEXT && item.countries.length <= MAX_FIND_COUNTRIES && item.label.length <= MAX_FIND_LABEL;
}

export function findRequest(items: readonly FindItem[]): FindRequest {
  return { texts: items.map((i) => i.text), countries: items.map((i) => i.countries.map((c) => c ?? '').join(',')), labels: items.map((i) => i.label) };
}

export function findItems(request: FindRequest): FindItem[] {
  return request.texts.map((text, i) => ({ text, countries: (request.countries[i] ?? '').split(',').map((c) => c || null), label: request.labels[i] ?? '' }));
}

export function findBatch(items: readonly FindItem[]): FindAnswer[] {
  return items.map((item) => item.countries.map((country) => findPhoneNumbers(item.text, { defaultCountry: country ?? undefined, label: item.label })));
}

/** The background's answer to a request: every number found, as rows. */
export function findRows(request: FindRequest): FoundRow[] {
  const rows: FoundRow[] = [];
  findBatch(findItems(request)).forEach((perCountry, i) =>
    perCountry.forEach((found, c) => {
      for (const m of found) rows.push([i, c, m.start, m.end, m.e164, m.raw, m.country ?? '', m.ext ?? '']);
    }),
  );
  return rows;
}

/** The rows of a reply (their JSON) as answers for `items`; null for anything else (no reply, another build's, nonsense). */
export function answersFrom(json: unknown, items: readonly FindItem[]): FindAnswer[] | null {
  let reply: unknown;
  try {
    reply = typeof json === 'string' ? JSON.parse(json) : null;
  } catch {
    return null;
  }
  if (!Array.isArray(reply)) return null;
  const answers: FindAnswer[] = items.map((item) => item.countries.map(() => []));
  for (const row of reply as unknown[]) {
    if (!Array.isArray(row) || row.length !== 8) return null;
    const [i, c, start, end, e164, raw, country, ext] = row as unknown[];
    const slot = Number.isInteger(i) && Number.isInteger(c) ? answers[i as number]?.[c as number] : undefined;
    if (!slot || !Number.isInteger(start) || !Number.isInteger(end) || typeof e164 !== 'string' || typeof raw !== 'string' || typeof country !== 'string' || typeof ext !== 'string') return null;
    slot.push({ raw, e164, start: start as number, end: end as number, ...(country ? { country: country as CountryCode } : {}), ...(ext ? { ext } : {}) });
  }
  return answers;
}
