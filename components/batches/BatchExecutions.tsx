import { statusText } from '../../lib/calls/status-text';
import type { BatchExecutionRow } from '../../lib/requests/batches';
import { t } from '../../lib/i18n';
import { formatCents } from '../../lib/money';
import { formatDuration } from '../../lib/ui/format';
import { TableFit } from '../shared/TableFit';

/** A batch's calls: number, status, duration, cost; each opens in the call view. */
export function BatchExecutions({ executions, openExecution }: { executions: BatchExecutionRow[]; openExecution(id: string): void }) {
  if (executions.length === 0) return <p class="hint">{t('batches_noCallsYet')}</p>;
  return (
    <TableFit>
      <table class="batch-executions">
        <caption>{t('batches_callsCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('batches_colNumber')}</th>
            <th scope="col">{t('batches_colStatus')}</th>
            <th scope="col">{t('batches_colDuration')}</th>
            <th scope="col">{t('batches_colCost')}</th>
          </tr>
        </thead>
        <tbody>
          {executions.map((execution) => (
            <tr key={execution.id}>
              <td>
                <button type="button" class="link" onClick={() => openExecution(execution.id)} aria-label={t('batches_openCall', execution.to_number ?? execution.id)}>
                  {execution.to_number ?? execution.id}
                </button>
              </td>
              <td>{statusText(execution.status)}</td>
              <td class="num">{formatDuration(execution.duration)}</td>
              <td class="num">{formatCents(execution.total_cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFit>
  );
}
