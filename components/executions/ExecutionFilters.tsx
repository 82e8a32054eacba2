import { useState } from 'preact/hooks';
import { EXECUTION_STATUSES } from '../../lib/api/status-vocabulary';
import { statusText } from '../../lib/calls/status-text';
import { t, uiLocale } from '../../lib/i18n';
import { filterToQuery, MAX_WINDOW_DAYS, type ExecutionFilter, type ExecutionQuery } from '../../lib/executions/filter';
import type { BatchChoice } from '../../lib/requests/executions';
import { formatDateTime } from '../../lib/ui/format';
import { ErrorMessage } from '../shared/Messages';

interface ExecutionFiltersProps {
  initial: ExecutionFilter;
  batches: BatchChoice[];
  onApply(filter: ExecutionFilter, query: ExecutionQuery): void;
}

export function batchLabel(batch: BatchChoice): string {
  const name = batch.fileName || batch.batchId;
  return batch.createdAt ? t('executions_batchWithDate', name, formatDateTime(batch.createdAt)) : name;
}

/**
 * Status, batch and date range. What is typed stays in the form until it is applied; a range the service would
 * refuse (over 7 days, end before start) is refused here with the reason, and the list keeps its last filter.
 */
export function ExecutionFilters({ initial, batches, onApply }: ExecutionFiltersProps) {
  const [draft, setDraft] = useState<ExecutionFilter>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (patch: Partial<ExecutionFilter>) => setDraft((d) => ({ ...d, ...patch }));
  const knownBatch = !draft.batchId || batches.some((b) => b.batchId === draft.batchId);

  const apply = (event: Event) => {
    event.preventDefault();
    const result = filterToQuery(draft);
    if (!result.ok) {
      setProblem(result.message);
      return;
    }
    setProblem(null);
    onApply(draft, result.query);
  };

  return (
    <form class="execution-filters" onSubmit={apply} aria-label={t('executions_filterLabel')}>
      <div class="field">
        <label for="executions-status">{t('executions_status')}</label>
        <select id="executions-status" value={draft.status} onChange={(e) => set({ status: e.currentTarget.value })}>
          <option value="">{t('executions_allStatuses')}</option>
          {EXECUTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {statusText(status)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="executions-batch">{t('executions_batch')}</label>
        <select id="executions-batch" value={draft.batchId} onChange={(e) => set({ batchId: e.currentTarget.value })}>
          <option value="">{t('executions_allBatches')}</option>
          {batches.map((batch) => (
            <option key={batch.batchId} value={batch.batchId}>
              {batchLabel(batch)}
            </option>
          ))}
          {knownBatch ? null : <option value={draft.batchId}>{draft.batchId}</option>}
        </select>
      </div>
      <fieldset class="date-range">
        <legend>{t('executions_datesAtMost', new Intl.NumberFormat(uiLocale()).format(MAX_WINDOW_DAYS))}</legend>
        <div class="field">
          <label for="executions-from">{t('executions_from')}</label>
          <input
            id="executions-from"
            type="date"
            value={draft.fromDate}
            aria-invalid={problem ? 'true' : undefined}
            aria-describedby={problem ? 'executions-filter-problem' : undefined}
            onInput={(e) => set({ fromDate: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="executions-to">{t('executions_to')}</label>
          <input
            id="executions-to"
            type="date"
            value={draft.toDate}
            aria-invalid={problem ? 'true' : undefined}
            aria-describedby={problem ? 'executions-filter-problem' : undefined}
            onInput={(e) => set({ toDate: e.currentTarget.value })}
          />
        </div>
      </fieldset>
      <ErrorMessage id="executions-filter-problem">{problem}</ErrorMessage>
      <div class="actions">
        <button type="submit" class="secondary small">
          {t('executions_applyFilters')}
        </button>
      </div>
    </form>
  );
}
