/**
 * Following a plan's batch, as pure decisions of (state, answer, clock) — the run's tracker.
 *
 * Request budget (why): one batch holds every case, so one `GET /batches/{id}/executions` sees every
 * row's status at once (a trimmed record); each execution is then read in full exactly once, when the
 * list shows it terminal. A run of N cases costs 2 (create, schedule) + the list polls + N full reads,
 * whatever N is, where polling every execution every 1.5 s costs N per 1.5 s. The list poll's pace
 * follows the tracker's plan (lib/calls/tracker.ts): sleep until just before the known start, poll
 * densely around dialling, ease off during conversations and while results are being finalised.
 */
import type { Execution } from '../api/schemas/execution';
import { isTerminalExecutionStatus } from '../api/status-vocabulary';
import { liveStartTime } from '../api/schedule';
import { POLL, serviceToLocal } from './tracker';

export const FOLLOW = {
  /** Someone is being dialled: statuses change within seconds. */
  dialling: 1_000,
  /** Conversations in progress: nothing new for a while. */
  talking: 2_000,
  /**
   * Every open row is in call-disconnected: the verdict waits on nothing else, so the list (one request
   * for the whole batch) is read twice a second and sees the last end within half a second; at 1 s the
   * verdict came 0.6–1.1 s after the last end, depending on where the end fell between two polls
   * (bench/plans.ts). The single-call tracker's 2 s would leave it waiting up to 2 s.
   */
  finalising: 500,
} as const;

export interface FollowState {
  batchId: string;
  /** `scheduled_at` as sent, and our clock when it was sent; the service clock's speed. */
  scheduledAt: string;
  scheduledRequestAt: number;
  timeScale: number;
  /** Latest record per execution id: the list's trimmed one, then the full one. */
  rows: Record<string, Execution>;
  /** Full terminal records, by execution id (each read once). */
  finished: Record<string, Execution>;
  /** The batch ended (failed or stopped) with no rows. */
  ended: boolean;
  requests: { list: number; full: number; batch: number };
}

export function newFollowState(batchId: string, scheduledAt: string, scheduledRequestAt: number, timeScale = 1): FollowState {
  return { batchId, scheduledAt, scheduledRequestAt, timeScale, rows: {}, finished: {}, ended: false, requests: { list: 0, full: 0, batch: 0 } };
}

/** Local-clock moments the batch may start: `scheduled_at` (spec) and the next 10-minute mark (live). */
export function expectedStarts(state: FollowState): number[] {
  const scheduled = Date.parse(state.scheduledAt);
  if (Number.isNaN(scheduled)) return [];
  const starts = [scheduled, liveStartTime(new Date(scheduled)).getTime()].map((t) => serviceToLocal(state, t));
  return [...new Set(starts)].sort((a, b) => a - b);
}

/** Folds a list answer in; answers the ids now terminal and not yet read in full. */
export function applyList(state: FollowState, executions: readonly Execution[]): { state: FollowState; toRead: string[] } {
  const rows = { ...state.rows };
  for (const e of executions) if (!state.finished[e.id]) rows[e.id] = e;
  const toRead = Object.values(rows)
    .filter((e) => isTerminalExecutionStatus(e.status) && !state.finished[e.id])
    .map((e) => e.id);
  return { state: { ...state, rows, requests: { ...state.requests, list: state.requests.list + 1 } }, toRead };
}

/** Folds a full read in: a terminal record is kept; otherwise the list will say when to read again. */
export function applyFull(state: FollowState, execution: Execution): FollowState {
  const requests = { ...state.requests, full: state.requests.full + 1 };
  const rows = { ...state.rows, [execution.id]: execution };
  if (!isTerminalExecutionStatus(execution.status)) return { ...state, rows, requests };
  return { ...state, rows, requests, finished: { ...state.finished, [execution.id]: execution } };
}

export function isDone(state: FollowState): boolean {
  if (state.ended) return true;
  const ids = Object.keys(state.rows);
  return ids.length > 0 && ids.every((id) => state.finished[id]);
}

/** Delay (ms) before the next list poll. */
export function nextListDelay(state: FollowState, now: number): number {
  const open = Object.values(state.rows).filter((e) => !state.finished[e.id]).map((e) => e.status);
  if (open.some((s) => s === 'queued' || s === 'initiated' || s === 'ringing' || s === 'rescheduled')) return FOLLOW.dialling;
  if (open.includes('in-progress')) return FOLLOW.talking;
  if (open.includes('call-disconnected')) return FOLLOW.finalising;
  // Nothing dialled yet (prepared, scheduled, or no rows yet): go by the expected start.
  for (const start of expectedStarts(state)) {
    if (now < start - POLL.leadIn) return Math.max(FOLLOW.dialling, Math.min(POLL.waitingMax, start - POLL.leadIn - now));
    if (now < start + POLL.afterStart) return FOLLOW.dialling;
  }
  return POLL.overdue;
}

/** Past every expected start (and the grace after it). */
export function isOverdue(state: FollowState, now: number): boolean {
  const starts = expectedStarts(state);
  return starts.length === 0 || now >= starts[starts.length - 1]! + POLL.afterStart;
}

/** How many rows are in each status now. */
export function statusCounts(state: FollowState): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of Object.values(state.rows)) counts[e.status] = (counts[e.status] ?? 0) + 1;
  return counts;
}
