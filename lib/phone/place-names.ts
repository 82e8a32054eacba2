/**
 * Country names, ISO codes and well-known cities in page text → ISO country, for reading
 * national-format numbers with the country the page gives them.
 *
 * No country table ships: names come at run time from `Intl.DisplayNames` (English for every
 * country libphonenumber knows, plus the country's own-language name for the countries below), and
 * only a short list of aliases and business cities is written here. The index is built on first use.
 */
import { getCountries, type CountryCode } from 'libphonenumber-js/min';

/** Countries whose own-language name pages use ("Deutschland", "México"…). */
const NATIVE = 'DE AT CH ES MX AR CO CL PE BR PT IT FR BE NL SE NO DK FI PL CZ TR JP CN KR GR HU RO';

// "Country code:name,name;…": aliases and cities (without diacritics, lowercase).
const PLACES =
  'GB:uk,u.k,england,scotland,wales,britain,great britain,london,manchester,birmingham,edinburgh,glasgow,leeds,bristol;' +
  'US:usa,u.s,u.s.a,america,new york,chicago,san francisco,los angeles,seattle,boston,austin,dallas,houston,atlanta,miami,denver;' +
  'CA:toronto,montreal,vancouver;DE:berlin,munich,munchen,hamburg,frankfurt;FR:paris,lyon;IT:milan,milano,rome,roma;' +
  'ES:madrid,barcelona;NL:amsterdam,rotterdam,holland;CH:zurich,geneva;SE:stockholm;PL:warsaw,warszawa;AT:vienna,wien;' +
  'IE:dublin;PT:lisbon,lisboa;BE:brussels;BR:sao paulo,rio de janeiro;MX:mexico city,ciudad de mexico,cdmx,monterrey,guadalajara;' +
  'CO:bogota;AR:buenos aires;JP:tokyo,osaka;CN:beijing,shanghai;IN:mumbai,bengaluru,bangalore,delhi,new delhi;' +
  'AU:sydney,melbourne;NZ:auckland;ZA:johannesburg,cape town;SG:singapore;KR:korea,seoul;AE:dubai';

/** Country names that are more often something else on a page (people, US states, words). */
const NOT_PLACES = new Set(['jordan', 'chad', 'georgia', 'jersey', 'guernsey', 'niger', 'man', 'turkey', 'guinea']);

let index: Map<string, CountryCode> | null = null;
let longest = 1;

function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function add(map: Map<string, CountryCode>, name: string | undefined, code: CountryCode): void {
  if (!name) return;
  const key = fold(name).replace(/[^\p{L}. ]+/gu, ' ').trim();
  if (!key || NOT_PLACES.has(key) || map.has(key)) return;
  map.set(key, code);
  longest = Math.max(longest, key.split(' ').length);
}

function places(): Map<string, CountryCode> {
  if (index) return index;
  const map = new Map<string, CountryCode>();
  const countries = new Set<string>(getCountries());
  try {
    const en = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of countries) add(map, en.of(code), code as CountryCode);
    for (const code of NATIVE.split(' ')) {
      const language = new Intl.Locale('und', { region: code }).maximize().language;
      add(map, new Intl.DisplayNames([language], { type: 'region' }).of(code), code as CountryCode);
    }
  } catch {
    // No Intl.DisplayNames: the aliases and cities below still work.
  }
  for (const group of PLACES.split(';')) {
    const [code, names] = group.split(':') as [CountryCode, string];
    if (countries.has(code)) for (const name of names.split(',')) add(map, name, code);
  }
  return (index = map);
}

export interface PlaceMention {
  /** Offset of the name in the text. */
  at: number;
  country: CountryCode;
}

const WORD_RE = /[\p{L}][\p{L}.]*/gu;

/** Places named in free text, in order ("the London desk", "Rio de Janeiro - RJ, Brasil"). */
export function placesIn(text: string): PlaceMention[] {
  const map = places();
  const words: { at: number; word: string }[] = [];
  const folded = fold(text);
  // fold() keeps offsets for precomposed Latin letters (NFD marks are removed again).
  WORD_RE.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = WORD_RE.exec(folded)); ) words.push({ at: m.index, word: m[0].replace(/\.$/, '') });
  const out: PlaceMention[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(longest, words.length - i); n >= 1; n--) {
      const key = words.slice(i, i + n).map((w) => w.word).join(' ');
      const country = map.get(key);
      if (country) {
        out.push({ at: words[i]!.at, country });
        i += n - 1;
        break;
      }
    }
  }
  return out;
}

/** The country a whole field value or table cell names: a place, or an upper-case ISO code ("MX"). */
export function countryOfValue(value: string): CountryCode | undefined {
  const text = value.trim();
  if (/^[A-Z]{2}$/.test(text) && places() && getCountries().includes(text as CountryCode)) return text as CountryCode;
  if (text.length > 40) return undefined;
  const found = placesIn(text);
  return found.length > 0 && found.every((p) => p.country === found[0]!.country) ? found[0]!.country : undefined;
}
