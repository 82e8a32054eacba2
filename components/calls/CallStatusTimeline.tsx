import type { CallRecord } from '../../lib/calls/call-record';
import { STATUS_PATH } from '../../lib/calls/status';
import { statusText } from '../../lib/calls/status-text';
import { t } from '../../lib/i18n';
import { formatClock } from '../../lib/ui/format';
import { timelineEntries } from '../../lib/ui/timeline';

/** A call started at once (`POST /call`) is never scheduled: its path begins at queued. */
const STARTED_NOW_PATH = STATUS_PATH.filter((status) => status !== 'scheduled');

/** Each status of the call's path with the local time it was observed; statuses passed between polls say so. */
export function CallStatusTimeline({ call }: { call: Pick<CallRecord, 'observed' | 'status'> & { via?: CallRecord['via'] } }) {
  const entries = timelineEntries(call, call.via === 'call' ? STARTED_NOW_PATH : STATUS_PATH);
  return (
    <ol class="timeline" aria-label={t('timeline_label')}>
      {entries.map((entry) => (
        <li key={entry.status} class={`timeline-${entry.state}`} aria-current={entry.state === 'current' ? 'step' : undefined}>
          <span class="timeline-label">{statusText(entry.status)}</span>{' '}
          <span class="timeline-time">
            {entry.at !== null
              ? formatClock(entry.at, { seconds: true })
              : entry.state === 'not-observed'
                ? t('timeline_notObserved')
                : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}
