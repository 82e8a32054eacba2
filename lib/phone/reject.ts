/**
 * The rejection layer: string-only rules that veto a candidate libphonenumber-js accepted as a
 * VALID number but that is, in context, something else (a date, a price, an order number…).
 *
 * Pure and cheap: the rules run only on candidates (a few per page), never on every text node.
 * Every rule returns a short reason code so tests and debugging can say *why* a span was vetoed.
 */

export type RejectReason =
  | 'glued' // digits glued to letters, digits or path/url punctuation: report_20240501.pdf, INV-4155550132
  | 'email' // local part of an e-mail address
  | 'hash-id' // "#4155550132" with no phone keyword before
  | 'keyword' // a non-phone keyword right before: "Order #", "Invoice", "Tracking", "Case", "ID", "Ref"…
  | 'label' // the field's label (table header, <dt>, form label) names a non-phone field
  | 'price' // currency symbol or code next to it
  | 'percent'
  | 'unit' // "1 234 567 views", "… km"
  | 'date'
  | 'year-range'
  | 'timestamp' // unix epoch seconds / milliseconds written bare
  | 'ip'
  | 'zip'
  | 'ssn'
  | 'card' // payment-card-like: 4-4-4-4 groups or a Luhn-valid 13–19 digit run
  | 'grouped-id' // three or more 4-digit groups: IBAN tails, tracking numbers
  | 'long-sequence' // part of a digit sequence too long to be one phone number
  | 'isbn'
  | 'version'
  | 'decimal' // 1234567.89, 12.345.678, 2 125 550 143, -122.4194
  | 'too-short' // fewer than 7 digits: postcodes, page ranges, short codes
  | 'bare' // a bare digit run ("5804633393") with no phone context: an ID, a total, an order number
  | 'grouping'; // read as a NANP number but grouped as another country writes its own: "(31) 3234-5679", "33 1234 5680"

// Letters (any script), digits and underscore: a phone number never touches these directly.
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const DIGIT = /\d/;
const SPACE = /\s/;

/**
 * Words that, right before a number (or in its field label), say "this is a phone number": English,
 * then German, French, Spanish, Portuguese, Italian, Dutch, Polish, Swedish, Turkish, Russian, Arabic,
 * Persian, Hebrew and Hindi (words between letter boundaries; marks count as letters, for Devanagari).
 */
const POSITIVE_WORDS = String.raw`phone|phones|telephone|tel|tele|ph|mobile|mob|cell|cellphone|cellular|fax|call|calls|dial|direct|dd|office|main|work|home|whatsapp|sms|text|hotline|helpline|switchboard|reception|contact|landline|voice|caller|` +
  String.raw`telefon|telefonnummer|telefonnr|rufnummer|durchwahl|festnetz|mobiltelefon|mobilnummer|mobilfunk|handy|handynummer|mobil|zentrale|einwahl|einwahlnummer|anruf|anrufen|telefax|` +
  String.raw`tél|téléphone|portable|fixe|standard|appelez|appeler|` +
  String.raw`teléfono|telefono|tfno|tlf|móvil|movil|celular|fijo|llame|llamar|centralita|` +
  String.raw`telefone|telemóvel|telemovel|fone|ligue|` +
  String.raw`cellulare|cell|fisso|chiama|chiamare|centralino|` +
  String.raw`telefoon|telefoonnummer|mobiel|mobiele|bel|bellen|` +
  String.raw`komórka|komórkowy|komorkowy|kom|zadzwoń|` +
  String.raw`mobilnr|telefonnr|växel|vaxel|ring|` +
  String.raw`telefonu|gsm|sabit|` +
  String.raw`телефон|тел|моб|мобильный|факс|` +
  String.raw`هاتف|الهاتف|جوال|الجوال|موبايل|الموبايل|تلفون|تليفون|التليفون|فاكس|الفاكس|محمول|المحمول|نقال|اتصل|` +
  String.raw`تلفن|موبایل|همراه|فکس|` +
  String.raw`טלפון|טל|נייד|פקס|סלולרי|` +
  String.raw`फ़ोन|फोन|मोबाइल|दूरभाष|टेलीफ़ोन|टेलीफोन|फ़ैक्स|फैक्स`;
/** The same in scripts written without spaces between words (Japanese, Chinese) or with particles glued on (Korean): no boundaries. */
const POSITIVE_CJK = String.raw`電話|电话|手机|手機|携帯|ケータイ|座机|座機|传真|傳真|热线|熱線|ファックス|ファクス|フリーダイヤル|フリーコール|代表番号|連絡先|联系方式|전화|휴대폰|핸드폰|휴대전화|연락처|팩스|대표번호`;
const POSITIVE_RE = new RegExp(String.raw`(?<![\p{L}\p{M}])(?:${POSITIVE_WORDS})(?![\p{L}\p{M}])|${POSITIVE_CJK}`, 'iu');
/** Short labels such as "M:", "T.", "F:", "P:", "O:" used in signatures. */
const POSITIVE_LETTER_RE = /(?:^|[^\p{L}])[mtfpodwhc]\s*[:.]\s*$/iu;

/**
 * Words that, right before a number, say "this is an identifier, not a phone number".
 * Kept to words that rarely end a phrase leading into a phone number ("Acme Inc" is not here).
 */
const NEGATIVE_WORDS = String.raw`order|orders|invoice|inv|ticket|tkt|tracking|track|trk|case|id|ids|ref|reference|po|p\.o|purchase\s+order|acct|account|a/c|customer|cust|member|membership|policy|claim|serial|s/n|sn|sku|upc|steuernummer|steuer-?nr|ean|gtin|asin|isbn|issn|iban|swift|bic|routing|aba|sort\s+code|ssn|social\s+security|ein|tin|vat|tax|license|licence|passport|patient|mrn|record|employee|emp|student|batch|lot|job|project|quote|quotation|estimate|contract|agreement|opportunity|opp|deal|version|ver|v|build|release|rev|revision|patent|docket|folio|pin|otp|zip|zipcode|postal|postcode|card|visa|mastercard|amex|report|parcel|package|shipment|consignment|awb|waybill|request|req|incident|issue|bug|rma|registration|plate|vin|imei|iccid|meid|asset|commit|booking|reservation|confirmation|conf|transaction|txn|payment|receipt|loan|mortgage|cheque|voucher|coupon|promo|amount|total|subtotal|price|cost|balance|revenue|budget|salary|qty|quantity`;
const FILLER = String.raw`(?:\s*(?:(?:number|num|no|nr|code)(?![\p{L}])\.?|n[º°]|#|id(?![\p{L}])))*`;
const NEGATIVE_BEFORE_RE = new RegExp(
  String.raw`(?:^|[^\p{L}\p{N}])(${NEGATIVE_WORDS})(?![\p{L}])${FILLER}\s*[:#=\-–—.]?\s*[:#]?\s*$`,
  'iu',
);
/**
 * Names of identifiers that are never phone numbers, in the languages above: company, tax and VAT
 * ids, registers, postal codes, bank accounts, meeting ids, PINs and passcodes. Unlike NEGATIVE_WORDS
 * they may stand a few words before the number ("RCS de Paris sous le numéro 362 521 879", "N° TVA
 * intracommunautaire : FR 40 …", "Participant PIN (India audio bridge): …").
 */
const ID_WORDS = String.raw`steuernummer|steuer-?nr|st\.?-?nr|ust|ustg|ust-?id|ust-?idnr|umsatzsteuer[\p{L}-]*|identifikationsnummer|wirtschafts-?idnr|handelsregister|registergericht|amtsgericht|hrb|hra|kundennummer|kundennr|kd-?nr|rechnungsnummer|rechnungsnr|bestellnummer|bestellnr|auftragsnummer|auftragsnr|vertragsnummer|kontonummer|konto|blz|bankleitzahl|plz|postleitzahl|postfach|artikelnummer|aktenzeichen|sendungsnummer|vorgangsnummer|ticketnummer|seriennummer|mitgliedsnummer|versicherungsnummer|personalnummer|besprechungs-?id|konferenz-?id|telefonkonferenz-?id|kenncode|kennung|einwahlcode|zugangscode|passwort|kennwort|` +
  String.raw`siret|siren|rcs|tva|intracommunautaire|ape|naf|rib|facture|commande|devis|dossier|code\s+postal|cedex|accès|acces|réunion|conférence|mot\s+de\s+passe|identifiant|` +
  String.raw`nif|cif|nie|dni|registro\s+mercantil|tomo|folio|hoja|factura|pedido|presupuesto|código\s+postal|codigo\s+postal|cuenta|expediente|reunión|código\s+de\s+acceso|` +
  String.raw`cnpj|cpf|inscrição|inscricao|cep|nota\s+fiscal|fatura|agência|reunião|senha|código\s+de\s+acesso|` +
  String.raw`partita\s+iva|p\.?\s?iva|codice\s+fiscale|rea|cap|fattura|ordine|riunione|` +
  String.raw`kvk|kvk-nummer|btw|btw-nummer|btw-id|vestigingsnummer|factuur|factuurnummer|klantnummer|rekeningnummer|postcode|vergadering|` +
  String.raw`nip|regon|krs|pesel|zamówienie|kod\s+pocztowy|organisationsnummer|org\.?\s?nr|orgnr|momsnr|momsregistreringsnummer|personnummer|postnummer|fakturanummer|ordernummer|vergi|mersis|kimlik|sipariş|posta\s+kodu|` +
  String.raw`gstin|gst|pan|abn|acn|duns|eori|company\s+(?:number|no|registration)|registration|registered|meeting|passcode|password|access\s+code|participant\s+code|conference\s+(?:id|code)|pin|iban|bic|swift|vat|` +
  String.raw`السجل|سجل|الضريبي|ضريبي|الضريبية|الرخصة|رخصة|الرمز|البريدي|البطاقة|آيبان|الآيبان|پستی|شناسه|اقتصادی|ח\.?פ|ע\.?מ|מיקוד|עוסק|ת\.?ז|חשבון|पिन|पिनकोड|जीएसटी|जीएसटीआईएन|पैन|खाता`;
const ID_CJK = String.raw`法人番号|登録番号|会社法人等番号|郵便番号|〒|口座|普通預金|当座預金|普通|当座|会員番号|注文番号|顧客番号|請求書番号|伝票番号|会議\s?ID|ミーティング\s?ID|パスコード|パスワード|暗証番号|社会信用代码|信用代码|税号|纳税人识别号|组织机构代码|营业执照|邮编|邮政编码|账号|帐号|订单号|订单编号|发票号|会议号|会议ID|密码|사업자등록번호|법인등록번호|우편번호|계좌|주문번호|회의\s?ID|암호|비밀번호`;
const ID_RE = new RegExp(String.raw`(?<![\p{L}\p{M}])(?:${ID_WORDS})(?![\p{L}\p{M}])|${ID_CJK}`, 'iu');

/** In a field label, any of these words marks a non-phone field (when no phone word is present). */
const NEGATIVE_LABEL_RE = new RegExp(
  String.raw`(?<![\p{L}])(?:${NEGATIVE_WORDS}|date|time|created|modified|updated|due|closed|size|count|score|rating|year|duration|employees|quantity|number\s+of)(?![\p{L}])`,
  'iu',
);

const CURRENCY_SYMBOL = /[$¢£¤¥֏؋৲৳৻૱௹฿៛₠-₿﷼﹩＄￠￡￥￦]/u;
const CURRENCY_CODE = String.raw`usd|eur|gbp|jpy|inr|aud|cad|chf|brl|cny|rmb|hkd|sgd|nzd|sek|nok|dkk|pln|czk|huf|zar|mxn|rub|try|krw|rs|kr|zł|r\$|a\$|c\$|us\$|nz\$|hk\$`;
const CURRENCY_BEFORE_RE = new RegExp(
  String.raw`(?:${CURRENCY_SYMBOL.source}|(?<![\p{L}])(?:${CURRENCY_CODE})\.?)\s*$`,
  'iu',
);
const CURRENCY_AFTER_RE = new RegExp(
  String.raw`^\s*(?:${CURRENCY_SYMBOL.source}|(?:${CURRENCY_CODE})(?![\p{L}]))`,
  'iu',
);
const PERCENT_AFTER_RE = /^\s*(?:%|‰|percent\b|per\s+cent\b|pct\b)/iu;
const UNIT_AFTER_RE =
  /^\s*(?:views|visitors|users|downloads|followers|subscribers|likes|votes|people|records|rows|results|items|units|pcs|bytes|kb|mb|gb|tb|km|kg|mi|miles|lbs|sq\s*ft|m²|ft²)(?![\p{L}])/iu;

/** Context that a rule can look at. `text` is the whole text the candidate was found in. */
export interface Candidate {
  text: string;
  start: number;
  /** End of the candidate including any extension. */
  end: number;
  /** The extension digits, if libphonenumber found one. */
  ext?: string;
  /** The country calling code the number was read with ("1": NANP), when the caller knows it. */
  callingCode?: string;
  /**
   * Text of the field's label (table column header, <dt>, form label), when the caller knows it; a
   * function when finding it costs (the DOM scanner): asked only for a candidate that needs it.
   */
  label?: FieldLabel;
}

export type FieldLabel = string | (() => string | undefined);

function labelText(label: FieldLabel | undefined): string | undefined {
  return typeof label === 'function' ? label() : label;
}

// Digits only: no "+", no separator, no bracket. Pages write phone numbers with a "+" or grouped;
// a bare run is an order, invoice, account or tracking number, a total, an id… unless the page
// says phone around it.
const BARE_DIGITS_RE = /^[0-9\uFF10-\uFF19]+$/;

/**
 * The look-alike rule, in one place: a bare digit run is a phone number only with phone context —
 * a phone word right before it ("Tel:", "Mobile", "M:", "call me at"), a phone field label (column
 * header, <dt>, form label, an input of type tel), or a tel: link (reported from the href).
 * Lists that a phone word opens ("Phone: 4155550123, 4155550124") are carried on by find.ts.
 */
function bareWithoutPhoneContext(core: string, positive: boolean, label: FieldLabel | undefined): boolean {
  if (positive || !BARE_DIGITS_RE.test(core)) return false;
  const text = labelText(label);
  return !text || labelKind(text) !== 'phone';
}

const TRAILING_FILLERS_RE = /(?:[\s:#.\-–—=()'׳\u060C]|(?<![\p{L}])(?:number|num|no|nr|nummer|numéro|número|numero|numer|n[º°]|番号|번호|رقم)(?![\p{L}]))*$/iu;

/** Up to `max` characters before `start`, without a word cut in half at the window's start. */
function textBefore(text: string, start: number, max: number): string {
  const from = Math.max(0, start - max);
  const before = text.slice(from, start);
  return from > 0 && /[\p{L}\p{N}]/u.test(text[from - 1]!) ? before.replace(/^[\p{L}\p{N}]+/u, '') : before;
}

const PRONOUN_OR_PREPOSITION_RE = /^(?:me|us|him|her|them|at|on|to)$/i;

/** True when the last words before `start` name a phone field ("Phone:", "Tel. no.", "M:"). */
export function hasPositiveContextBefore(text: string, start: number): boolean {
  // Words before another number belong to that number ("Fax (503) 555-0101 Account Number …").
  const before = textBefore(text, start, 32).replace(/^[^]*\d/u, '');
  if (POSITIVE_LETTER_RE.test(before)) return true;
  const stripped = before.replace(TRAILING_FILLERS_RE, '');
  if (ID_HEAD_RE.test(stripped)) return false; // "Contact ID:"
  const words = stripped.split(/[^\p{L}\p{M}]+/u).filter((w) => w.length > 0);
  // "call me at", "text us on": the phone word sits before the pronoun and the preposition.
  while (words.length > 1 && PRONOUN_OR_PREPOSITION_RE.test(words[words.length - 1]!)) words.pop();
  return words.slice(-2).some((w) => POSITIVE_RE.test(w));
}

const POSITIVE_LETTER_ANYWHERE_RE = /(?:^|[^\p{L}])[mtfpodwhc]\s*[:.]/iu;

/**
 * Could hasPositiveContextBefore be true anywhere in `text`? False when the text has no phone word
 * and no one-letter phone label at all: then a non-phone field label vetoes every number in it, and
 * the scanner need not look for any (a report's ID, date and amount columns).
 */
export function mayHavePositiveContext(text: string): boolean {
  return POSITIVE_RE.test(text) || POSITIVE_LETTER_ANYWHERE_RE.test(text);
}

/** The candidate with any extension (and the punctuation leading into it) cut off. */
export function coreOf(raw: string, ext?: string): string {
  if (!ext) return raw;
  const at = raw.lastIndexOf(ext);
  if (at <= 0) return raw;
  return raw.slice(0, at).replace(/[^\d)]+$/u, '');
}

function digitsOf(s: string): string {
  return s.replace(/\D+/g, '');
}

function isLuhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function isIsbn13(digits: string): boolean {
  if (digits.length !== 13 || !/^97[89]/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += (digits.charCodeAt(i) - 48) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

function isIsbn10(digits: string): boolean {
  if (digits.length !== 10) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (digits.charCodeAt(i) - 48) * (10 - i);
  return sum % 11 === 0;
}

function isPlausibleDate(a: number, b: number): boolean {
  // Either day-month or month-day order.
  return (a >= 1 && a <= 31 && b >= 1 && b <= 12) || (a >= 1 && a <= 12 && b >= 1 && b <= 31);
}

function looksLikeDate(core: string): boolean {
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(core);
  if (m) {
    const y = Number(m[1]);
    return y >= 1900 && y <= 2100 && isPlausibleDate(Number(m[3]), Number(m[2]));
  }
  m = /^(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{2}|\d{4})$/.exec(core);
  if (m && (core.includes('/') || core.includes('.') || core.includes('-'))) {
    return isPlausibleDate(Number(m[1]), Number(m[2]));
  }
  // Compact yyyymmdd.
  m = /^((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.exec(core);
  return m !== null;
}

/**
 * A text that is one date and nothing else (a cell of a date column: "27.06.2019", "2024-05-01",
 * "06/27/24"): the finder's one candidate in it would be the date, rejected here ('date'), so the page
 * need not ask (on a list with a date column, half the texts it would send).
 */
export function isOnlyDate(text: string): boolean {
  const t = text.trim();
  return t.length >= 6 && t.length <= 10 && looksLikeDate(t);
}

/**
 * The run of digits and single separators (space, hyphen, dot) around the candidate, as written.
 * A card number or an IBAN tail is one such run; a phone number is (usually) the whole run.
 */
function phraseAround(text: string, start: number, end: number): { phrase: string; pStart: number; pEnd: number } {
  let s = start;
  while (s > 0) {
    const c = text[s - 1]!;
    if (DIGIT.test(c)) s--;
    else if ((c === ' ' || c === '-' || c === '.' || c === '\u00A0') && s > 1 && DIGIT.test(text[s - 2]!)) s--;
    else break;
  }
  let e = end;
  while (e < text.length) {
    const c = text[e]!;
    if (DIGIT.test(c)) e++;
    else if ((c === ' ' || c === '-' || c === '.' || c === '\u00A0') && e + 1 < text.length && DIGIT.test(text[e + 1]!)) e++;
    else break;
  }
  return { phrase: text.slice(s, e), pStart: s, pEnd: e };
}

/** A number written with a "+", brackets or separators between its digits: never an amount's digit group. */
const FORMATTED_RE = /^\+|[()\s\-\u2010-\u2015]/;
/** Dotted groups the way phones are written (646.555.0186, 01.42.68.53.00), not thousands (12.345.678). */
const isPhoneFormatted = (raw: string) => FORMATTED_RE.test(raw) || (/^\d{2,4}(?:\.\d{2,4}){2,}$/.test(raw) && !/^\d{1,3}(?:\.\d{3})+$/.test(raw));

function checkGlue(text: string, start: number, end: number, raw: string): RejectReason | null {
  const prev = start > 0 ? text[start - 1]! : '';
  const prev2 = start > 1 ? text[start - 2]! : '';
  if (prev && WORD_CHAR.test(prev)) return 'glued';
  if (prev && prev2 && !SPACE.test(prev2)) {
    // Paths, URLs, query strings, file names, INV-123…, 12:4155550132, 1,234,…
    // A log's or config's value written with its "+" (to=+14155550132) is a number; bare digits after "=" are an id.
    if ('/\\=&?@_~^|'.includes(prev) && !(prev === '=' && raw.startsWith('+'))) return 'glued';
    if ((prev === '-' || prev === '–') && WORD_CHAR.test(prev2)) return 'glued';
    if ((prev === '.' || prev === ':') && DIGIT.test(prev2)) return 'glued';
    // "1,234,…" is an amount; "…,37,(415) 555-0132" and ",+14155550132" are a CSV's fields: a number
    // written with a "+" or phone punctuation is no thousands group.
    if (prev === ',' && DIGIT.test(prev2) && !isPhoneFormatted(raw)) return 'glued';
  }
  const next = end < text.length ? text[end]! : '';
  const next2 = end + 1 < text.length ? text[end + 1]! : '';
  if (next && WORD_CHAR.test(next) && !raw.endsWith('#')) return 'glued';
  if (next === '@') return 'email';
  if (next && next2 && WORD_CHAR.test(next2)) {
    if ('/\\_=&?'.includes(next)) return 'glued';
    if ((next === '.' || next === ':' || next === '-') && /[\p{L}\p{N}]/u.test(next2)) {
      // "415-555-0132.Thanks" is rare; "4155550132.pdf", "10.0.1.4155", "12:30" are common.
      return 'glued';
    }
    if (next === ',' && DIGIT.test(next2) && !isPhoneFormatted(raw)) {
      // Thousands or decimal separator (",234", ",00"); a comma-separated list of phone numbers
      // continues with a longer run or a phone separator.
      const run = /^\d+/.exec(text.slice(end + 1))![0];
      const after = text[end + 1 + run.length] ?? '';
      if (run.length <= 3 && !/[-.(\s]/.test(after)) return 'glued';
    }
  }
  return null;
}

function checkShape(core: string, text: string, start: number, end: number): RejectReason | null {
  const digits = digitsOf(core);
  const hasPlus = core.startsWith('+') || core.startsWith('(+');
  if (digits.length < 7) return 'too-short';

  if (/^(?:19|20)\d{2}\s*[-–/]\s*(?:19|20)\d{2}$/.test(core)) return 'year-range';
  if (!hasPlus && looksLikeDate(core)) return 'date';
  if (/^\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?$/.test(core)) return 'ip';
  if (/^\d{3}[- ]\d{2}[- ]\d{4}$/.test(core)) return 'ssn';
  // ZIP+4, and Brazil's CEP ("30130-005"), which a page that names Brazil would read as a number there.
  if (/^\d{5}-\d{3}(?:\d)?$/.test(core)) return 'zip';
  if (!hasPlus && /^\d+[.,]\d{1,2}$/.test(core)) return 'decimal';
  // Coordinates and measurements: "-122.4194", "37.77493".
  if (!hasPlus && /^\d{1,3}\.\d{4,7}$/.test(core)) return 'decimal';
  if (!hasPlus && /^\d{1,3}(?:\.\d{3}){2,}(?:,\d{1,2})?$/.test(core) && !/^\d{3}\.\d{3}\.\d{4}$/.test(core)) {
    return 'decimal';
  }
  if (!hasPlus && /^1[5-9]\d{8}(?:\d{3})?$/.test(core)) return 'timestamp';
  // "2 125 550 143", "12 345 678": thousands separated by spaces. (Phone groups of three start
  // with a 3-digit group, as in "912 345 678".)
  if (!hasPlus && /^\d{1,2}(?:[ \u00A0\u202F]\d{3}){2,}$/.test(core)) return 'decimal';

  // Version strings: dotted groups where a group after the first has a single digit
  // (10.0.19045, 6.1.7601, 121.0.6167.85). Phone numbers written with dots never do that,
  // except a leading country/trunk "1." as in 1.800.555.0199.
  if (core.includes('.') && !hasPlus) {
    const groups = core.split('.');
    if (groups.length >= 3 && groups.slice(1).some((g) => /^\d$/.test(g))) return 'version';
  }

  // ISBN-13 / ISBN-10 with checksum.
  if (!hasPlus && (isIsbn13(digits) || (/^\d{1,5}-\d{1,7}-\d{1,7}-[\dX]$/i.test(core) && isIsbn10(digits)))) {
    return 'isbn';
  }

  // Card-like and long grouped identifiers, judged on the whole digit phrase around the candidate.
  const { phrase } = phraseAround(text, start, end);
  if (phrase.length > core.length && !hasPlus && /^\d{1,2}(?:[ \u00A0\u202F]\d{3}){2,}$/.test(phrase)) return 'decimal';
  const groups = phrase.split(/[ \-.\u00A0]/).filter((g) => g.length > 0);
  const phraseDigits = digitsOf(phrase);
  if (phraseDigits.length >= 13 && phraseDigits.length <= 19) {
    const shape = groups.map((g) => g.length).join('-');
    if (/^4-4-4-4(?:-[1-3])?$|^4-6-5$|^4-6-4$/.test(shape)) return 'card';
    if (!hasPlus && groups.length === 1 && isLuhnValid(phraseDigits)) return 'card';
  }
  let run4 = 0;
  let maxRun4 = 0;
  for (const g of groups) {
    run4 = g.length === 4 ? run4 + 1 : 0;
    maxRun4 = Math.max(maxRun4, run4);
  }
  if (maxRun4 >= 3 && phraseDigits.length >= 12 && !hasPlus) return 'grouped-id';
  if (phraseDigits.length > 17 && phraseDigits.length > digits.length) return 'long-sequence';
  return null;
}

const BLANK_RE = /^\s*$/;
const LINE_LABEL_RE = /(?:^|\n)([^\n\d]{1,40})\n\s*$/u;

const IBAN_HEAD_RE = /(?:^|[^\p{L}\p{N}])[A-Z]{2}\d{2}(?:[ \u00A0]?[A-Z0-9]{4})+[ \u00A0]?$/u;

/** The clause before a number (after the last digit, its last non-empty line) names an identifier and no phone. */
function idNamedInClause(before: string): boolean {
  const lines = before.replace(/^[^]*\d/u, '').split('\n');
  let clause = lines.pop() ?? '';
  while (/^\s*$/.test(clause) && lines.length > 0) clause = lines.pop()!;
  return ID_RE.test(clause) && !POSITIVE_RE.test(clause);
}

function checkContext(c: Candidate, core: string): RejectReason | null {
  const { text, start, end } = c;
  const before = textBefore(text, start, 48);
  const after = text.slice(end, end + 24);
  // The candidate is the whole text (a table cell, a field value): every context rule needs some
  // character around it, so only the field label can object.
  if (BLANK_RE.test(before) && BLANK_RE.test(after)) {
    const label = labelText(c.label);
    if (label && labelKind(label) === 'other') return 'label';
    return bareWithoutPhoneContext(core, false, label) ? 'bare' : null;
  }
  // "-122.4194": a negative decimal.
  if (/(?:^|[\s(])[-−]$/u.test(before) && core.includes('.')) return 'decimal';
  // A currency before the number, or before the digit phrase it was cut from ("$ 3 125 550 199").
  const { pStart } = phraseAround(text, start, start + core.length);
  if (CURRENCY_BEFORE_RE.test(before) || (pStart < start && CURRENCY_BEFORE_RE.test(textBefore(text, pStart, 24)))) return 'price';
  if (CURRENCY_AFTER_RE.test(after)) return 'price';
  if (PERCENT_AFTER_RE.test(after)) return 'percent';
  if (UNIT_AFTER_RE.test(after)) return 'unit';

  const positive = hasPositiveContextBefore(text, start);
  if (!positive) {
    const neg = NEGATIVE_BEFORE_RE.exec(before);
    if (neg) {
      // "Caller ID: …", "Call to order …": a phone word just before the keyword wins.
      const lead = before.slice(0, neg.index + neg[0].indexOf(neg[1]!));
      const leadWords = lead.trim().split(/\s+/).slice(-3).join(' ');
      if (!POSITIVE_RE.test(leadWords) || ID_HEAD_RE.test(before)) return 'keyword';
    }
    // "#4155550132" with no keyword: an identifier (hashtags, record numbers).
    if (/(?:^|\s)#\s*$/.test(before)) return 'hash-id';
  }

  // An identifier named earlier in the clause ("SIREN", "P.IVA", "Participant PIN (…)"): not a number.
  if (!positive && idNamedInClause(before)) return 'keyword';
  // The tail of an IBAN written in groups ("NL91 ABNA 0417 1643 00"): its groups hold letters.
  if (IBAN_HEAD_RE.test(before)) return 'grouped-id';
  // A non-phone field label ("Account Number") vetoes, unless the text itself says phone ("Main: …").
  const label = positive ? undefined : labelText(c.label);
  if (label && labelKind(label) === 'other') return 'label';
  // The same for a label the page lays out as its own line right before the value ("Employees").
  const line = LINE_LABEL_RE.exec(before);
  if (line && !positive && labelKind(line[1]!.trim()) === 'other') return 'label';
  return bareWithoutPhoneContext(core, positive, label) ? 'bare' : null;
}

// NANP numbers in national form: 3-3-4 digits, also run together as 3-7, 6-4 or 10, after an optional
// trunk 1 (its own group or glued on). Brazil's "(31) 3234-5679", Mexico's "33 1234 5680" or India's
// "91234 56789" hold ten digits a US reading accepts: grouped so, they are not a US number, and a
// page that names their country reads them as its (./page-country.ts).
const NANP_GROUPS = new Set(['10', '3-7', '3-3-4', '6-4']);

function foreignGrouping(core: string, callingCode: string | undefined): boolean {
  if (callingCode !== '1' || core.includes('+')) return false;
  const groups = core.match(/[0-9\uFF10-\uFF19]+/g);
  if (!groups) return false;
  const lengths = groups.map((g) => g.length);
  if (lengths[0] === 1 && lengths.length > 1) lengths.shift();
  else if (groups[0]![0] === '1' && (lengths[0] === 11 || lengths[0] === 4 || lengths[0] === 7)) lengths[0]--; // "18005550199", "1800-…"
  return !NANP_GROUPS.has(lengths.join('-'));
}

/**
 * Why the candidate at text[start, end) is not a phone number, or null when no rule objects.
 * `start`/`end` are the span libphonenumber-js reported (end includes an extension).
 */
export function rejectionReason(c: Candidate): RejectReason | null {
  const raw = c.text.slice(c.start, c.end);
  const core = coreOf(raw, c.ext);
  const coreEnd = c.start + core.length;
  return (
    checkGlue(c.text, c.start, c.end, raw) ??
    checkShape(core, c.text, c.start, coreEnd) ??
    (foreignGrouping(core, c.callingCode) ? 'grouping' : null) ??
    checkContext(c, core)
  );
}

export type LabelKind = 'phone' | 'other' | 'neutral';

// A label or lead-in whose last word is an identifier names an id, whatever phone word comes first
// ("Contact ID", "Call ID", "Contact Id #"); "Caller ID" is the number a call came from, and a
// WhatsApp ID is a phone number too.
const ID_HEAD_RE = /(?<![\p{L}])(?<!(?:caller|whatsapp)[\s-]*)(?:id|ids|guid|uuid|sid)\s*[#:.]?\s*$/iu;

// A page has few distinct labels (column headers, field names) and asks for each once per cell.
const labelKinds = new Map<string, LabelKind>();

/** Label classification used by the DOM scanner for a field label it found. */
export function labelKind(label: string): LabelKind {
  let kind = labelKinds.get(label);
  if (kind === undefined) {
    kind = ID_HEAD_RE.test(label) ? 'other' : POSITIVE_RE.test(label) ? 'phone' : NEGATIVE_LABEL_RE.test(label) || ID_RE.test(label) ? 'other' : 'neutral';
    if (labelKinds.size >= 512) labelKinds.clear();
    labelKinds.set(label, kind);
  }
  return kind;
}
