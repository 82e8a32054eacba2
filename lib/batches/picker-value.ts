/**
 * `datetime-local` values, with no UI text (so Node tools and the e2e specs can use them without
 * the extension API that lib/i18n loads).
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a `datetime-local` value ("2026-11-23T14:10") in the local time zone. */
export function toPickerValue(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
