/**
 * The price the service quotes for a phone number. It comes as a plain number of US dollars (for
 * example 1.15, unlike execution costs, which are in cents); it is shown as the service gives it,
 * in the browser's locale. The currency is our stated reading: the service names none.
 */
import { t } from '../i18n';
import { uiLocale } from '../locale';
import { ACCOUNT_CURRENCY, formatAmount } from '../money';

export const PRICE_CURRENCY = ACCOUNT_CURRENCY;

/** 1.15 → "$1.15" (en-US); null when the service gave no usable price. */
export function formatPrice(price: number | null | undefined, locale?: string): string | null {
  if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) return null;
  return formatAmount(price, PRICE_CURRENCY, locale ?? uiLocale());
}

export const MAX_PATTERN_DIGITS = 10;

/** Checks the search pattern as typed: up to 10 digits, spaces and dashes ignored. Answers the digits or a message. */
export function checkPattern(text: string): { ok: true; pattern: string } | { ok: false; message: string } {
  const digits = text.replace(/[\s-]/g, '');
  if (!/^\d*$/.test(digits)) return { ok: false, message: t('numbers_digitsOnly') };
  if (digits.length > MAX_PATTERN_DIGITS) return { ok: false, message: t('numbers_atMostDigits', new Intl.NumberFormat(uiLocale()).format(MAX_PATTERN_DIGITS)) };
  return { ok: true, pattern: digits };
}
