/**
 * Text → phone numbers, for the content script.
 *
 * Detection is libphonenumber-js `searchPhoneNumbersInText` with VALID leniency on the **min**
 * metadata (≈36 KB gzipped with the matcher; `max` is ≈57 KB and alone would break the content
 * script's 50 KB budget; `mobile` only validates mobile numbers, so it misses landlines and
 * office numbers, which is most of what a CRM shows). On top of it:
 *  - a prefilter: text with fewer than 7 digits is never handed to the matcher;
 *  - a rejection layer (./reject.ts) for dates, prices, ids, IPs, cards… that are VALID-shaped;
 *  - a retry inside digit phrases libphonenumber gave up on ("05 2024 415 555 0132");
 *  - comma "extensions" ("415-555-0132, 12 May") are cut back to the number.
 *
 * Do not import ./normalize.ts from content-script code: it pulls the `max` metadata.
 */
import {
  parsePhoneNumberFromString,
  searchPhoneNumbersInText,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/min';
import { hasEnoughDigits, mayContainPhoneNumber } from './candidate';
import { toAsciiDigits } from './digits';
import { supportedCountry } from './countries';
import { telHrefText } from './tel-href';
import { coreOf, rejectionReason, type FieldLabel, type RejectReason } from './reject';

export type { CountryCode };

export interface FoundPhoneNumber {
  /** The text as written on the page, extension included ("(415) 555-0132 x12"). */
  raw: string;
  /** E.164 without extension: "+14155550132". */
  e164: string;
  /** ISO country of the number when libphonenumber can tell (undefined for +800 and the like). */
  country?: CountryCode;
  /** Extension digits ("x123", "ext. 45", ";ext=12"), kept out of `e164`. */
  ext?: string;
  /** Offsets into the searched text; `end` is exclusive and includes the extension. */
  start: number;
  end: number;
}

export interface FindOptions {
  /** Country for numbers written without +country code. Invalid or missing: only +numbers are found. */
  defaultCountry?: CountryCode | string;
  /**
   * The field label the text sits under when the caller knows it (table column header, <dt>,
   * form label). A non-phone label ("Order #", "Account Number", "Created Date") vetoes matches; a
   * phone label ("Phone", "Mobile") lets a bare digit run count. A function is asked only when needed.
   */
  label?: FieldLabel;
}

export interface RejectedCandidate {
  raw: string;
  e164: string;
  start: number;
  end: number;
  reason: RejectReason;
}

export { MIN_DIGITS, hasEnoughDigits, mayContainPhoneNumber } from './candidate';

/** The country option as libphonenumber wants it: a supported ISO code or undefined. */
export { supportedCountry };

// A single comma (not ",,", which is auto-dial) followed by digits: libphonenumber reads
// "415-555-0132, 12 May" as extension 12. Real extensions use "x", "ext", "#", ";ext=" or ",,".
function isCommaOnlyExtension(raw: string, ext: string): boolean {
  const at = raw.lastIndexOf(ext);
  if (at <= 0) return false;
  const lead = raw.slice(0, at);
  const m = /[\s\u00A0]*,([\s\u00A0,:.-]*)$/.exec(lead);
  return m !== null && !lead.endsWith(',,') && !/,\s*,/.test(m[0]);
}

// In a comma-separated record (a CSV row: "Northwind,212-555-0144,,10013,jpark") ",," is an empty field,
// not an auto-dial pause: the number is a field of its own when a comma stands right before it or right
// after the "extension".
const FIELD_BEFORE_RE = /,[\s"']*$/;
const FIELD_AFTER_RE = /^[\s"']*,/;
function isFieldSeparatorExtension(text: string, start: number, end: number, ext: string): boolean {
  const raw = text.slice(start, end);
  if (!raw.slice(0, raw.lastIndexOf(ext)).includes(',')) return false;
  return FIELD_BEFORE_RE.test(text.slice(Math.max(0, start - 4), start)) || FIELD_AFTER_RE.test(text.slice(end, end + 4));
}

// "Orders 3125550100, 3125550101": the keyword covers every item of a list.
const LIST_SEPARATOR_RE = /^\s*(?:[,;/&+]|and|or|und|et|y)\s*$/iu;
function continuesRejectedList(text: string, start: number, sink: Sink): RejectReason | null {
  const previous = sink.rejected[sink.rejected.length - 1];
  if (!previous || previous.end > start) return null;
  if (previous.reason !== 'keyword' && previous.reason !== 'hash-id' && previous.reason !== 'label') return null;
  return LIST_SEPARATOR_RE.test(text.slice(previous.end, start)) ? previous.reason : null;
}

// "Phone: 4155550123, 4155550124": a bare run continuing a list of accepted numbers is one of them.
function continuesAcceptedList(text: string, start: number, sink: Sink): boolean {
  const previous = sink.accepted[sink.accepted.length - 1];
  return !!previous && previous.end <= start && LIST_SEPARATOR_RE.test(text.slice(previous.end, start));
}

interface Sink {
  accepted: FoundPhoneNumber[];
  rejected: RejectedCandidate[];
}

/** Run the matcher over text[from, to) and push accepted/rejected candidates; returns true if any accepted. */
function searchRange(text: string, from: number, to: number, country: CountryCode | undefined, label: FieldLabel | undefined, sink: Sink): boolean {
  let found = false;
  let offset = from;
  // Loops again only when a match had to be cut short (comma extension), to resume right after it.
  restart: while (offset < to) {
    const slice = text.slice(offset, to);
    if (!hasEnoughDigits(slice)) return found;
    for (const m of searchPhoneNumbersInText(slice, { defaultCountry: country })) {
      const start = offset + m.startsAt;
      let end = offset + m.endsAt;
      let ext = m.number.ext as string | undefined;
      let cut = false;
      if (ext && (isCommaOnlyExtension(text.slice(start, end), ext) || isFieldSeparatorExtension(text, start, end, ext))) {
        end = start + coreOf(text.slice(start, end), ext).length;
        ext = undefined;
        cut = true;
      }
      let reason = rejectionReason({ text, start, end, ext, label, callingCode: m.number.countryCallingCode });
      if (!reason) reason = continuesRejectedList(text, start, sink);
      else if (reason === 'bare' && continuesAcceptedList(text, start, sink)) reason = null;
      const e164 = m.number.number as string;
      if (reason) {
        sink.rejected.push({ raw: text.slice(start, end), e164, start, end, reason });
      } else {
        found = true;
        sink.accepted.push({
          raw: text.slice(start, end),
          e164,
          country: m.number.country,
          ...(ext ? { ext } : {}),
          start,
          end,
        });
      }
      if (cut) {
        offset = end;
        continue restart;
      }
    }
    break;
  }
  return found;
}

// A run of digits with phone punctuation between them, as it could hold one or more numbers.
const PHRASE_RE = /[+(]?\d[\d \u00A0().\-/]*\d/g;

/**
 * libphonenumber extracts a number from a longer digit phrase only when the pieces are separated
 * by one kind of punctuation, so "05 2024 415 555 0132" yields nothing. For phrases with no match
 * at all, retry from each later group start (at most 6 tries per phrase), and from the phrase's own
 * start when a comma or semicolon comes before it.
 */
function retryInsidePhrases(text: string, country: CountryCode | undefined, label: FieldLabel | undefined, sink: Sink): void {
  const taken = sink.accepted.map((m) => [m.start, m.end] as const).concat(
    sink.rejected.map((m) => [m.start, m.end] as const),
  );
  PHRASE_RE.lastIndex = 0;
  let p: RegExpExecArray | null;
  while ((p = PHRASE_RE.exec(text)) !== null) {
    const pStart = p.index;
    const pEnd = pStart + p[0].length;
    if (!hasEnoughDigits(p[0], 10)) continue; // too short to hold a number after something else
    // After "37," libphonenumber reads ",415" as an extension of 37 and skips (or splits) the phrase:
    // a CSV's field after a numeric field. Unless a number was found in it, its own start is tried
    // first (the glue rules still judge what it finds).
    if (
      /[,;][ \u00A0]?$/.test(text.slice(Math.max(0, pStart - 2), pStart)) &&
      !/^:\d/.test(text.slice(pEnd, pEnd + 2)) && // a log line's timestamp ("2026-03-02 08:53"), not a field
      !sink.accepted.some((m) => m.start < pEnd && m.end > pStart) &&
      searchRange(text, pStart, pEnd, country, label, sink)
    ) continue;
    if (taken.some(([s, e]) => s < pEnd && e > pStart)) continue;
    let tries = 0;
    for (let i = pStart + 1; i < pEnd && tries < 6; i++) {
      if (/[\s\u00A0/]/.test(text[i - 1]!) && /[+(\d]/.test(text[i]!)) {
        tries++;
        if (!hasEnoughDigits(text.slice(i, pEnd))) break;
        if (searchRange(text, i, pEnd, country, label, sink)) break;
      }
    }
  }
}

// Fast paths for table cells (CRM lists): a text that is *only* a date, a ZIP+4 or a plainly
// written phone number does not need the full text search (which builds a matcher per call).

// "2024-05-01", "2024-05-01T10:00", "2024-05-01T10:00:00.123Z", "…+02:00". checkShape rejects the
// date as 'date' (year 1900–2100, a plausible day and month), and any shorter candidate inside
// touches a digit, a letter ("T") or ":"/"." after a digit ('glued'), so no number can be found.
const ISO_DATE_ONLY_RE = /^\s*(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})?)?\s*$/;
// "94105-1234": checkShape's 'zip' rule; inner 7–8 digit candidates are 'glued'.
const ZIP4_ONLY_RE = /^\s*\d{5}-\d{4}\s*$/;

/** True when `text` is nothing but a token the rejection layer always vetoes (findPhoneNumbers only). */
function isOnlyNonPhoneToken(text: string): boolean {
  if (ZIP4_ONLY_RE.test(text)) return true;
  const m = ISO_DATE_ONLY_RE.exec(text);
  if (!m) return false;
  const y = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return y >= 1900 && y <= 2100 && month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

// A text that is only a phone number written the usual way: optional "+cc", optional "(area)",
// digit groups with single space/dot/hyphen separators, optional "x123" / "ext. 45" extension.
// Brackets are balanced and there is nothing around it, so libphonenumber's matcher takes the
// whole trimmed text as its candidate; if that candidate parses as a valid number the matcher
// reports exactly it (same span, same number). Anything else goes the full search.
const PHONE_ONLY_RE =
  /^(\+\d{1,3}[ .-]?)?(\(\d{1,5}\)[ .-]?)?\d{1,12}(?:[ .-]\d{1,12}){0,5}(?:( ?(?:x|ext\.?) ?)(\d{1,6}))?$/i;

/**
 * The single-number fast path: the match the full search would report for a phone-only text, or
 * null when the text is not such a text (or the number is not valid) and the full search must run.
 */
function phoneOnlyMatch(text: string, country: CountryCode | undefined): { start: number; end: number; number: PhoneNumber } | null {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  const trimmed = start === 0 && end === text.length ? text : text.slice(start, end);
  const m = PHONE_ONLY_RE.exec(trimmed);
  if (!m) return null;
  const number = parsePhoneNumberFromString(trimmed, { defaultCountry: country });
  // VALID leniency, as the matcher applies it: isValid() alone (it checks the type's lengths too).
  if (!number || !number.isValid()) return null;
  if ((number.ext || undefined) !== (m[4] || undefined)) return null;
  return { start, end, number };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0;
}

// "0049 30 …", "00 33 1 …": the international prefix most of the world dials, starting a digit
// phrase (not inside one: "0800 100 0058"; not glued to a word: "INV0049…"). libphonenumber reads it
// only when the default country dials 00, so it is masked as "  +49 30 …" (same length: offsets hold).
const IDD_00_RE = /(?<![\p{L}\p{N}_])(?<![\d+().\/\-][\s\u00A0]*)00[\s\u00A0.\-]?(?=[1-9])/gu;

function run(written: string, options: FindOptions, sink: Sink, fast = false): void {
  // Other scripts' digits and marks as ASCII, offsets kept (./digits.ts); raw stays as written.
  const text = toAsciiDigits(written);
  if (!mayContainPhoneNumber(text)) return;
  const masked = text.includes('00') ? text.replace(IDD_00_RE, (idd) => ' '.repeat(idd.length - 1) + '+') : text;
  runMasked(masked, options, sink, fast);
  if (masked === written) return;
  for (const m of sink.accepted) {
    // Report the prefix as written: "0049 30 901820", not "+49 30 901820".
    if (masked[m.start] === '+' && text[m.start] !== '+') while (m.start > 0 && masked[m.start - 1] === ' ' && text[m.start - 1] !== ' ') m.start--;
    m.raw = written.slice(m.start, m.end);
  }
  for (const m of sink.rejected) m.raw = written.slice(m.start, m.end);
}

function runMasked(text: string, options: FindOptions, sink: Sink, fast: boolean): void {
  if (fast && isOnlyNonPhoneToken(text)) return;
  const country = supportedCountry(options.defaultCountry);
  const single = phoneOnlyMatch(text, country);
  if (single) {
    // What searchRange does with the one match; retryInsidePhrases finds every phrase taken.
    const { start, end, number } = single;
    const ext = number.ext as string | undefined;
    const reason = rejectionReason({ text, start, end, ext, label: options.label, callingCode: number.countryCallingCode });
    const e164 = number.number as string;
    if (reason) sink.rejected.push({ raw: text.slice(start, end), e164, start, end, reason });
    else sink.accepted.push({ raw: text.slice(start, end), e164, country: number.country, ...(ext ? { ext } : {}), start, end });
    return;
  }
  searchRange(text, 0, text.length, country, options.label, sink);
  retryInsidePhrases(text, country, options.label, sink);
  sink.accepted.sort((a, b) => a.start - b.start);
}

/**
 * libphonenumber-js's first parse and first text search compile its code and big regular
 * expressions: on a fresh page that is 5–10 ms and 15–40 ms here, on top of the first chunk of
 * scanning. Run as separate tasks before the scan, these steps keep the first scanning slice short.
 */
export function warmUpSteps(defaultCountry?: CountryCode | string): (() => void)[] {
  return [
    () => void findPhoneNumbers('(201) 555-0123', { defaultCountry }),
    () => void findPhoneNumbers('Tel. 201-555-0123 ext. 5, 7 May', { defaultCountry }),
  ];
}

/**
 * Runs `fn` with V8's stack traces off. libphonenumber-js turns down a candidate by throwing and
 * catching a ParseError, and V8 captures a stack trace for every error made: in a same-run
 * comparison the look-alikes page of bench/page-cost.ts cost about a quarter less with this (measured
 * before ParseError itself was made cheap, ./parse-error.ts). Nothing here reads those traces.
 * Engines without `Error.stackTraceLimit` (Firefox) run `fn` as it is.
 */
export function withoutStackTraces<T>(fn: () => T): T {
  const E = Error as { stackTraceLimit?: number };
  const limit = E.stackTraceLimit;
  if (typeof limit !== 'number' || limit === 0) return fn();
  E.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    E.stackTraceLimit = limit;
  }
}

/**
 * Phone numbers in `text`, in order. Numbers written in national format are read for
 * `defaultCountry`; international ones (+44…, 0044…) for their own country.
 */
export function findPhoneNumbers(text: string, options: FindOptions = {}): FoundPhoneNumber[] {
  const sink: Sink = { accepted: [], rejected: [] };
  withoutStackTraces(() => run(text, options, sink, true));
  return sink.accepted;
}

/** Like findPhoneNumbers, plus the candidates the rejection layer vetoed and why (for tests and debugging). */
export function explainPhoneNumbers(text: string, options: FindOptions = {}): { found: FoundPhoneNumber[]; rejected: RejectedCandidate[] } {
  const sink: Sink = { accepted: [], rejected: [] };
  withoutStackTraces(() => run(text, options, sink));
  return { found: sink.accepted, rejected: sink.rejected };
}

export interface TelHrefNumber {
  e164: string;
  country?: CountryCode;
  ext?: string;
  /** The decoded number part of the href ("+1-415-555-0132"). */
  raw: string;
  /** False when the number is only the right length ("possible"), not in a valid range for its country. */
  valid: boolean;
}

/**
 * The number in a `tel:` / `callto:` href (RFC 3966 style, URL-encoded or not):
 * "tel:+1-415-555-0132;ext=12", "callto://+442079460958", "tel:%2B44%2020%207946%200958".
 * Returns null for other schemes (sms:, mailto:…) and for text that is not a possible number.
 * A link is an explicit statement by the page, so "possible" numbers are accepted too.
 */
export function parseTelHref(href: string, defaultCountry?: CountryCode | string): TelHrefNumber | null {
  const said = telHrefText(href);
  if (!said) return null;
  const { text, ext } = said;
  const parsed = withoutStackTraces(() => parsePhoneNumberFromString(text, { defaultCountry: supportedCountry(defaultCountry) }));
  if (!parsed || !parsed.isPossible()) return null;
  const extension = ext ?? (parsed.ext as string | undefined);
  return {
    e164: parsed.number as string,
    country: parsed.country,
    ...(extension ? { ext: extension } : {}),
    raw: said.raw,
    valid: parsed.isValid(),
  };
}
