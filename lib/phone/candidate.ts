/**
 * The cheapest test of all: could a text hold a phone number? No phone library here, so the
 * content script's first stage (lib/page/first-look.ts) can ask it before the finder is loaded.
 */

/** Input types whose value the finder reads (read-only or disabled ones: lib/phone/scan.ts onInput). */
export const INPUT_TYPES_WITH_TEXT: ReadonlySet<string> = new Set(['', 'text', 'tel', 'search']);

/** Fewer digits than this and a text cannot hold a number the finder reports. */
export const MIN_DIGITS = 7;

/** Cheap prefilter: does `text` contain at least `min` digits (ASCII, full-width, Arabic-Indic, Persian or Devanagari)? */
export function hasEnoughDigits(text: string, min: number = MIN_DIGITS): boolean {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 0xff10 && c <= 0xff19) || (c >= 0x0660 && c <= 0x0669) || (c >= 0x06f0 && c <= 0x06f9) || (c >= 0x0966 && c <= 0x096f)) {
      if (++n >= min) return true;
    }
  }
  return false;
}

// Seven digits with at most four phone punctuation characters between neighbours (libphonenumber's
// own limit): the shape any candidate has. "$125,400.00" and "Page 12 of 40" fail it cheaply.
// Digits of other scripts and direction marks count as ./digits.ts reads them (the background).
const DIGIT = String.raw`0-9\uFF10-\uFF19\u0660-\u0669\u06F0-\u06F9\u0966-\u096F`;
const PUNCTUATION = String.raw`\s\u00A0\u00AD\u200B\u2060\u3000\-\u2010-\u2015\u2212\u30FC\uFF0D/\uFF0F.\uFF0E()\uFF08\uFF09\uFF3B\uFF3D[\]~\u2053\u223C\uFF5E\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069`;
const CANDIDATE_SHAPE_RE = new RegExp(`[${DIGIT}](?:[${PUNCTUATION}]{0,4}[${DIGIT}]){6}`);

const CANDIDATE_SHAPES_RE = new RegExp(CANDIDATE_SHAPE_RE.source, 'g');
const LEAD_IN_RE = /[\s\u00A0(\[\uFF08\uFF3B\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/;

/**
 * Could `text` hold a number written without its country code, one the page's country decides
 * (lib/phone/page-country.ts)? True unless every candidate shape in it follows a "+" (spaces and
 * opening brackets between allowed): "+44 20 7946 0958" needs no country, "020 7946 0958" or
 * "0049 30 901820" may. Errs towards true (a long +number's tail counts as a candidate of its own).
 */
export function mayHoldNationalNumber(text: string): boolean {
  CANDIDATE_SHAPES_RE.lastIndex = 0;
  for (let m = CANDIDATE_SHAPES_RE.exec(text); m; m = CANDIDATE_SHAPES_RE.exec(text)) {
    let i = m.index - 1;
    while (i >= 0 && LEAD_IN_RE.test(text[i]!)) i--;
    if (text[i] !== '+' && text[i] !== '\uFF0B') return true;
  }
  return false;
}

/** Prefilter: could `text` hold a phone number at all? (≥ 7 digits, and 7 of them in one run.) */
export function mayContainPhoneNumber(text: string): boolean {
  return hasEnoughDigits(text) && CANDIDATE_SHAPE_RE.test(text);
}


/**
 * The same answer as mayContainPhoneNumber for a long text (a whole document's): one native regexp
 * scan, where the digit count would walk the text character by character first.
 */
export function hasCandidateShape(text: string): boolean {
  return CANDIDATE_SHAPE_RE.test(text);
}
