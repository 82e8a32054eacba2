/**
 * The Executions section's filter, as the person types it, turned into the service's query. Pure: dates are
 * read in the browser's time zone (a day is the person's day), the 7-day rule lives here once and is
 * checked by the side panel and again by the background.
 */
import type { ExecutionStatus } from '../api/status-vocabulary';
import { t } from '../i18n';
import { uiLocale } from '../locale';

/** The live service answers at most this window (`to - from`) per request. */
export const MAX_WINDOW_MS = 7 * 24 * 3600_000;
export const MAX_WINDOW_DAYS = 7;

/** What the filter form holds: dates as `<input type="date">` gives them (YYYY-MM-DD), '' for "any". */
export interface ExecutionFilter {
  status: ExecutionStatus | '';
  batchId: string;
  /** First day shown (inclusive). */
  fromDate: string;
  /** Last day shown (inclusive). */
  toDate: string;
}

/** The query part of a list request: instants in ms. */
export interface ExecutionQuery {
  status?: string;
  batchId?: string;
  from: number;
  to: number;
}

export type FilterResult = { ok: true; query: ExecutionQuery } | { ok: false; message: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight starting the given local day, or null for text that is not a real date. */
export function startOfLocalDay(date: string): number | null {
  const m = DAY.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(y, mo - 1, d);
  if (at.getFullYear() !== y || at.getMonth() !== mo - 1 || at.getDate() !== d) return null;
  return at.getTime();
}

/** YYYY-MM-DD of the local day holding `at`. */
export function localDate(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const utcDay = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The start of the day `days` after the one starting at `dayStart` (DST-safe: calendar arithmetic). */
function addDays(dayStart: number, days: number): number {
  const d = new Date(dayStart);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + days).getTime();
}

/** The default filter: every status and batch over the last 7 days, today included. */
export function defaultFilter(now: number): ExecutionFilter {
  const today = startOfLocalDay(localDate(now))!;
  return { status: '', batchId: '', fromDate: localDate(addDays(today, -(MAX_WINDOW_DAYS - 1))), toDate: localDate(today) };
}

/** The one window rule: `from` not after `to`, at most 7 days apart. Null when it holds, else why not. */
export function windowProblem(from: number, to: number): string | null {
  if (!Number.isFinite(from) || !Number.isFinite(to)) return t('executions_enterBothDates');
  if (to < from) return t('executions_startAfterEnd');
  if (to - from > MAX_WINDOW_MS) {
    return t('executions_windowTooLong', new Intl.NumberFormat(uiLocale()).format(MAX_WINDOW_DAYS));
  }
  return null;
}

/**
 * The form's filter as the service's query. The end day is included up to its last second (the service
 * reads whole seconds), so the widest range is 7 calendar days, today and the 6 before.
 */
export function filterToQuery(filter: ExecutionFilter): FilterResult {
  if (!filter.fromDate || !filter.toDate) return { ok: false, message: t('executions_enterBothDates') };
  const from = startOfLocalDay(filter.fromDate);
  const toDay = startOfLocalDay(filter.toDate);
  if (from === null) return { ok: false, message: t('executions_startNotDate', filter.fromDate) };
  if (toDay === null) return { ok: false, message: t('executions_endNotDate', filter.toDate) };
  // Counted in calendar days, so a range across a clock change is judged as the person sees it.
  const days = Math.round((utcDay(filter.toDate) - utcDay(filter.fromDate)) / 86_400_000) + 1;
  const problem = days < 1 ? windowProblem(from, toDay) : days > MAX_WINDOW_DAYS ? windowProblem(0, MAX_WINDOW_MS + 1) : null;
  if (problem) return { ok: false, message: problem };
  const to = Math.min(addDays(toDay, 1) - 1000, from + MAX_WINDOW_MS);
  const batchId = filter.batchId.trim();
  return { ok: true, query: { from, to, ...(filter.status ? { status: filter.status } : {}), ...(batchId ? { batchId } : {}) } };
}

/** Whether an execution falls under the query: for answers that ignored it (the deprecated route's whole list). */
export function matchesQuery(
  execution: { status: string; batch_id?: string | null; created_at?: string | null },
  query: ExecutionQuery,
): boolean {
  if (query.status && execution.status !== query.status) return false;
  if (query.batchId && execution.batch_id !== query.batchId) return false;
  const at = execution.created_at ? Date.parse(execution.created_at) : NaN;
  // A record without a readable time cannot be placed in the window: keep it rather than hide it.
  if (Number.isFinite(at) && (at < query.from || at > query.to)) return false;
  return true;
}
