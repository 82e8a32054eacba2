import { useState } from 'preact/hooks';
import type { Batch } from '../../lib/api/schemas/batch';
import { liveStartTime } from '../../lib/api/schedule';
import { batchStatusLabel, canSchedule, canStop, isBatchActive, statusCounts } from '../../lib/batches/status';
import { formatDateTime } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import { BatchExecutions } from './BatchExecutions';
import { Confirm } from './Confirm';
import { SchedulePicker } from './SchedulePicker';
import { useBatchExecutions } from './useBatches';

/** How a batch is named to a person: its file and when it was made. */
export function batchName(batch: Batch): string {
  const file = batch.file_name || batch.batch_id;
  return batch.created_at ? `“${file}” of ${formatDateTime(batch.created_at)}` : `“${file}”`;
}

function ScheduledAt({ at }: { at: string }) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return <>{at}</>;
  const start = liveStartTime(date);
  return (
    <>
      {formatDateTime(date.getTime())}
      {start.getTime() !== date.getTime() ? ` (the hosted service starts it at ${formatDateTime(start.getTime())})` : ''}
    </>
  );
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
      setError(action === 'stop' ? `The batch was not stopped: ${reply.error.message}` : `The batch was not deleted: ${reply.error.message}`);
      return;
    }
    setDone(action === 'stop' ? `The batch ${name} was stopped.` : '');
    if (action === 'delete') onClose();
    onChanged();
  };

  return (
    <section class="batch-details" aria-labelledby="batch-details-title">
      <button type="button" class="secondary small" onClick={onClose}>
        Back to the batches
      </button>
      <h2 id="batch-details-title">{`Batch ${name}`}</h2>
      <p class="batch-status" role="status" aria-live="polite">
        {`Status: ${batchStatusLabel(batch.status)}.`}
      </p>
      <dl class="details">
        <div class="details-row">
          <dt>Contacts</dt>
          <dd>{batch.total_contacts ?? batch.valid_contacts ?? '—'}</dd>
        </div>
        {batch.scheduled_at ? (
          <div class="details-row">
            <dt>Scheduled for</dt>
            <dd>
              <ScheduledAt at={batch.scheduled_at} />
            </dd>
          </div>
        ) : null}
        <div class="details-row">
          <dt>Batch id</dt>
          <dd>{batch.batch_id}</dd>
        </div>
      </dl>
      {counts.length ? (
        <ul class="plain batch-counts" aria-label="Calls by status">
          {counts.map((c) => (
            <li key={c.status}>{`${c.label}: ${c.count}`}</li>
          ))}
        </ul>
      ) : null}
      {canSchedule(batch.status) ? <SchedulePicker batchId={batch.batch_id} onScheduled={onChanged} /> : null}
      {asking === 'stop' ? (
        <Confirm id="batch-stop-question" confirmLabel="Stop batch" busy={busy} onConfirm={() => void act('stop')} onCancel={() => cancel('batch-stop')}>
          {`Stop the batch ${name}? Calls not yet placed are cancelled; a stopped batch cannot be started again.`}
        </Confirm>
      ) : asking === 'delete' ? (
        <Confirm id="batch-delete-question" confirmLabel="Delete batch" busy={busy} onConfirm={() => void act('delete')} onCancel={() => cancel('batch-delete')}>
          {`Delete the batch ${name}? ${isBatchActive(batch.status) ? 'Its calls not yet placed are cancelled. ' : ''}The batch is removed from the service; its calls stay in the executions.`}
        </Confirm>
      ) : (
        <div class="actions">
          {canStop(batch.status) ? (
            <button type="button" id="batch-stop" class="secondary" onClick={() => setAsking('stop')}>
              Stop…
            </button>
          ) : null}
          <button type="button" id="batch-delete" class="secondary" onClick={() => setAsking('delete')}>
            Delete…
          </button>
        </div>
      )}
      <StatusMessage>{done}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <ErrorMessage>{executionsError}</ErrorMessage>
      {executions ? <BatchExecutions executions={executions} openExecution={openExecution} /> : <p class="hint">Loading the calls…</p>}
    </section>
  );
}
