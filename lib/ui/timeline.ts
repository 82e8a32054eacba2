/**
 * The rows of a call's status timeline, as a pure function of the call record: each status of the
 * happy path, plus any other status that was observed (terminal or unknown ones), in the order a call
 * walks them. Statuses passed between two polls are marked as not observed.
 */
import type { CallRecord } from '../calls/call-record';
import { isTerminalExecutionStatus, STATUS_PATH } from '../calls/status';
import { statusText } from '../calls/status-text';
import { unobservedStatuses } from '../placement/tracker';

export type TimelineState = 'observed' | 'current' | 'not-observed' | 'pending';

export interface TimelineEntry {
  status: string;
  label: string;
  state: TimelineState;
  /** When this status was first observed (ms), for observed and current entries. */
  at: number | null;
}

export function timelineEntries(call: Pick<CallRecord, 'observed' | 'status'>, path: readonly string[] = STATUS_PATH): TimelineEntry[] {
  const skipped = new Set(unobservedStatuses(call, path));
  const firstSeen = new Map<string, number>();
  for (const o of call.observed) if (!firstSeen.has(o.status)) firstSeen.set(o.status, o.at);

  // Place every status by a sort key: path statuses at 10 × index, others just after the furthest
  // path status observed before them.
  const keyed: { status: string; key: number }[] = path.map((status, i) => ({ status, key: i * 10 }));
  let furthest = -1;
  let extra = 0;
  for (const o of call.observed) {
    const index = path.indexOf(o.status);
    if (index >= 0) {
      furthest = Math.max(furthest, index);
    } else if (!keyed.some((k) => k.status === o.status)) {
      keyed.push({ status: o.status, key: furthest * 10 + 5 + ++extra / 100 });
    }
  }
  keyed.sort((a, b) => a.key - b.key);

  const current = call.status ?? null;
  const finished = current !== null && isTerminalExecutionStatus(current);
  const entries: TimelineEntry[] = [];
  for (const { status } of keyed) {
    const at = firstSeen.get(status) ?? null;
    let state: TimelineState;
    if (status === current && !finished) state = 'current';
    else if (at !== null) state = 'observed';
    else if (skipped.has(status)) state = 'not-observed';
    else state = 'pending';
    // A finished call will never reach the statuses still pending.
    if (finished && state === 'pending') continue;
    entries.push({ status, label: statusText(status), state, at });
  }
  return entries;
}
