import { badRequest, internalError, type ApiError } from './errors';

/** Minimum lead the live service demands for `scheduled_at` (spec section 8). */
export const MIN_SCHEDULE_LEAD_MS = 2 * 60_000;

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(?:([+-])(\d{2}):?(\d{2}))?$/;

/** Parses ISO 8601 the way Python's `datetime.fromisoformat` does (no `Z`); naive times count as UTC. */
export function parseIsoOffset(text: string): Date | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = m;
  const ms = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0), ms);
  const back = new Date(utc);
  // Date.UTC rolls 2026-02-31 over to March: refuse instead, like fromisoformat.
  if (back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) {
    return undefined;
  }
  const offsetMin = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  if (Math.abs(offsetMin) >= 24 * 60) return undefined;
  return new Date(utc - offsetMin * 60_000);
}

/**
 * Checks `scheduled_at` with the live service's rules, always against the real clock:
 * `Z` suffix → 500, unparseable → 400 parse error, under 2 minutes ahead → 400.
 */
export function checkScheduledAt(text: string, nowMs: number = Date.now()): Date | ApiError {
  const trimmed = text.trim();
  // The live service crashes on a `Z` suffix instead of refusing it; the sandbox reproduces that.
  if (/z$/i.test(trimmed) && /\d/.test(trimmed)) return internalError();
  const at = parseIsoOffset(trimmed);
  if (!at) return badRequest(`Invalid isoformat string: '${text}'`);
  if (at.getTime() - nowMs < MIN_SCHEDULE_LEAD_MS) {
    return badRequest('the scheduled time must be at least 2 minutes in the future');
  }
  return at;
}

/** "5 minutes ago", as list records of the live service carry in `humanized_created_at`. */
export function humanize(iso: string, nowMs: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size) {
      const n = Math.floor(seconds / size);
      return `${n} ${name}${n === 1 ? '' : 's'} ago`;
    }
  }
  return seconds < 10 ? 'just now' : `${seconds} seconds ago`;
}

export const iso = (ms: number = Date.now()) => new Date(ms).toISOString();
