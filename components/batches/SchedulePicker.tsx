import { useState } from 'preact/hooks';
import { checkPick, defaultPickerValue, timeZoneText } from '../../lib/batches/schedule';
import { t } from '../../lib/i18n';
import { formatDateTime } from '../../lib/ui/format';
import { useNow } from '../../lib/ui/hooks';
import { send } from '../../lib/ui/send';
import { ErrorMessage } from '../shared/Messages';

/** When a batch starts: a local date-time, its time zone, the real start, and the service's rules checked before sending. */
export function SchedulePicker({ batchId, onScheduled }: { batchId: string; onScheduled(): void }) {
  const now = useNow(15_000);
  const [value, setValue] = useState(() => defaultPickerValue(new Date()));
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const pick = checkPick(value, new Date(now));
  const zoneAt = pick.ok ? pick.at : new Date(now);

  const schedule = async () => {
    const checked = checkPick(value, new Date());
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setSending(true);
    setError(null);
    const reply = await send({ type: 'batches/schedule', batchId, scheduledAt: checked.scheduledAt });
    setSending(false);
    if (!reply.ok) setError(t('batches_notScheduled', reply.error.message));
    else onScheduled();
  };

  return (
    <form
      class="batch-schedule"
      onSubmit={(e) => {
        e.preventDefault();
        void schedule();
      }}
    >
      <div class="field">
        <label for="batch-start">{t('batches_startLabel')}</label>
        <input
          id="batch-start"
          type="datetime-local"
          value={value}
          aria-describedby="batch-start-zone batch-start-real"
          aria-invalid={error ? 'true' : undefined}
          onInput={(e) => {
            setValue((e.currentTarget as HTMLInputElement).value);
            setError(null);
          }}
        />
        <p class="hint" id="batch-start-zone">{t('batches_timeZone', timeZoneText(zoneAt))}</p>
        <p class="hint" id="batch-start-real" aria-live="polite">
          {pick.ok
            ? pick.startsAt.getTime() === pick.at.getTime()
              ? t('batches_callsBeginAt', formatDateTime(pick.startsAt.getTime()))
              : t('batches_startsAtNextMark', formatDateTime(pick.startsAt.getTime()))
            : t('batches_startTooSoon')}
        </p>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={sending}>
          {t('batches_schedule')}
        </button>
      </div>
      <ErrorMessage>{error}</ErrorMessage>
    </form>
  );
}
