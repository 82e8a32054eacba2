import { t, uiLocale, type MessageKey } from '../../lib/i18n';

/** A count in the browser's locale ("1,234"). */
export const num = (n: number): string => n.toLocaleString(uiLocale());

/**
 * A figure of a check in the browser's locale without grouping ("2000", German "12,5"): in English it
 * is written as the exports write it (lib/plans/outcome-text.ts).
 */
export const figure = (n: number): string => n.toLocaleString(uiLocale(), { useGrouping: false, maximumFractionDigits: 20 });

/** The key of the message for `n`: the `one` form or the other, by the locale's plural rules. */
export function pluralKey(n: number, one: MessageKey, other: MessageKey): MessageKey {
  return new Intl.PluralRules(uiLocale()).select(n) === 'one' ? one : other;
}

/** The message for `n`, with `n` (locale-formatted) as its first placeholder and `rest` after it. */
export function plural(n: number, one: MessageKey, other: MessageKey, ...rest: (string | number)[]): string {
  return t(pluralKey(n, one, other), num(n), ...rest);
}
