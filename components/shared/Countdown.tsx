import { t } from '../../lib/i18n';
import { formatClock, formatCountdown } from '../../lib/ui/format';
import { useNow } from '../../lib/ui/hooks';
import { tNodes } from './Translated';

/**
 * Time left before the call's expected start. `starts` are the local-clock moments it may start:
 * the scheduled time itself, and the 10-minute mark the hosted service rounds up to.
 */
export function Countdown({ starts }: { starts: number[] }) {
  const now = useNow(1000);
  if (starts.length === 0) return null;
  const earliest = starts[0]!;
  const latest = starts[starts.length - 1]!;
  return (
    <div class="countdown">
      {now < earliest ? (
        <p>
          {tNodes(
            'countdown_startsIn',
            <strong class="countdown-clock">{formatCountdown(earliest - now)}</strong>,
            formatClock(earliest, { seconds: true }),
          )}
        </p>
      ) : (
        <p>{t('countdown_passed', formatClock(earliest, { seconds: true }))}</p>
      )}
      {latest !== earliest ? (
        now < latest ? (
          <p>{t('countdown_nextMark', formatClock(latest), formatCountdown(latest - now))}</p>
        ) : (
          <p>{t('countdown_anyMoment')}</p>
        )
      ) : now >= earliest ? (
        <p>{t('countdown_anyMoment')}</p>
      ) : null}
    </div>
  );
}
