import { formatClock, formatCountdown } from '../../lib/ui/format';
import { useNow } from '../../lib/ui/hooks';

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
          Starts in <strong class="countdown-clock">{formatCountdown(earliest - now)}</strong> at the earliest ({formatClock(earliest, { seconds: true })}).
        </p>
      ) : (
        <p>The scheduled time ({formatClock(earliest, { seconds: true })}) has passed.</p>
      )}
      {latest !== earliest ? (
        now < latest ? (
          <p>
            The hosted service starts batches at the next 10-minute mark: about {formatClock(latest)} (in {formatCountdown(latest - now)}).
          </p>
        ) : (
          <p>The call should start any moment now; the service may take a little longer.</p>
        )
      ) : now >= earliest ? (
        <p>The call should start any moment now; the service may take a little longer.</p>
      ) : null}
    </div>
  );
}
