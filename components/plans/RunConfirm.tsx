import { useEffect, useState } from 'preact/hooks';
import type { RunPreview } from '../../lib/requests/plans';
import { formatCents } from '../../lib/money';
import { formatClock } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import { t, uiLocale } from '../../lib/i18n';
import { num, plural } from './plural';

interface RunConfirmProps {
  planId: string;
  planName: string;
  onStarted(runId: string): void;
  onCancel(): void;
}

/** Running a plan places real calls: say how many, to which numbers, what they may cost and when they start, then ask. */
export function RunConfirm({ planId, planName, onStarted, onCancel }: RunConfirmProps) {
  const [preview, setPreview] = useState<RunPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  // Chosen once: a double click or a retry after a lost answer starts the same run.
  const [runId] = useState(() => crypto.randomUUID());

  useEffect(() => {
    void send({ type: 'plans/preview-run', planId }).then((reply) => {
      if (reply.ok) setPreview(reply.data);
      else setError(reply.error.message);
    });
  }, [planId]);

  const start = async () => {
    setStarting(true);
    const reply = await send({ type: 'plans/run', planId, runId });
    setStarting(false);
    if (reply.ok) onStarted(reply.data.runId);
    else setError(reply.error.message);
  };

  const seconds = preview ? Math.max(0, Math.round((preview.startsAt - Date.now()) / 1000)) : 0;
  return (
    <section class="plans-confirm" aria-label={t('plans_confirmRun')}>
      <h3>{t('plans_runQuestion', planName)}</h3>
      {!preview && !error ? <StatusMessage>{t('plans_preparing')}</StatusMessage> : null}
      {preview ? (
        <>
          <p>
            {plural(preview.calls, 'plans_placesCallsOne', 'plans_placesCallsOther', preview.service)}
          </p>
          <ul class="plans-numbers">
            {preview.numbers.map((n) => (
              <li key={n} class="mono">
                {n}
              </li>
            ))}
          </ul>
          <p>
            {preview.estimate
              ? t('plans_estimate', formatCents(preview.estimate.cents), num(preview.estimate.basedOn))
              : preview.estimateError
                ? t('plans_noEstimateError', preview.estimateError)
                : t('plans_noEstimate')}
          </p>
          <p>
            {plural(
              seconds,
              'plans_startsAtOne',
              'plans_startsAtOther',
              formatClock(preview.startsAt, { seconds: true, locale: uiLocale() }),
              formatClock(preview.liveStartsAt, { locale: uiLocale() }),
            )}
          </p>
        </>
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="button" class="primary" onClick={start} disabled={!preview || starting}>
          {preview ? plural(preview.calls, 'plans_placeCountOne', 'plans_placeCountOther') : t('plans_placeCalls')}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {t('plans_cancel')}
        </button>
      </div>
    </section>
  );
}
