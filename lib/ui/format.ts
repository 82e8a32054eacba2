/**
 * Pure formatting helpers for the UI: durations, clock times, countdowns and transcripts (money: lib/money.ts).
 * No extension API; every function is a plain value in, text out (numbers in the browser's locale).
 */
import { uiLocale } from '../locale';
// The transcript parser lives with the executions (lib/executions/transcript.ts): the plans' checks use it too.
import type { Speaker } from '../executions/transcript';
export { parseTranscript, type Speaker, type TranscriptTurn } from '../executions/transcript';



/** Seconds → "0 s", "45 s", "2 min 05 s", "1 h 02 min". Null/invalid → "—". */
export function formatDuration(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '—';
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  return `${m} min ${String(s).padStart(2, '0')} s`;
}

/** Remaining milliseconds → "m:ss" or "h:mm:ss"; never negative. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** "in about 2 minutes", "in about 1 minute", "in less than a minute", "now". */
export function formatFromNow(at: number, now: number): string {
  const ms = at - now;
  if (ms <= 0) return 'now';
  if (ms < 60_000) return 'in less than a minute';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `in about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `in about ${hours} h ${String(rest).padStart(2, '0')} min`;
}

/** Clock time "14:10" (or "14:10:05" with seconds) in the user's locale, or the given one. */
export function formatClock(at: number | Date, options: { seconds?: boolean; locale?: string; timeZone?: string } = {}): string {
  const date = typeof at === 'number' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(options.locale, {
    hour: '2-digit',
    minute: '2-digit',
    ...(options.seconds ? { second: '2-digit' } : {}),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  }).format(date);
}

/** Date and time for lists: "21 Nov, 14:10". Accepts ms or an ISO string; unreadable → the text as given. */
export function formatDateTime(at: number | string | null | undefined, options: { locale?: string; timeZone?: string } = {}): string {
  if (at === null || at === undefined || at === '') return '—';
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  return new Intl.DateTimeFormat(options.locale, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
  }).format(date);
}

export function speakerLabel(speaker: Speaker | null): string {
  if (speaker === 'assistant') return 'Assistant';
  if (speaker === 'user') return 'User';
  return 'Transcript';
}

/** A value from extracted data, as text. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** A file name that is safe everywhere: letters, digits, dot, dash, underscore. */
export function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120) || 'download';
}
