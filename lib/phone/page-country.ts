/**
 * Which country does the page give the text of one container? Nearest first:
 *  1. places named in the container's own text before a number ("call the London desk on 020 …");
 *  2. the other cells of its table row (a Country / City / Region column: a name, a city or an ISO code);
 *  3. the text of the enclosing record, card or section (an address, a Country field, a heading),
 *     climbing at most a few levels and never reading a whole table or list.
 * A level that names two different countries settles nothing: the climb stops there.
 * Results per row and per ancestor are memoised for the caller's task (the DOM cannot change within it).
 */
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';
import type { FoundPhoneNumber } from './find';
import { countryOfValue, placesIn, type PlaceMention } from './place-names';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
/** An ancestor with more text than this is a page region, not a record. */
const MAX_RECORD_TEXT = 1200;
const MAX_LEVELS = 6;
/** Containers of many records: their text is never read as one record's. */
const COLLECTIONS = /^(?:table|tbody|thead|tfoot|ul|ol|body|html|main)$/;

/** Memo for one task: element → the country its text settles (undefined: none; null: several, or too much text). */
export type CountryMemo = Map<Node, CountryCode | null | undefined>;

export interface PageCountry {
  /** Places in the container's own text (for the numbers next to them, see findInContext's `near`). */
  own: PlaceMention[];
  /** The country the surroundings settle, if any. */
  around: CountryCode | null;
}

/** Text nodes joined with spaces (textContent runs "Phone" and "080…" of <dt>/<dd> together); '' past `max`. */
function wordsOf(el: Node, max: number): string {
  // Most table cells hold one text node or none: read it without the walk.
  const only = el.firstChild;
  if (only === null) return '';
  if (only === el.lastChild && only.nodeType === TEXT_NODE) {
    const data = (only as Text).data;
    return data.length + 1 > max ? '' : data;
  }
  const parts: string[] = [];
  let length = 0;
  const stack: Node[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === TEXT_NODE) {
      const data = (n as Text).data;
      length += data.length + 1;
      if (length > max) return '';
      parts.push(data);
    } else if (n.nodeType === ELEMENT_NODE || n === el) {
      const name = (n as Element).localName;
      if (name === 'script' || name === 'style' || name === 'template') continue;
      for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
    }
  }
  return parts.join(' ');
}

function only(countries: (CountryCode | undefined)[]): CountryCode | null | undefined {
  const set = new Set(countries.filter((c): c is CountryCode => !!c));
  return set.size === 1 ? [...set][0]! : set.size > 1 ? null : undefined;
}

function rowCountry(row: Element, memo: CountryMemo): CountryCode | null {
  let hit = memo.get(row);
  if (!memo.has(row)) {
    const cells: (CountryCode | undefined)[] = [];
    for (let cell = row.firstElementChild; cell; cell = cell.nextElementSibling) cells.push(countryOfValue(wordsOf(cell, 60)));
    hit = only(cells) ?? null;
    memo.set(row, hit);
  }
  return hit ?? null;
}

/** undefined: this level names no place (climb on); null: it names several (stop). */
function levelCountry(el: Element, memo: CountryMemo): CountryCode | null | undefined {
  if (memo.has(el)) return memo.get(el);
  const text = wordsOf(el, MAX_RECORD_TEXT);
  // An ISO code after a Country label ("Country IN") counts like the name.
  const coded = /(?<![\p{L}])(?:[Cc]ountry|[Rr]egion|[Ll]and|[Pp]ays|[Pp]a[ií]s)\s*:?\s+([A-Z]{2})(?![\p{L}])/u.exec(text);
  const found = text ? only([...placesIn(text).map((p) => p.country), coded ? countryOfValue(coded[1]!) : undefined]) : null;
  memo.set(el, found);
  return found;
}

export function pageCountry(container: Node, text: string, memo: CountryMemo): PageCountry {
  const own = placesIn(text);
  let around: CountryCode | null = null;
  let el = container.nodeType === ELEMENT_NODE ? (container as Element) : null;
  const row = el?.closest('tr');
  if (row) around = rowCountry(row, memo);
  for (let level = 0; !around && el && level < MAX_LEVELS; level++) {
    el = el.parentElement;
    if (!el || COLLECTIONS.test(el.localName)) break;
    const found = levelCountry(el, memo);
    if (found === null) break;
    if (found) around = found;
  }
  return { own, around };
}

/**
 * Numbers in `text` read with the country the page gives each place in it: `find` runs once per
 * country in play, and a national-format number is kept only from the run for its intended country
 * (the last place named before it, else the surroundings, else the default). So São Paulo's
 * "(21) 2345-6789" is +55 21… in a Brazil row and never the US number it would be by default.
 * International numbers ("+44 …", "011 44 …") are kept from whichever run found them.
 */
export function findInContext(
  text: string,
  defaultCountry: CountryCode | undefined,
  context: PageCountry,
  find: (text: string, country: CountryCode | undefined) => FoundPhoneNumber[],
  near: (place: PlaceMention, at: number) => boolean = () => true,
): FoundPhoneNumber[] {
  const { own, around } = context;
  const countries = new Set<CountryCode | undefined>([around ?? defaultCountry, ...own.map((p) => p.country)]);
  if (countries.size === 1 && countries.has(defaultCountry)) return find(text, defaultCountry);
  // The place named last before the number, or right after it ("030 1234567 (Deutschland)").
  const intended = (m: FoundPhoneNumber): CountryCode | undefined => {
    let country: CountryCode | undefined;
    for (const p of own) {
      if (!near(p, m.start)) continue;
      if (p.at < m.start) country = p.country;
      else if (!country && p.at >= m.end && p.at - m.end <= 3) country = p.country;
    }
    return country ?? around ?? defaultCountry;
  };
  const code = (country: CountryCode | undefined) => (country ? `+${getCountryCallingCode(country)}` : '');
  const kept: FoundPhoneNumber[] = [];
  for (const country of countries) {
    for (const m of find(text, country)) {
      if (kept.some((k) => k.start < m.end && m.start < k.end)) continue;
      const national = !m.raw.includes('+') && code(country) !== '' && m.e164.startsWith(code(country));
      if (national && code(intended(m)) !== code(country)) continue;
      kept.push(m);
    }
  }
  return kept.sort((a, b) => a.start - b.start);
}
