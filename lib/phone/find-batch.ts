/**
 * Many texts' numbers in one call, for the background's `page/find` answer: the page's scanner
 * reads the DOM (texts, labels, the page's country) and sends the texts that may hold a number; the
 * parse and validation (libphonenumber-js, most of a large page's cost) run on the background's
 * thread instead of the page's. The scanner settles each answer against the DOM it read
 * (./scanner.ts), so a text's numbers come out the same as a local findPhoneNumbers would give.
 * This module is the page's half (no phone library); ./find-rows.ts is the background's.
 *
 * On the wire both ways are JSON strings of flat arrays (a request's texts, countries and labels;
 * the answer's rows), not an object per text: the browser hands a message to the page value by
 * value, which costs the page's thread far more than JSON.parse of one string.
 */
import type { CountryCode } from './countries';
import type { FoundPhoneNumber, TelHrefNumber } from './find';
import { MAX_MESSAGE_BYTES } from '../message-size';

/**
 * The limits of `page/find`, one set for both sides: the page builds no request the background
 * refuses (lib/background/page-gate.ts), and the background's share per frame and tab is what the
 * page paces itself by (./scan-away.ts). docs/finder.md explains them.
 */
/** Texts per request: a slice of scanning sends fewer; a bigger batch is split. */
export const MAX_FIND_ITEMS = 400;
/** Characters of text per request. */
export const MAX_FIND_CHARS = 8_000;
/**
 * One text at most this long; a longer one (a whole <pre>, a raw CSV) is read in slices of it. The
 * background reads a request text by text and lets other messages in between (Stop, Confirm), so a
 * text is the longest it is ever busy for one page: a dense CSV costs the finder 1–3 ms per valid
 * number, and 2,000 characters hold at most about 30 of them.
 */
export const MAX_FIND_TEXT = 2_000;
/**
 * A request's JSON (the message's `batch`): the message escapes it once more (at most doubling each
 * character) inside a 30-character envelope, so a batch this long always fits MAX_MESSAGE_BYTES.
 */
export const MAX_FIND_BATCH = Math.floor((MAX_MESSAGE_BYTES - 64) / 2);
/** Countries one text is read for (the default or its surroundings', plus places named in it). */
export const MAX_FIND_COUNTRIES = 8;
/** Longer field labels (an aria-label sentence) are read on the page. */
export const MAX_FIND_LABEL = 300;
/**
 * The background's share for one page: requests in flight (asked, not yet answered) and begun in
 * any second, per frame and per tab. The background refuses the excess with a `FindBusy` answer; a
 * frame keeps under its own share by itself, so only many busy frames of one tab ever meet a refusal.
 */
export const FIND_LIMITS = { frameInFlight: 2, framePerSecond: 20, tabInFlight: 4, tabPerSecond: 40 } as const;
export type FindLimits = { frameInFlight: number; framePerSecond: number; tabInFlight: number; tabPerSecond: number };

/** The background's answer to a request over the share: ask again in `retryInMs`. */
export interface FindBusy {
  retryInMs: number;
}

export function isFindBusy(reply: unknown): reply is FindBusy {
  return !!reply && typeof reply === 'object' && typeof (reply as FindBusy).retryInMs === 'number' && Number.isFinite((reply as FindBusy).retryInMs);
}

export interface FindItem {
  text: string;
  /** ISO countries to read the text for, in order (null: only numbers written with their +code). */
  countries: (string | null)[];
  /** The field label the text sits under ('' for none). */
  label: string;
  /** The text is a tel: / callto: href (read with parseTelHref, its first country), not a text. */
  tel?: boolean;
}

/** A number found; for a tel: href, whether it is valid (not only possible) for its country. */
export type FoundNumber = FoundPhoneNumber & { valid?: boolean };

/** For each of an item's countries: the numbers findPhoneNumbers finds (a tel: href's one number, or none). */
export type FindAnswer = FoundNumber[][];

/** An answer with no number for any of its countries (most texts): nothing to place. */
export function holdsNone(answer: FindAnswer): boolean {
  return answer.every((found) => found.length === 0);
}

/**
 * A request as sent: per text, its countries as one string ("BR,US"; an empty entry is null:
 * "" alone, "BR," with a second) and its label.
 */
export interface FindRequest {
  texts: string[];
  countries: string[];
  labels: string[];
  /** Indices of the texts that are tel: hrefs. */
  tels?: number[];
}

/** One number found: [text index, country index, start, end, e164, raw, country or '', ext or ''], and for a tel: href 1 when valid, 0 when only possible. */
export type FoundRow = [number, number, number, number, string, string, string, string] | [number, number, number, number, string, string, string, string, 0 | 1];

export const COUNTRY_LIST_RE = new RegExp(`^(?:[A-Z]{2})?(?:,(?:[A-Z]{2})?){0,${MAX_FIND_COUNTRIES - 1}}$`);

/** An item the background takes as it is: its label and countries within the caps (a text too long is sliced, ./find-slices.ts). */
export function fitsFindRequest(item: Omit<FindItem, 'text'>): boolean {
  return item.countries.length <= MAX_FIND_COUNTRIES && item.label.length <= MAX_FIND_LABEL;
}

/** JSON of an empty request with every field: `{"texts":[],"countries":[],"labels":[],"tels":[]}`. */
export const REQUEST_JSON_BASE = 50;

/** What an item adds to its request's JSON (its text, countries, label, tel index and commas), exactly or a little over. */
export function itemJsonLength(item: FindItem, textJson: number = JSON.stringify(item.text).length): number {
  return textJson + JSON.stringify(item.countries.map((c) => c ?? '').join(',')).length + JSON.stringify(item.label).length + 3 + (item.tel ? 4 : 0);
}

export function findRequest(items: readonly FindItem[]): FindRequest {
  const tels = items.flatMap((item, i) => (item.tel ? [i] : []));
  return {
    texts: items.map((i) => i.text),
    countries: items.map((i) => i.countries.map((c) => c ?? '').join(',')),
    labels: items.map((i) => i.label),
    ...(tels.length > 0 ? { tels } : {}),
  };
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
    if (!Array.isArray(row) || (row.length !== 8 && row.length !== 9)) return null;
    const [i, c, start, end, e164, raw, country, ext, valid] = row as unknown[];
    const slot = Number.isInteger(i) && Number.isInteger(c) ? answers[i as number]?.[c as number] : undefined;
    if (!slot || !Number.isInteger(start) || !Number.isInteger(end) || typeof e164 !== 'string' || typeof raw !== 'string' || typeof country !== 'string' || typeof ext !== 'string') return null;
    // Only a tel: href's number says whether it is valid.
    if ((valid !== undefined || items[i as number]!.tel) && valid !== 0 && valid !== 1) return null;
    slot.push({ raw, e164, start: start as number, end: end as number, ...(country ? { country: country as CountryCode } : {}), ...(ext ? { ext } : {}), ...(valid !== undefined ? { valid: valid === 1 } : {}) });
  }
  return answers;
}

/** A tel: href's answer as the link's number (null: none). */
export function telNumberOf(answer: FindAnswer): TelHrefNumber | null {
  const found = answer[0]?.[0];
  if (!found) return null;
  const { e164, country, ext, raw, valid } = found;
  return { e164, ...(country ? { country } : {}), ...(ext ? { ext } : {}), raw, valid: valid ?? true };
}
