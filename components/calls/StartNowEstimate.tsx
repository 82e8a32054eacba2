import { earliestScheduledAt } from '../../lib/api/schedule';
import { t } from '../../lib/i18n';
import { formatClock, formatFromNow } from '../../lib/ui/format';
import { tNodes } from '../shared/Translated';

/**
 * When a call placed now will start with "Start calls now" on: at once where the service offers
 * immediate calls; where it does not, the call goes out through a batch (its earliest start is said too).
 */
export function StartNowEstimate({ now }: { now: number }) {
  const earliest = earliestScheduledAt(new Date(now)).getTime();
  return (
    <div class="start-estimate">
      <p>{t('calls_startsAtOnce')}</p>
      <p>{tNodes('calls_startNowFallback', <strong>{formatClock(earliest)}</strong>, formatFromNow(earliest, now))}</p>
    </div>
  );
}
