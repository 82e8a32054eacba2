/** The locale for numbers, dates and currencies: the browser's language (no extension API, so Node tools can use it). */
export function uiLocale(): string {
  return (typeof navigator !== 'undefined' && navigator.language) || 'en-US';
}
