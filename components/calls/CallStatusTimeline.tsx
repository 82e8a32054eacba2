import type { CallRecord } from '../../lib/calls/call-record';
import { STATUS_PATH } from '../../lib/calls/status';
import { formatClock } from '../../lib/ui/format';
import { timelineEntries } from '../../lib/ui/timeline';

/** Each status of the call's path with the local time it was observed; statuses passed between polls say so. */
/** A call started at once (`POST /call`) is never scheduled: its path begins at queued. */
const STARTED_NOW_PATH = STATUS_PATH.filter((status) => status !== 'scheduled');

export function CallStatusTimeline({ call }: { call: Pick<CallRecord, 'observed' | 'status'> & { via?: CallRecord['via'] } }) {
  const entries = timelineEntries(call, call.via === 'call' ? STARTED_NOW_PATH : STATUS_PATH);
  return (
    <ol class="timeline" aria-label="Call status timeline">
      {entries.map((entry) => (
        <li key={entry.status} class={`timeline-${entry.state}`} aria-current={entry.state === 'current' ? 'step' : undefined}>
          <span class="timeline-label">{entry.label}</span>{' '}
          <span class="timeline-time">
            {entry.at !== null
              ? formatClock(entry.at, { seconds: true })
              : entry.state === 'not-observed'
                ? 'not observed'
                : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}
