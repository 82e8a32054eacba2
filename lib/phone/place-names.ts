/**
 * Country names, ISO codes and well-known cities in page text → ISO country, for reading
 * national-format numbers with the country the page gives them.
 *
 * English names of every country libphonenumber knows are Intl.DisplayNames' own, folded (lower
 * case, no diacritics, no "&"): written out here because constructing an Intl.DisplayNames costs
 * ~13 ms per frame (ICU data), 1.8 KB gzipped costs nothing at run time. tests/unit/phone/
 * page-country.test.ts checks the list against Intl.DisplayNames. Then own-language names of common
 * countries, aliases and business cities. The index is built on first use (the content script's
 * warm-up, warmUpPlaces), in about a millisecond.
 *
 * Every country's name in the page's other languages comes from data: the background builds them
 * with Intl.DisplayNames (./region-names.ts) for the languages the page is written in and hands them
 * over with the frame's config; warmUpPlaces(names) adds them. Names in scripts written without
 * spaces (Japanese, Chinese) or with particles glued on (Korean) are found inside words too.
 */
import { isCountry, type CountryCode } from './countries';

const EN_NAMES =
  'ACascension island|ADandorra|AEunited arab emirates|AFafghanistan|AGantigua barbuda|AIanguilla|ALalbania|' +
  'AMarmenia|AOangola|ARargentina|ASamerican samoa|ATaustria|AUaustralia|AWaruba|AXaland islands|AZazerbaijan|' +
  'BAbosnia herzegovina|BBbarbados|BDbangladesh|BEbelgium|BFburkina faso|BGbulgaria|BHbahrain|BIburundi|BJbenin|' +
  'BLst. barthelemy|BMbermuda|BNbrunei|BObolivia|BQcaribbean netherlands|BRbrazil|BSbahamas|BTbhutan|BWbotswana|' +
  'BYbelarus|BZbelize|CAcanada|CCcocos keeling islands|CDcongo kinshasa|CFcentral african republic|' +
  'CGcongo brazzaville|CHswitzerland|CIcote d ivoire|CKcook islands|CLchile|CMcameroon|CNchina|COcolombia|' +
  'CRcosta rica|CUcuba|CVcape verde|CWcuracao|CXchristmas island|CYcyprus|CZczechia|DEgermany|DJdjibouti|' +
  'DKdenmark|DMdominica|DOdominican republic|DZalgeria|ECecuador|EEestonia|EGegypt|EHwestern sahara|EReritrea|' +
  'ESspain|ETethiopia|FIfinland|FJfiji|FKfalkland islands|FMmicronesia|FOfaroe islands|FRfrance|GAgabon|' +
  'GBunited kingdom|GDgrenada|GEgeorgia|GFfrench guiana|GGguernsey|GHghana|GIgibraltar|GLgreenland|GMgambia|' +
  'GNguinea|GPguadeloupe|GQequatorial guinea|GRgreece|GTguatemala|GUguam|GWguinea bissau|GYguyana|' +
  'HKhong kong sar china|HNhonduras|HRcroatia|HThaiti|HUhungary|IDindonesia|IEireland|ILisrael|IMisle of man|' +
  'INindia|IObritish indian ocean territory|IQiraq|IRiran|ISiceland|ITitaly|JEjersey|JMjamaica|JOjordan|JPjapan|' +
  'KEkenya|KGkyrgyzstan|KHcambodia|KIkiribati|KMcomoros|KNst. kitts nevis|KPnorth korea|KRsouth korea|KWkuwait|' +
  'KYcayman islands|KZkazakhstan|LAlaos|LBlebanon|LCst. lucia|LIliechtenstein|LKsri lanka|LRliberia|LSlesotho|' +
  'LTlithuania|LUluxembourg|LVlatvia|LYlibya|MAmorocco|MCmonaco|MDmoldova|MEmontenegro|MFst. martin|MGmadagascar|' +
  'MHmarshall islands|MKnorth macedonia|MLmali|MMmyanmar burma|MNmongolia|MOmacao sar china|' +
  'MPnorthern mariana islands|MQmartinique|MRmauritania|MSmontserrat|MTmalta|MUmauritius|MVmaldives|MWmalawi|' +
  'MXmexico|MYmalaysia|MZmozambique|NAnamibia|NCnew caledonia|NEniger|NFnorfolk island|NGnigeria|NInicaragua|' +
  'NLnetherlands|NOnorway|NPnepal|NRnauru|NUniue|NZnew zealand|OMoman|PApanama|PEperu|PFfrench polynesia|' +
  'PGpapua new guinea|PHphilippines|PKpakistan|PLpoland|PMst. pierre miquelon|PRpuerto rico|' +
  'PSpalestinian territories|PTportugal|PWpalau|PYparaguay|QAqatar|REreunion|ROromania|RSserbia|RUrussia|' +
  'RWrwanda|SAsaudi arabia|SBsolomon islands|SCseychelles|SDsudan|SEsweden|SGsingapore|SHst. helena|SIslovenia|' +
  'SJsvalbard jan mayen|SKslovakia|SLsierra leone|SMsan marino|SNsenegal|SOsomalia|SRsuriname|SSsouth sudan|' +
  'STsao tome principe|SVel salvador|SXsint maarten|SYsyria|SZeswatini|TAtristan da cunha|TCturks caicos islands|' +
  'TDchad|TGtogo|THthailand|TJtajikistan|TKtokelau|TLtimor leste|TMturkmenistan|TNtunisia|TOtonga|TRturkiye|' +
  'TTtrinidad tobago|TVtuvalu|TWtaiwan|TZtanzania|UAukraine|UGuganda|USunited states|UYuruguay|UZuzbekistan|' +
  'VAvatican city|VCst. vincent grenadines|VEvenezuela|VGbritish virgin islands|VIu.s. virgin islands|VNvietnam|' +
  'VUvanuatu|WFwallis futuna|WSsamoa|XKkosovo|YEyemen|YTmayotte|ZAsouth africa|ZMzambia|ZWzimbabwe';

// "Country code:name,name;…": own-language names, aliases and cities (without diacritics, lowercase).
const PLACES =
  'DE:deutschland;AT:osterreich;CH:schweiz,suisse,svizzera;ES:espana;MX:mexico;PE:peru;BR:brasil;IT:italia;BE:belgie,belgique;' +
  'NL:nederland;SE:sverige;NO:norge;DK:danmark;FI:suomi;PL:polska;CZ:cesko;GR:ellada;HU:magyarorszag;RO:romania;JP:日本;CN:中国;KR:대한민국;' +
  'GB:uk,u.k,england,scotland,wales,britain,great britain,london,manchester,birmingham,edinburgh,glasgow,leeds,bristol;' +
  'US:usa,u.s,u.s.a,america,new york,chicago,san francisco,los angeles,seattle,boston,austin,dallas,houston,atlanta,miami,denver;' +
  'CA:toronto,montreal,vancouver;DE:berlin,munich,munchen,hamburg,frankfurt;FR:paris,lyon;IT:milan,milano,rome,roma;' +
  'ES:madrid,barcelona;NL:amsterdam,rotterdam,holland;CH:zurich,geneva;SE:stockholm;PL:warsaw,warszawa;AT:vienna,wien;' +
  'IE:dublin;PT:lisbon,lisboa;BE:brussels;BR:sao paulo,rio de janeiro;MX:mexico city,ciudad de mexico,cdmx,monterrey,guadalajara;' +
  'CO:bogota;AR:buenos aires;JP:tokyo,osaka;CN:beijing,shanghai;IN:mumbai,bengaluru,bangalore,delhi,new delhi;' +
  'AU:sydney,melbourne;NZ:auckland;ZA:johannesburg,cape town;SG:singapore;KR:korea,seoul;AE:dubai;' +
  // The next tier of business cities, and cities in their own language. Left out: names more often
  // a person, a word or another place (Nice, Essen, Zug, Lima, Salvador, Santiago, Valencia, Perth…).
  'DE:koln,cologne,dusseldorf,stuttgart,leipzig,dresden,hannover,nurnberg,nuremberg,bremen,dortmund,bonn,mannheim,karlsruhe;' +
  'AT:graz,linz,salzburg,innsbruck;CH:geneve,genf,ginevra,lausanne,basel,bern,berne,lugano,zurich;' +
  'FR:marseille,toulouse,nantes,strasbourg,bordeaux,lille,montpellier,rennes,grenoble;' +
  'IT:napoli,naples,torino,turin,firenze,bologna,genova,venezia,venice,palermo;ES:sevilla,seville,bilbao,malaga,zaragoza;PT:porto;' +
  'NL:utrecht,eindhoven,den haag,the hague;BE:bruxelles,brussel,antwerpen,antwerp,anvers,ghent,liege,luik;' +
  'SE:goteborg,gothenburg,malmo,uppsala;NO:oslo;DK:copenhagen,kobenhavn,aarhus;FI:helsinki,espoo,tampere;' +
  'PL:krakow,cracow,wroclaw,gdansk,poznan,lodz,katowice;CZ:prague,praha,brno;HU:budapest;RO:bucharest,bucuresti;GR:athina,thessaloniki;' +
  'IE:cork,galway;GB:liverpool,newcastle,sheffield,nottingham,cardiff,belfast;TR:istanbul,ankara,izmir;IL:tel aviv,jerusalem,haifa;' +
  'AE:abu dhabi,sharjah;SA:riyadh,jeddah;QA:doha;EG:cairo;NG:lagos,abuja;KE:nairobi;MA:casablanca,rabat;ZA:durban,pretoria;' +
  'IN:chennai,madras,kolkata,calcutta,pune,ahmedabad,gurgaon,gurugram,noida,jaipur,kochi,chandigarh,bombay;PK:karachi,lahore,islamabad;' +
  'BD:dhaka;LK:colombo;CN:shenzhen,guangzhou,hangzhou,chengdu,nanjing,wuhan,tianjin,suzhou;HK:hong kong;TW:taipei;' +
  'JP:yokohama,nagoya,kyoto,fukuoka,sapporo,sendai,hiroshima;KR:busan,incheon,daegu;PH:manila,makati,cebu;ID:jakarta,surabaya;' +
  'TH:bangkok;MY:kuala lumpur;VN:hanoi,ho chi minh city,saigon;AU:brisbane,canberra,gold coast;NZ:wellington,christchurch;' +
  'CA:calgary,ottawa,edmonton,winnipeg,quebec,mississauga;MX:puebla,tijuana,queretaro;' +
  'BR:belo horizonte,brasilia,curitiba,porto alegre,recife,fortaleza,campinas,manaus,florianopolis;AR:rosario,mendoza;' +
  'CO:medellin,cali,barranquilla;CL:santiago de chile;VE:caracas;UY:montevideo;EC:quito,guayaquil;RU:moscow,moskva;UA:kyiv,kiev;' +
  'US:philadelphia,san diego,detroit,minneapolis,portland,las vegas,nashville,pittsburgh,baltimore,salt lake city,new orleans,honolulu';

/** Country names that are more often something else on a page (people, US states, words). */
const NOT_PLACES = new Set(['jordan', 'chad', 'georgia', 'jersey', 'guernsey', 'niger', 'man', 'turkey', 'guinea', 'mali', 'togo', 'oman', 'مالي', 'عمان', 'cad', 'gana', 'fas']);

let index: Map<string, CountryCode> | null = null;
/** First word of a name → the most words a name starting with it has. */
const firstWords = new Map<string, number>();

const LATIN_WITH_MARKS_RE = /[\u00C0-\u024F\u1E00-\u1EFF]/g;

/** Lower case, Latin letters without their diacritics ("İstanbul", "México"); the length never changes, so offsets hold. */
function fold(s: string): string {
  // Most page text is ASCII: no Unicode normalisation needed. Other scripts keep their marks
  // (Devanagari's vowel signs are part of the word).
  return (/[^\x00-\x7f]/.test(s) ? s.replace(LATIN_WITH_MARKS_RE, (c) => c.normalize('NFD')[0]!) : s).toLowerCase();
}

function add(map: Map<string, CountryCode>, name: string | undefined, code: CountryCode): void {
  if (!name) return;
  const key = fold(name).replace(/[^\p{L}\p{M}. ]+/gu, ' ').replace(/ +/g, ' ').trim();
  if (!key || NOT_PLACES.has(key) || map.has(key)) return;
  map.set(key, code);
  if (UNSPACED_RE.test(key)) unspaced.set(key, code);
  const words = key.split(' ');
  firstWords.set(words[0]!, Math.max(firstWords.get(words[0]!) ?? 0, words.length));
}

function places(): Map<string, CountryCode> {
  if (index) return index;
  const map = new Map<string, CountryCode>();
  for (const entry of EN_NAMES.split('|')) if (isCountry(entry.slice(0, 2))) add(map, entry.slice(2), entry.slice(0, 2) as CountryCode);
  for (const group of PLACES.split(';')) {
    const [code, names] = group.split(':') as [CountryCode, string];
    if (isCountry(code)) for (const name of names.split(',')) add(map, name, code);
  }
  return (index = map);
}

/** Names in Japanese, Chinese or Korean: found inside longer words ("中国上海市", "대한민국의"). */
const UNSPACED_RE = /[\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF]/;
const unspaced = new Map<string, CountryCode>();

/**
 * Adds country names the background built from data ("CCname|CCname|…", ./region-names.ts) for the
 * page's languages. Names of other languages that are also common words stay out (NOT_PLACES).
 */
export function addPlaceNames(names: string): void {
  const map = places();
  for (const entry of names.split('|')) {
    const code = entry.slice(0, 2);
    if (isCountry(code)) add(map, entry.slice(2), code);
  }
  unspacedSizes = null;
  valueCountries.clear();
}

/** The lengths unspaced names come in, longest first (a name is looked up at each position by length, not by one big alternation). */
function unspacedLengths(): number[] {
  if (!unspacedSizes) unspacedSizes = [...new Set([...unspaced.keys()].map((k) => k.length).filter((n) => n >= 2))].sort((a, b) => b - a);
  return unspacedSizes;
}
let unspacedSizes: number[] | null = null;

/** Unspaced names inside `folded`, at each position the longest that starts there. */
function unspacedIn(folded: string, out: PlaceMention[]): void {
  const lengths = unspacedLengths();
  for (let i = 0; i < folded.length; i++) {
    if (!UNSPACED_RE.test(folded[i]!)) continue;
    // Korean writes words apart: a name starts its word there.
    if (HANGUL_RE.test(folded[i]!) && HANGUL_RE.test(folded[i - 1] ?? '')) continue;
    for (const n of lengths) {
      const country = unspaced.get(folded.slice(i, i + n));
      if (country) {
        out.push({ at: i, country });
        i += n - 1;
        break;
      }
    }
  }
}
const HANGUL_RE = /[\uAC00-\uD7AF]/;

export interface PlaceMention {
  /** Offset of the name in the text. */
  at: number;
  country: CountryCode;
}

const WORD_RE = /[\p{L}][\p{L}\p{M}.]*/gu;

/** `EN_NAMES` as the index reads it, for the test that checks it against Intl.DisplayNames. */
export const ENGLISH_NAMES: readonly string[] = EN_NAMES.split('|');

const HAS_LETTER_RE = /\p{L}/u;

/** Builds the index, as a step of its own before the scan (lib/page/click-to-call.ts), with the names the config brought. */
export function warmUpPlaces(names?: string): void {
  places();
  if (names) addPlaceNames(names);
}

/** Places named in free text, in order ("the London desk", "Rio de Janeiro - RJ, Brasil"). */
export function placesIn(text: string): PlaceMention[] {
  const map = places(); // built on the first call (the finder's warm-up makes that call)
  // Every place name has a letter: a phone cell's "(415) 555-0132" names none.
  if (!HAS_LETTER_RE.test(text)) return [];
  const words: { at: number; word: string }[] = [];
  const folded = fold(text);
  // fold() keeps offsets for precomposed Latin letters (NFD marks are removed again).
  WORD_RE.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = WORD_RE.exec(folded)); ) words.push({ at: m.index, word: m[0].replace(/\.$/, '') });
  const out: PlaceMention[] = [];
  const inside = unspaced.size > 0 && UNSPACED_RE.test(folded);
  if (inside) unspacedIn(folded, out);
  for (let i = 0; i < words.length; i++) {
    const most = firstWords.get(words[i]!.word);
    if (!most) continue;
    for (let n = Math.min(most, words.length - i); n >= 1; n--) {
      const key = words.slice(i, i + n).map((w) => w.word).join(' ');
      const country = map.get(key);
      if (country) {
        if (!unspaced.has(key)) out.push({ at: words[i]!.at, country });
        i += n - 1;
        break;
      }
    }
  }
  return inside ? out.sort((a, b) => a.at - b.at) : out;
}

/** The country a whole field value or table cell names: a place, or an upper-case ISO code ("MX"). */
export function countryOfValue(value: string): CountryCode | undefined {
  const text = value.trim();
  if (/^[A-Z]{2}$/.test(text) && places() && isCountry(text)) return text;
  if (text.length > 40 || !/\p{L}/u.test(text)) return undefined;
  // A list view repeats its values (owners, stages, cities) row after row: each is read once.
  const hit = valueCountries.get(text);
  if (hit !== undefined) return hit || undefined;
  const found = placesIn(text);
  const country = found.length > 0 && found.every((p) => p.country === found[0]!.country) ? found[0]!.country : undefined;
  if (valueCountries.size >= MAX_VALUES) valueCountries.clear();
  valueCountries.set(text, country ?? '');
  return country;
}

/** countryOfValue's answers by value ('' for none), at most MAX_VALUES (then started afresh). */
const valueCountries = new Map<string, CountryCode | ''>();
const MAX_VALUES = 4096;
