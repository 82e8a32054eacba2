/**
 * A number the user typed (popup, side panel, options, confirmation dialog) → E.164, or a reason
 * in plain English why it is not a number we can dial.
 *
 * Uses libphonenumber-js **max** metadata: it checks number ranges per country (not only lengths)
 * and knows the number type (mobile, fixed line…). It costs ≈57 KB gzipped, which is fine for
 * extension pages and the background, but NOT for the content script (50 KB budget in total):
 * content-script code uses ./find.ts and ./scan.ts (min metadata) and must not import this file.
 * A number the finder accepted can therefore still be refused here (e.g. an unallocated range);
 * the confirmation UI shows the reason.
 */
import {
  AsYouType,
  findPhoneNumbersInText,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
  type CountryCode,
  type NumberType,
} from 'libphonenumber-js/max';
// The core class with the same metadata module: the CommonJS build of /max lacks `Metadata`.
import { Metadata } from 'libphonenumber-js/core';
import maxMetadata from 'libphonenumber-js/max/metadata';
import { t } from '../i18n';
import { countryName } from '../country-names';
import { toAsciiDigits } from './digits';

export type { CountryCode };

export type PhoneInputErrorCode =
  | 'EMPTY'
  | 'TOO_LONG_INPUT'
  | 'LETTERS'
  | 'BAD_CHARACTER'
  | 'NO_COUNTRY'
  | 'UNKNOWN_COUNTRY'
  | 'UNKNOWN_CALLING_CODE'
  | 'TOO_SHORT'
  | 'TOO_LONG'
  | 'INVALID_LENGTH'
  | 'INVALID_NUMBER'
  | 'NOT_A_NUMBER';

export type PhoneInputResult =
  | {
      ok: true;
      /** "+442079460958" (no extension). */
      e164: string;
      /** National format for the number's country: "020 7946 0958". */
      national: string;
      /** International format: "+44 20 7946 0958". */
      international: string;
      country?: CountryCode;
      ext?: string;
      /** MOBILE, FIXED_LINE, FIXED_LINE_OR_MOBILE, TOLL_FREE… when the metadata can tell. */
      type?: NumberType;
    }
  | { ok: false; code: PhoneInputErrorCode; error: string };

const MAX_INPUT_LENGTH = 64;

export { countryName };

/** The country as libphonenumber wants it: a supported ISO code (any case in) or undefined. */
function supported(country: CountryCode | string | undefined): CountryCode | undefined {
  const upper = country?.toUpperCase();
  return upper && isSupportedCountry(upper) ? (upper as CountryCode) : undefined;
}

function numberingPlan(country: CountryCode): { possibleLengths(): number[]; nationalPrefix(): string | undefined } | undefined {
  const metadata = new Metadata(maxMetadata);
  metadata.selectNumberingPlan(country);
  return metadata.numberingPlan as unknown as { possibleLengths(): number[]; nationalPrefix(): string | undefined } | undefined;
}

function listLengths(lengths: number[]): string {
  if (lengths.length === 0) return '';
  if (lengths.length === 1) return String(lengths[0]);
  const sorted = [...lengths].sort((a, b) => a - b);
  const contiguous = sorted.every((n, i) => i === 0 || n === sorted[i - 1]! + 1);
  if (contiguous && sorted.length > 2) return t('phone_errLengthRange', sorted[0]!, sorted[sorted.length - 1]!);
  return t('phone_errLengthChoice', sorted.slice(0, -1).join(', '), sorted[sorted.length - 1]!);
}

function fail(code: PhoneInputErrorCode, error: string): PhoneInputResult {
  return { ok: false, code, error };
}

// An extension at the end: "x123", "ext. 45", "extension 7", "#12", ";ext=12", ",,12".
const EXT_SUFFIX_RE = /(?:\s*;\s*ext\s*=\s*|\s*,,\s*|\s*#\s*|\s*(?:ext(?:ension)?|xt|x)\.?\s*[:.]?\s*)(\d{1,10})#?\s*$/i;
const ALLOWED_RE = /^[\d\s\u00A0+().\-\u2010-\u2015\u2212/]*$/;

/** The main country of the calling code a "+CC…" input starts with (US for +1, GB for +44). */
function countryForInternational(digits: string): CountryCode | undefined {
  const codes = (maxMetadata as unknown as { country_calling_codes: Record<string, string[]> }).country_calling_codes;
  for (let len = 1; len <= 3 && len <= digits.length; len++) {
    const country = codes[digits.slice(0, len)]?.[0];
    if (country && isSupportedCountry(country)) return country;
  }
  return undefined;
}

/**
 * Parse a number the user typed. `defaultCountry` is used for numbers written without "+"
 * (an unknown code is reported only when it is needed).
 */
export function parsePhoneInput(text: string, defaultCountry?: CountryCode | string): PhoneInputResult {
  // Full-width digits (typed with an East Asian IME), Arabic-Indic, Persian and Devanagari digits are
  // digits; direction marks around a number copied from a right-to-left page are nothing.
  let input = toAsciiDigits(text ?? '').trim();
  if (input === '') return fail('EMPTY', t('phone_errEmpty'));
  if (input.length > MAX_INPUT_LENGTH) {
    return fail('TOO_LONG_INPUT', t('phone_errTooLongInput', input.length));
  }
  input = input.replace(/^(?:tel|callto):(?:\/\/)?/i, '').trim();

  let ext: string | undefined;
  const extMatch = EXT_SUFFIX_RE.exec(input);
  if (extMatch && /\d/.test(input.slice(0, extMatch.index))) {
    ext = extMatch[1];
    input = input.slice(0, extMatch.index).trim();
  }

  if (!ALLOWED_RE.test(input)) {
    const letters = input.match(/[\p{L}]+/gu);
    if (letters) {
      return fail(
        'LETTERS',
        t('phone_errLetters', letters.join(' ')),
      );
    }
    const bad = [...input].find((ch) => !ALLOWED_RE.test(ch)) ?? '';
    return fail('BAD_CHARACTER', t('phone_errBadCharacter', bad));
  }
  const plusCount = (input.match(/\+/g) ?? []).length;
  if (plusCount > 1 || (plusCount === 1 && !/^\(?\s*\+/.test(input))) {
    return fail('BAD_CHARACTER', t('phone_errPlusPlace'));
  }

  const digits = input.replace(/\D/g, '');
  if (digits.length === 0) return fail('NOT_A_NUMBER', t('phone_errNoDigits'));
  if (digits.length > 17) {
    return fail('TOO_LONG', t('phone_errTooManyDigits', digits.length));
  }

  const country = defaultCountry ? defaultCountry.toUpperCase() : undefined;
  const international = input.replace(/^\(\s*/, '').startsWith('+');
  const countryOk = country !== undefined && isSupportedCountry(country);
  if (!international && !countryOk) {
    if (digits.startsWith('00') && digits.length > 4) {
      // "0044 20 …" written with the common international prefix and no default country.
      return parsePhoneInput(`+${digits.slice(2)}${ext ? ` x${ext}` : ''}`, undefined);
    }
    if (country !== undefined) {
      return fail('UNKNOWN_COUNTRY', t('phone_errUnknownCountry', String(defaultCountry)));
    }
    return fail('NO_COUNTRY', t('phone_errNoCountry'));
  }

  const options = countryOk ? { defaultCountry: country as CountryCode } : {};
  const region: CountryCode | undefined = international ? countryForInternational(digits) : (country as CountryCode);
  if (international && !region) {
    const parsedCc = parsePhoneNumberFromString(input);
    if (!parsedCc) {
      return fail('UNKNOWN_CALLING_CODE', t('phone_errUnknownCallingCode', digits.slice(0, 3)));
    }
  }
  const regionName = region ? countryName(region) : t('phone_errThisCountry');

  const lengthProblem = validatePhoneNumberLength(input, options);
  const parsed = parsePhoneNumberFromString(input, options);
  const nsnLength = parsed ? parsed.nationalNumber.length : undefined;
  const lengthsFor = parsed?.country ?? region;
  const plan = lengthsFor ? numberingPlan(lengthsFor) : undefined;
  const allowed = plan ? listLengths(plan.possibleLengths()) : '';
  const trunk = plan?.nationalPrefix();
  // Appended, after a space, to the length sentences below (their last placeholder).
  const allowedText =
    allowed && lengthsFor
      ? ` ${
          trunk
            ? t('phone_errLengthsAllowedTrunk', regionName, allowed, getCountryCallingCode(lengthsFor), trunk)
            : t('phone_errLengthsAllowed', regionName, allowed, getCountryCallingCode(lengthsFor))
        }`
      : '';

  switch (lengthProblem) {
    case 'INVALID_COUNTRY':
      if (international) {
        return fail('UNKNOWN_CALLING_CODE', t('phone_errUnknownCallingCode', digits.slice(0, 3)));
      }
      return fail('NO_COUNTRY', t('phone_errNoCountry'));
    case 'NOT_A_NUMBER':
      return fail('NOT_A_NUMBER', t('phone_errNotANumber'));
    case 'TOO_SHORT':
      return fail('TOO_SHORT', nsnLength ? t('phone_errTooShortDigits', regionName, nsnLength, allowedText) : t('phone_errTooShort', regionName, allowedText));
    case 'TOO_LONG':
      return fail('TOO_LONG', nsnLength ? t('phone_errTooLongDigits', regionName, nsnLength, allowedText) : t('phone_errTooLong', regionName, allowedText));
    case 'INVALID_LENGTH':
      return fail('INVALID_LENGTH', nsnLength ? t('phone_errWrongLengthDigits', regionName, nsnLength, allowedText) : t('phone_errWrongLength', regionName, allowedText));
    default:
      break;
  }

  if (!parsed) return fail('NOT_A_NUMBER', t('phone_errNotANumber'));
  if (!parsed.isValid()) {
    const name = parsed.country ? countryName(parsed.country) : `+${parsed.countryCallingCode}`;
    return fail('INVALID_NUMBER', t('phone_errInvalidNumber', parsed.formatInternational(), name));
  }

  const type = parsed.getType();
  return {
    ok: true,
    e164: parsed.number,
    national: parsed.formatNational(),
    international: parsed.formatInternational(),
    ...(parsed.country ? { country: parsed.country } : {}),
    ...(ext ? { ext } : {}),
    ...(type ? { type } : {}),
  };
}

/**
 * The number to prefill from a text the user selected on a page ("Call … with <agent>", the
 * shortcut): the whole selection when it is a number, else the first number inside it as written
 * ("Call me on (415) 555-0132 today" → "(415) 555-0132"), else the selection itself, so the
 * confirmation shows what was selected and why it cannot be dialled.
 */
export function numberInSelection(text: string, country?: CountryCode | string): string {
  const selection = text.replace(/\s+/g, ' ').trim().slice(0, MAX_INPUT_LENGTH);
  const plain = toAsciiDigits(text.slice(0, 256));
  if (selection === '' || parsePhoneInput(selection, country).ok) return selection;
  const c = supported(country);
  const [first] = findPhoneNumbersInText(plain, c ? { defaultCountry: c } : {});
  return first ? text.slice(first.startsAt, first.endsAt) : selection;
}

/** E.164 for a typed or copied number, or null when it is not a valid number. */
export function toE164(text: string, country?: CountryCode | string): string | null {
  const result = parsePhoneInput(text, country);
  return result.ok ? result.e164 : null;
}

/** Live formatting for an input field as the user types ("4155550" → "(415) 555-0"). */
export function formatAsTyped(text: string, country?: CountryCode | string): string {
  return new AsYouType(supported(country)).input(text);
}
