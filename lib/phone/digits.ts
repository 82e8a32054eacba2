/**
 * Digits and phone punctuation of other scripts, read as ASCII without moving an offset: the
 * background's finder (./find.ts) and the typed-number parser (./normalize.ts) read
 * `toAsciiDigits(text)`, and every offset into it is one into the text as written, so the page's
 * overlay lands on the number as the page shows it and the raw text reported is the page's own.
 *
 * - Full-width forms (U+FF01–FF5E: "０３－１２３４－５６７８", "（０６）", "＋８１", "ＴＥＬ：") are their
 *   ASCII twins; the ideographic space is a space; a katakana long mark "ー" between digits is a hyphen.
 * - Arabic-Indic (٠–٩), Persian (۰–۹) and Devanagari (०–९) digits are 0–9; the Arabic thousands and
 *   decimal signs are "," and ".".
 * - Direction marks and embeddings (LRM, RLM, ALM, LRE…PDF, LRI…PDI) are spaces: a right-to-left
 *   page wraps numbers in them, and they carry no digit.
 * Every replacement is one UTF-16 unit for one: the length never changes.
 */

/** Any character toAsciiDigits changes: a text without one is read as it is. */
const FOREIGN_RE = /[\u0660-\u066C\u06F0-\u06F9\u0966-\u096F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u3000\u30FC\uFF01-\uFF5E]/;
const FOREIGN_ALL_RE = new RegExp(FOREIGN_RE.source, 'g');

function ascii(c: string, at: number, text: string): string {
  const code = c.charCodeAt(0);
  if (code >= 0xff01 && code <= 0xff5e) return String.fromCharCode(code - 0xfee0);
  if (code >= 0x0660 && code <= 0x0669) return String.fromCharCode(code - 0x0660 + 48);
  if (code >= 0x06f0 && code <= 0x06f9) return String.fromCharCode(code - 0x06f0 + 48);
  if (code >= 0x0966 && code <= 0x096f) return String.fromCharCode(code - 0x0966 + 48);
  if (code === 0x066b) return '.';
  if (code === 0x066c) return ',';
  if (code === 0x30fc) return isDigitAt(text, at - 1) && isDigitAt(text, at + 1) ? '-' : c;
  if (code === 0x066a) return '%';
  return ' ';
}

function isDigitAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return (c >= 48 && c <= 57) || (c >= 0xff10 && c <= 0xff19);
}

/** `text` with other scripts' digits and phone punctuation as ASCII, the same length. */
export function toAsciiDigits(text: string): string {
  if (!FOREIGN_RE.test(text)) return text;
  return text.replace(FOREIGN_ALL_RE, ascii);
}
