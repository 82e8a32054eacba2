import { useState } from 'preact/hooks';
import type { Batch } from '../../lib/api/schemas/batch';
import { liveStartTime } from '../../lib/api/schedule';
import { batchStatusLabel, canSchedule, canStop, isBatchActive, statusCounts } from '../../lib/batches/status';
import { t, uiLocale } from '../../lib/i18n';
import { formatDateTime } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import { BatchExecutions } from './BatchExecutions';
import { Confirm } from './Confirm';
import { SchedulePicker } from './SchedulePicker';
import { useBatchExecutions } from './useBatches';
import { ShortValue } from '../shared/ShortValue';

/** How a batch is named to a person: its file and when it was made. */
export function batchName(batch: Batch): string {
  const file = batch.file_name || batch.batch_id;
  return batch.created_at ? t('batches_nameWithDate', file, formatDateTime(batch.created_at)) : t('batches_name', file);
}

function ScheduledAt({ at }: { at: string }) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return <>{at}</>;
  const start = liveStartTime(date);
  return <>{start.getTime() !== date.getTime() ? t('batches_scheduledAtStartsAt', formatDateTime(date.getTime()), formatDateTime(start.getTime())) : formatDateTime(date.getTime())}</>;
}

interface Props {
  batch: Batch;
  /** The list's answer count: while the batch runs, each new answer loads its calls again. */
  version: number;
  onChanged(): void;
  onClose(): void;
  openExecution(executionId: string): void;
}

/** One batch: status and counts, schedule, stop, delete, and its calls. */
export function BatchDetails({ batch, version, onChanged, onClose, openExecution }: Props) {
  const [asking, setAsking] = useState<'stop' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const { executions, error: executionsError } = useBatchExecutions(batch.batch_id, isBatchActive(batch.status) ? version : batch.status);
  const counts = statusCounts(batch.execution_status);
  const name = batchName(batch);

  /** Cancel gives the focus back to the button that asked, for keyboard users. */
  const cancel = (trigger: string) => {
    setAsking(null);
    requestAnimationFrame(() => document.getElementById(trigger)?.focus());
  };

  const act = async (action: 'stop' | 'delete') => {
    setBusy(true);
    setError(null);
    const reply = await send({ type: action === 'stop' ? 'batches/stop' : 'batches/delete', batchId: batch.batch_id });
    setBusy(false);
    setAsking(null);
    if (!reply.ok) {
      setError(action === 'stop' ? t('batches_notStopped', reply.error.message) : t('batches_notDeleted', reply.error.message));
      return;
    }
    // Not yet confirmed by the service: the background keeps trying until it is.
    const stopping = action === 'stop' && 'stopping' in reply.data && reply.data.stopping;
    setDone(action === 'stop' ? (stopping ? t('batches_stopping', name) : t('batches_wasStopped', name)) : '');
    if (action === 'delete') onClose();
    onChanged();
  };

  return (
    <section class="batch-details" aria-labelledby="batch-details-title">
      <button type="button" class="secondary small" onClick={onClose}>
        {t('batches_backToList')}
      </button>
      <h2 id="batch-details-title">{t('batches_detailsTitle', name)}</h2>
      <p class="batch-status" role="status" aria-live="polite">
        {t('batches_statusLine', batchStatusLabel(batch.status))}
      </p>
      <dl class="details">
        <div class="details-row">
          <dt>{t('batches_contacts')}</dt>
          <dd>{(batch.total_contacts ?? batch.valid_contacts)?.toLocaleString(uiLocale()) ?? '—'}</dd>
        </div>
        {batch.scheduled_at ? (
          <div class="details-row">
            <dt>{t('batches_scheduledFor')}</dt>
            <dd>
              <ScheduledAt at={batch.scheduled_at} />
            </dd>
          </div>
        ) : null}
        <div class="details-row">
          <dt>{t('batches_batchId')}</dt>
          <dd>
            <ShortValue value={batch.batch_id} name={t('batches_batchId')} />
          </dd>
        </div>
      </dl>
      {counts.length ? (
        <ul class="plain batch-counts" aria-label={t('batches_callsByStatus')}>
          {counts.map((c) => (
            <li key={c.status}>{t('batches_statusCount', c.label, c.count.toLocaleString(uiLocale()))}</li>
          ))}
        </ul>
      ) : null}
      {canSchedule(batch.status) ? <SchedulePicker batchId={batch.batch_id} onScheduled={onChanged} /> : null}
      {asking === 'stop' ? (
        <Confirm id="batch-stop-question" confirmLabel={t('batches_stopBatch')} busy={busy} onConfirm={() => void act('stop')} onCancel={() => cancel('batch-stop')}>
          {t('batches_stopQuestion', name)}
        </Confirm>
      ) : asking === 'delete' ? (
        <Confirm id="batch-delete-question" confirmLabel={t('batches_deleteBatch')} busy={busy} onConfirm={() => void act('delete')} onCancel={() => cancel('batch-delete')}>
          {isBatchActive(batch.status) ? t('batches_deleteQuestionActive', name) : t('batches_deleteQuestion', name)}
        </Confirm>
      ) : (
        <div class="actions">
          {canStop(batch.status) ? (
            <button type="button" id="batch-stop" class="secondary" onClick={() => setAsking('stop')}>
              {t('batches_stopAsk')}
            </button>
          ) : null}
          <button type="button" id="batch-delete" class="secondary" onClick={() => setAsking('delete')}>
            {t('batches_deleteAsk')}
          </button>
        </div>
      )}
      <StatusMessage>{done}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <ErrorMessage>{executionsError}</ErrorMessage>
      {executions ? <BatchExecutions executions={executions} openExecution={openExecution} /> : <p class="hint">{t('batches_loadingCalls')}</p>}
    </section>
  );
}
