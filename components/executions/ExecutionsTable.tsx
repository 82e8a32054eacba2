import type { Execution } from '../../lib/api/schemas/execution';
import { t, uiLocale } from '../../lib/i18n';
import { statusText } from '../../lib/calls/status-text';
import type { BatchChoice } from '../../lib/requests/executions';
import { executionDuration } from '../../lib/executions/duration';
import { formatCents } from '../../lib/money';
import { formatDateTime, formatDuration } from '../../lib/ui/format';
import { TableFit } from '../shared/TableFit';

interface ExecutionsTableProps {
  executions: Execution[];
  pageNumber: number;
  batches: BatchChoice[];
  openExecution(executionId: string): void;
}

const count = (n: number) => new Intl.NumberFormat(uiLocale()).format(n);

/** One row per execution: when (opens it), the number called, status, duration, cost and batch. */
export function ExecutionsTable({ executions, pageNumber, batches, openExecution }: ExecutionsTableProps) {
  const batchName = (batchId: string | null | undefined) => {
    if (!batchId) return '—';
    return batches.find((b) => b.batchId === batchId)?.fileName || batchId;
  };
  return (
    // Six columns outgrow a narrow panel: there the rows stack (TableFit).
    <TableFit label={t('executions_tableLabel', count(pageNumber))}>
      <table class="executions">
        <caption class="visually-hidden">{t('executions_tableCaption', count(pageNumber))}</caption>
        <thead>
          <tr>
            <th scope="col">{t('executions_colTime')}</th>
            <th scope="col">{t('executions_colNumberCalled')}</th>
            <th scope="col">{t('executions_status')}</th>
            <th scope="col">{t('executions_colDuration')}</th>
            <th scope="col">{t('executions_colCost')}</th>
            <th scope="col">{t('executions_batch')}</th>
          </tr>
        </thead>
        <tbody>
          {executions.map((execution) => (
            <tr key={execution.id} data-execution-id={execution.id}>
              <td>
                <button type="button" class="link" onClick={() => openExecution(execution.id)} aria-label={t('executions_openExecution', formatDateTime(execution.created_at))}>
                  {formatDateTime(execution.created_at)}
                </button>
              </td>
              <td class="mono">{execution.telephony_data?.to_number ?? '—'}</td>
              <td>{statusText(execution.status)}</td>
              <td>{formatDuration(executionDuration(execution))}</td>
              <td>{formatCents(execution.total_cost)}</td>
              <td class="batch" title={execution.batch_id ?? undefined}>
                {batchName(execution.batch_id)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFit>
  );
}
