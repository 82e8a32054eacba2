import { t } from '../i18n';

/** The service refuses a start less than 2 minutes ahead; we keep a margin for the request's own travel. */
export const MIN_LEAD_MS = 2 * 60_000;
export const DEFAULT_MARGIN_MS = 15_000;

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

/** `2026-11-21T21:50:00+00:00`: ISO 8601 with a numeric offset; the service answers 500 to a `Z` suffix. */
export function formatScheduledAt(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new ScheduleError(t('errors_scheduleInvalidDate'));
  return at.toISOString().replace(/\.\d{3}Z$/, '+00:00').replace(/Z$/, '+00:00');
}

/** Formats `at` for `scheduled_at`, refusing (before any request) a time less than 2 minutes after `now`. */
export function scheduledAt(at: Date, now: Date = new Date()): string {
  const text = formatScheduledAt(at);
  if (at.getTime() - now.getTime() < MIN_LEAD_MS) {
    throw new ScheduleError(t('errors_scheduleTooSoon'));
  }
  return text;
}

/** The earliest start the service accepts, with a margin, rounded up to the whole second. */
export function earliestScheduledAt(now: Date = new Date(), marginMs = DEFAULT_MARGIN_MS): Date {
  return new Date(Math.ceil((now.getTime() + MIN_LEAD_MS + marginMs) / 1000) * 1000);
}

/** The live service starts a batch at the next 10-minute mark at or after `scheduled_at` (12:02 runs at 12:10). */
export function liveStartTime(scheduled: Date): Date {
  const step = 10 * 60_000;
  return new Date(Math.ceil(scheduled.getTime() / step) * step);
}
