/**
 * Money, one way everywhere (call costs, run totals and estimates, number prices, the wallet): the
 * account's currency in the reader's locale, two decimals, and more only for an amount under one cent,
 * which would otherwise read "$0.00" (enough digits to say how much: "$0.005").
 * The service names no currency; its costs are in cents and its wallet and prices in units of USD.
 */
import { uiLocale } from './locale';

/** The account's currency: our stated reading, as the service gives none. */
export const ACCOUNT_CURRENCY = 'USD';

/** Cents (possibly fractional) → "$0.42", "0,42 $"; null or not a number → "—". */
export function formatCents(cents: number | null | undefined, currency: string = ACCOUNT_CURRENCY, locale: string = uiLocale()): string {
  if (typeof cents !== 'number' || !Number.isFinite(cents)) return '—';
  const underACent = cents !== 0 && Math.abs(cents) < 1;
  const digits: Intl.NumberFormatOptions = underACent ? { maximumSignificantDigits: 2 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  return new Intl.NumberFormat(locale, { style: 'currency', currency, ...digits }).format(cents / 100);
}

/** An amount in currency units (the wallet, a number's price) → the same text as its cents would give. */
export function formatAmount(amount: number | null | undefined, currency: string = ACCOUNT_CURRENCY, locale: string = uiLocale()): string {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return '—';
  return formatCents(amount * 100, currency, locale);
}
