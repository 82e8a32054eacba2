/**
 * Batches' statuses for the UI: readable labels (both vocabularies: `queued`/`executed` are the
 * older words), which ones still change, and how often to look again while they do.
 */
import { statusText } from '../calls/status-text';
import { t, type MessageKey } from '../i18n';

const LABELS: Record<string, MessageKey> = {
  created: 'batches_statusCreated',
  scheduled: 'batches_statusScheduled',
  queued: 'batches_statusQueued',
  running: 'batches_statusRunning',
  completed: 'batches_statusCompleted',
  executed: 'batches_statusCompleted',
  stopped: 'batches_statusStopped',
  failed: 'batches_statusFailed',
};

export function batchStatusLabel(status: string): string {
  const key = Object.hasOwn(LABELS, status) ? LABELS[status] : undefined;
  return key ? t(key) : status;
}

/** Statuses a batch moves on from by itself (the list is refreshed while one of its batches has one). */
export const isBatchActive = (status: string): boolean => status === 'scheduled' || status === 'queued' || status === 'running';
/** Stop is offered only where the service accepts it (it answers 404 otherwise). */
export const canStop = isBatchActive;
export const canSchedule = (status: string): boolean => status === 'created' || status === 'scheduled';

/** While calls are being placed, or a start is near: every 5 s (12 requests a minute, far under the 1000/min limit). */
export const ACTIVE_REFRESH_MS = 5_000;
/** A batch scheduled further ahead is looked at once a minute until its start is near. */
export const WAITING_REFRESH_MS = 60_000;
const NEAR_START_MS = 10 * 60_000;

/** When to look at the batches again, or null: nothing will change by itself. */
export function nextRefreshMs(batches: Array<{ status: string; scheduled_at?: string | null }>, now: number): number | null {
  let next: number | null = null;
  for (const batch of batches) {
    if (!isBatchActive(batch.status)) continue;
    const start = batch.status === 'scheduled' && batch.scheduled_at ? Date.parse(batch.scheduled_at) : NaN;
    const delay = Number.isFinite(start) && start - now > NEAR_START_MS ? WAITING_REFRESH_MS : ACTIVE_REFRESH_MS;
    next = next === null ? delay : Math.min(next, delay);
  }
  return next;
}

/** The per-status counts of `execution_status`, largest first, labelled like the call view. */
export function statusCounts(executionStatus: Record<string, number> | null | undefined): Array<{ status: string; label: string; count: number }> {
  return Object.entries(executionStatus ?? {})
    .filter(([, count]) => count > 0)
    .map(([status, count]) => ({ status, label: statusText(status), count }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}
