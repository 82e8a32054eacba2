/**
 * The batch schedule picker's rules: a `datetime-local` value read in the browser's time zone,
 * checked with the service's rule from lib/api/schedule.ts (at least 2 minutes ahead, with a margin
 * for the request's travel), and the real start the hosted service will use (the next 10-minute
 * mark). Pure: the clock and the zone's formatting are passed in.
 */
import { DEFAULT_MARGIN_MS, earliestScheduledAt, liveStartTime, scheduledAt, ScheduleError } from '../api/schedule';
import { t } from '../i18n';
import { toPickerValue } from './picker-value';

export { toPickerValue };

export type SchedulePick =
  | { ok: true; at: Date; /** What is sent as `scheduled_at`. */ scheduledAt: string; /** When the hosted service starts it. */ startsAt: Date }
  | { ok: false; error: string };

const PICKER_VALUE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const pad = (n: number) => String(n).padStart(2, '0');


/** The picker's first value: the earliest start the service accepts, moved to the next 10-minute mark (when it would really start). */
export function defaultPickerValue(now: Date): string {
  return toPickerValue(liveStartTime(earliestScheduledAt(now)));
}

/** Reads the picker's value as local time and checks it against the service's rules. */
export function checkPick(value: string, now: Date): SchedulePick {
  const m = PICKER_VALUE.exec(value.trim());
  if (!m) return { ok: false, error: value.trim() ? t('batches_enterDateTimeInFull') : t('batches_chooseDateTime') };
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const at = new Date(y, mo - 1, d, h, mi, s);
  if (at.getFullYear() !== y || at.getMonth() !== mo - 1 || at.getDate() !== d) return { ok: false, error: t('batches_noSuchDate') };
  if (at.getHours() !== h || at.getMinutes() !== mi) {
    return { ok: false, error: t('batches_noSuchTime') };
  }
  if (at.getTime() <= now.getTime()) {
    return { ok: false, error: t('batches_timePassed') };
  }
  try {
    // The service's rule, with a margin so that a time that passes here still passes on arrival.
    const text = scheduledAt(at, new Date(now.getTime() + DEFAULT_MARGIN_MS));
    return { ok: true, at, scheduledAt: text, startsAt: liveStartTime(at) };
  } catch (e) {
    if (e instanceof ScheduleError) return { ok: false, error: e.message };
    throw e;
  }
}

/** "Europe/Berlin (UTC+01:00)": the zone the picker's time is read in, with its offset at that moment. */
export function timeZoneText(at: Date, timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  const minutes = -at.getTimezoneOffset();
  const sign = minutes < 0 ? '−' : '+';
  const abs = Math.abs(minutes);
  return `${timeZone} (UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`;
}
