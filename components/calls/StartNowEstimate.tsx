import { earliestScheduledAt } from '../../lib/api/schedule';
import { formatClock, formatFromNow } from '../../lib/ui/format';

/**
 * When a call placed now will start with "Start calls now" on: at once where the service offers
 * immediate calls; where it does not, the call goes out through a batch (its earliest start is said too).
 */
export function StartNowEstimate({ now }: { now: number }) {
  const earliest = earliestScheduledAt(new Date(now)).getTime();
  return (
    <div class="start-estimate">
      <p>Starts at once where the service offers immediate calls.</p>
      <p>
        Where it does not, the call goes out through a batch: earliest start <strong>{formatClock(earliest)}</strong> ({formatFromNow(earliest, now)}).
      </p>
    </div>
  );
}
