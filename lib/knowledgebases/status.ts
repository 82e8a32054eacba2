/**
 * A knowledgebase's status and how the section follows it: the service answers `processing` after an
 * ingest and later `processed` or `error` (service facts). Pure: the section's timer asks these.
 */

import { t } from '../i18n';

export type KbStatusKind = 'processing' | 'processed' | 'error';

/** Settled statuses are never polled again; anything else (including unknown words) is in progress. */
export function statusKind(status: string | null | undefined): KbStatusKind {
  const s = (status ?? '').toLowerCase();
  if (s === 'processed' || s === 'completed' || s === 'ready') return 'processed';
  if (s === 'error' || s === 'failed') return 'error';
  return 'processing';
}

export const isSettled = (status: string | null | undefined): boolean => statusKind(status) !== 'processing';

/** First poll after 2 s, then each wait 1.5× longer, at most 15 s: modest for a job that takes seconds to minutes. */
export const FIRST_POLL_MS = 2000;
export const MAX_POLL_MS = 15_000;
export function nextPollDelay(previousMs: number | null): number {
  if (previousMs === null) return FIRST_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.round(previousMs * 1.5));
}

export function statusLabel(status: string | null | undefined): string {
  switch (statusKind(status)) {
    case 'processed':
      return t('kb_statusProcessed');
    case 'error':
      return t('kb_statusError');
    default:
      return status && status.toLowerCase() !== 'processing' ? t('kb_statusInProgress', status) : t('kb_statusProcessing');
  }
}
