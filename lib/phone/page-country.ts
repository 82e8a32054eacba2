/**
 * Which country does the page give the text of one container? Nearest first:
 *  1. places named in the container's own text before a number ("call the London desk on 020 …");
 *  2. the other cells of its table row (a Country / City / Region column: a name, a city or an ISO code);
 *  3. the text of the enclosing record, card or section (an address, a Country field, a heading),
 *     climbing at most a few levels and never reading a whole table or list.
 * A level that names two different countries settles nothing: the climb stops there.
 * Results per row and per ancestor are memoised for the caller's task (the DOM cannot change within it).
 */
import { callingCodeOf, type CountryCode } from './countries';
import type { FoundPhoneNumber } from './find';
import { countryOfValue, placesIn, type PlaceMention } from './place-names';
import { labelKind } from './reject';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
/** An ancestor with more text than this is a page region, not a record. */
const MAX_RECORD_TEXT = 1200;
const MAX_LEVELS = 6;
/** Containers of many records: their text is never read as one record's. */
const COLLECTIONS = /^(?:table|tbody|thead|tfoot|ul|ol|body|html|main)$/;

/**
 * Memo for one task: a row → the country its cells settle (null: none or several); an ancestor → the
 * countries its text names (null: too much text); a row's parent → which columns of its table a row reads (`columns`).
 */
export interface CountryMemo {
  places: Map<Node, CountryCode | readonly CountryCode[] | null | undefined>;
  columns: Map<Element, ColumnPlan>;
}

export function newCountryMemo(): CountryMemo {
  return { places: new Map(), columns: new Map() };
}

export interface PageCountry {
  /** Places in the container's own text (for the numbers next to them, see findInContext's `near`). */
  own: PlaceMention[];
  /** The country the surroundings settle, if any. */
  around: CountryCode | null;
}

const WHITE_ONLY_RE = /^[ \t\n\r\f]*$/;

/** Text nodes joined with spaces (textContent runs "Phone" and "080…" of <dt>/<dd> together); '' past `max`. */
function wordsOf(el: Element, max: number): string {
  // Most table cells hold text and no element: one native read, no text node brought into the
  // content script's world (each one costs it more than the read).
  if (el.firstElementChild === null) {
    const data = el.textContent ?? '';
    return data.length + 1 > max || WHITE_ONLY_RE.test(data) ? '' : data;
  }
  const parts: string[] = [];
  let length = 0;
  const stack: Node[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === TEXT_NODE) {
      const data = (n as Text).data;
      // Source indentation between elements is no text: a record reads the same minified.
      if (WHITE_ONLY_RE.test(data)) continue;
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

/** Columns of states and provinces: their two-letter codes (IN Indiana, RS Rio Grande do Sul, NL Newfoundland) are not countries. */
const STATE_COLUMN = /\b(?:state|province|prov|county|prefecture|estado|provincia|bundesland|kanton|st)\b/i;

/**
 * Columns whose values are numbers, addresses of mail, dates or amounts: a place written in one labels
 * that value ("+1 212 555 0147 New York"), not the row. A Time zone column ("Europe/Berlin") is a place.
 */
const VALUE_COLUMN = new RegExp(
  String.raw`(?<![\p{L}])(?:phones?|telephone|tel|mobile|cell|cellphone|fax|whatsapp|sms|e-?mails?|date|time(?!\s*zone)|created|modified|updated|due|amount|total|price|cost|balance|revenue|id|ids|number|no|nr|score|rating|count|quantity|qty|duration)(?![\p{L}])`,
  'iu',
);

/**
 * Per column of a table (by position, as the header reads): 'skip' (a value column), 'state' (two-letter
 * codes are states), 'country' (headed as the country: "Country", "Land", "Pays"), or 'read'.
 */
type ColumnPlan = readonly ('skip' | 'state' | 'country' | 'read')[];

/** The header texts of a row's table, by column: thead's row, else the first row if it is all <th>. */
function columnHeads(table: Element | null, row: Element): string[] {
  const head = table?.querySelector('thead tr') ?? table?.querySelector('tr');
  if (!head || head === row || !head.firstElementChild || head.querySelector('td')) return [];
  return Array.from(head.children, (cell) => wordsOf(cell, 60));
}

/** The row's table's plan, memoised by the row's parent (tbody): a list view asks for every row. */
function columnPlan(row: Element, memo: CountryMemo): ColumnPlan {
  const key = row.parentElement ?? row;
  let plan = memo.columns.get(key);
  if (!plan) {
    plan = columnHeads(row.closest('table'), row).map((head) =>
      VALUE_COLUMN.test(head) || labelKind(head) === 'phone' ? 'skip' : STATE_COLUMN.test(head) ? 'state' : COUNTRY_HEAD_RE.test(head.trim()) ? 'country' : 'read',
    );
    memo.columns.set(key, plan);
  }
  return plan;
}

const ISO_CODE_RE = /^[A-Z]{2}$/;

/** The country a table row's cells name; value columns are not read, a State/Province column's two-letter codes are not countries. */
function rowCountry(row: Element, memo: CountryMemo): CountryCode | null {
  let hit = memo.places.get(row);
  // An array is what a climb from a nested table's cell read here (levelPlaces): not this answer.
  if (!memo.places.has(row) || Array.isArray(hit)) {
    const plan = columnPlan(row, memo);
    // The country the row's Country column names is the row's: its other cells are not read (why: a
    // list view asks for every row, and reading each cell of each row was the scan's costliest step).
    let found: CountryCode | null | undefined = plan.includes('country') ? countryColumn(row, plan) : undefined;
    const read = (cell: Element, kind: ColumnPlan[number] | undefined) => {
      const value = wordsOf(cell, 60).trim();
      if (kind === 'state' && ISO_CODE_RE.test(value)) return;
      const country = countryOfValue(value);
      // Two different countries in one row settle nothing.
      if (country) found = found === undefined || found === country ? country : null;
    };
    // Stepping from cell to cell costs less than fetching the planned ones from row.cells (an
    // indexed read of a live collection is the dearer call: measured in Chromium on a 5,000-row list).
    if (!found) {
      let column = 0;
      for (let cell = row.firstElementChild; cell && found !== null; cell = cell.nextElementSibling, column++) if (plan[column] !== 'skip') read(cell, plan[column]);
    }
    hit = found ?? null;
    memo.places.set(row, hit);
  }
  return (hit as CountryCode | null | undefined) ?? null;
}

/** The first country a row's Country column names, if one does. */
function countryColumn(row: Element, plan: ColumnPlan): CountryCode | undefined {
  let column = 0;
  for (let cell = row.firstElementChild; cell; cell = cell.nextElementSibling, column++) {
    if (plan[column] !== 'country') continue;
    const country = countryOfValue(wordsOf(cell, 60).trim());
    if (country) return country;
  }
  return undefined;
}

// A place written right after an international number labels that number ("+1 646 555 0107 US (New
// York)", "+49 30 901820 Germany, Berlin" in a meeting's dial-in list): it says nothing about the rest.
const LABELS_INTERNATIONAL_RE = /\+\d[\d\s\u00A0().\-,#*]{5,}[\d#][^\d.!?\n]{0,30}$/u;

function labelsInternational(text: string, at: number): boolean {
  // Only the 70 characters before the place are read (lastIndexOf would search back to the start).
  const before = text.slice(Math.max(0, at - 70), at);
  return before.includes('+') && LABELS_INTERNATIONAL_RE.test(before);
}

/** Words of a Country field, in the languages the finder reads; after one, an ISO code names the country ("Country IN"). */
const COUNTRY_FIELD = '(?:[Cc]ountry|[Rr]egion|[Ll]and|[Pp]ays|[Pp]a[ií]s|[Pp]aese|[Nn]azione|[Kk]raj|[Pp]aństwo|[Üü]lke|[Ss]trana|国|国家|國家|国・地域|국가|الدولة|البلد|کشور|מדינה|देश)';
const COUNTRY_FIELD_RE = new RegExp(COUNTRY_FIELD, 'u');
/** A column header that is the country field's word and nothing else ("Land", not "Bundesland"). */
const COUNTRY_HEAD_RE = new RegExp(String.raw`^${COUNTRY_FIELD}\s*:?$`, 'iu');
const CODED_COUNTRY_RE = new RegExp(String.raw`(?<![\p{L}])${COUNTRY_FIELD}\s*:?\s+([A-Z]{2})(?![\p{L}])`, 'u');

/** The countries a text names: places, and an ISO code after a Country label ("Country IN"), which counts like the name. */
function namedIn(text: string, mentions: PlaceMention[] = placesIn(text)): CountryCode[] {
  const places = mentions.filter((p) => !labelsInternational(text, p.at));
  const coded = CODED_COUNTRY_RE.exec(text);
  const code = coded ? countryOfValue(coded[1]!) : undefined;
  return [...places.map((p) => p.country), ...(code ? [code] : [])];
}

/** The countries an ancestor's text names, each mention once; null past MAX_RECORD_TEXT. */
function levelPlaces(el: Element, memo: CountryMemo): readonly CountryCode[] | null {
  const hit = memo.places.get(el);
  if (hit === null || Array.isArray(hit)) return hit;
  const text = wordsOf(el, MAX_RECORD_TEXT);
  const found = text ? namedIn(text) : null;
  // A row's own answer (rowCountry) stays; the other rows of a nested table's cell read it again.
  if (hit === undefined) memo.places.set(el, found);
  return found;
}

/** `all` without one mention per entry of `taken`. */
function without(all: readonly CountryCode[], taken: readonly CountryCode[]): CountryCode[] {
  const rest = [...all];
  for (const c of taken) {
    const i = rest.indexOf(c);
    if (i >= 0) rest.splice(i, 1);
  }
  return rest;
}

export function pageCountry(container: Node, text: string, memo: CountryMemo): PageCountry {
  const own = placesIn(text);
  let around: CountryCode | null = null;
  let el = container.nodeType === ELEMENT_NODE ? (container as Element) : null;
  const row = el?.closest('tr');
  if (row) around = rowCountry(row, memo);
  // An ancestor's text holds the container's own: its places speak for the numbers by where they
  // stand (findInContext), so they are not the surroundings too ("…(562) 555-0127 … > our London
  // office" in one plain-text mail must not make the US number a UK one).
  const ownNamed = own.length > 0 || COUNTRY_FIELD_RE.test(text) ? namedIn(text, own) : [];
  for (let level = 0; !around && el && level < MAX_LEVELS; level++) {
    el = el.parentElement;
    // A row settled nothing: its table is never read as a record.
    if (!el || el === row || COLLECTIONS.test(el.localName)) break;
    const places = levelPlaces(el, memo);
    const found = places === null ? null : only(without(places, ownNamed));
    if (found === null) break;
    if (found) around = found;
  }
  return { own, around };
}

/** The countries findInContext reads a text for, each once: the surroundings' (else the default), then each place named in it. */
export function countriesInPlay(defaultCountry: CountryCode | undefined, context: PageCountry): (CountryCode | undefined)[] {
  const first = context.around ?? defaultCountry;
  // Most texts (a list's phone cell) name no place: one country, without a Set and two arrays per text.
  if (context.own.length === 0) return [first];
  return [...new Set<CountryCode | undefined>([first, ...context.own.map((p) => p.country)])];
}

/** What may stand between a number and a place that labels it: "030 1234567 (Deutschland)", not "… · New York". */
const AFTER_LABEL_RE = /^[\s(\-–—:]*$/;

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
  const countries = countriesInPlay(defaultCountry, context);
  // One country and no place in the text (a list's phone cell under its row's country): every
  // number's intended country is that one, so its run is the answer as it stands.
  if (countries.length === 1 && (countries[0] === defaultCountry || own.length === 0)) return find(text, countries[0]);
  // The place named last before the number, or right after it ("030 1234567 (Deutschland)").
  const intended = (m: FoundPhoneNumber): CountryCode | undefined => {
    let country: CountryCode | undefined;
    for (const p of own) {
      if (!near(p, m.start)) continue;
      if (p.at < m.start) country = p.country;
      else if (!country && p.at >= m.end && p.at - m.end <= 3 && AFTER_LABEL_RE.test(text.slice(m.end, p.at))) country = p.country;
    }
    return country ?? around ?? defaultCountry;
  };
  const code = (country: CountryCode | undefined) => (country ? `+${callingCodeOf(country)}` : '');
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
