import type { Batch } from '../../lib/api/schemas/batch';
import { batchStatusLabel, statusCounts } from '../../lib/batches/status';
import { t, uiLocale } from '../../lib/i18n';
import { formatDateTime } from '../../lib/ui/format';
import { EmptyState } from '../shared/EmptyState';
import { TableFit } from '../shared/TableFit';

/** The agent's batches: file, status, calls by status, creation time; each opens its details. */
export function BatchList({ batches, onOpen }: { batches: Batch[]; onOpen(batchId: string): void }) {
  if (batches.length === 0) return <EmptyState text={t('batches_noBatchesYet')} action={t('batches_callAList')} focusId="batch-file" />;
  return (
    <TableFit>
      <table class="batches">
        <caption class="visually-hidden">{t('batches_listCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('batches_colFile')}</th>
            <th scope="col">{t('batches_colStatus')}</th>
            <th scope="col">{t('batches_colCalls')}</th>
            <th scope="col">{t('batches_colCreated')}</th>
          </tr>
        </thead>
        <tbody>
          {batches.map((batch) => (
            <tr key={batch.batch_id}>
              <td>
                <button type="button" class="link" onClick={() => onOpen(batch.batch_id)}>
                  {batch.file_name || batch.batch_id}
                </button>
              </td>
              <td>{batchStatusLabel(batch.status)}</td>
              <td>
                <ul class="plain">
                  {statusCounts(batch.execution_status).map((c) => (
                    <li key={c.status}>{t('batches_statusCount', c.label, c.count.toLocaleString(uiLocale()))}</li>
                  ))}
                </ul>
              </td>
              <td>{formatDateTime(batch.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFit>
  );
}
