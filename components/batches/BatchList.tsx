import type { Batch } from '../../lib/api/schemas/batch';
import { batchStatusLabel, statusCounts } from '../../lib/batches/status';
import { formatDateTime } from '../../lib/ui/format';

/** The agent's batches: file, status, calls by status, creation time; each opens its details. */
export function BatchList({ batches, onOpen }: { batches: Batch[]; onOpen(batchId: string): void }) {
  if (batches.length === 0) return <p class="hint">This agent has no batches yet.</p>;
  return (
    <div class="table-scroll">
      <table class="batches">
        <caption class="visually-hidden">Batches of the agent</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Status</th>
            <th scope="col">Calls</th>
            <th scope="col">Created</th>
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
                    <li key={c.status}>{`${c.label}: ${c.count}`}</li>
                  ))}
                </ul>
              </td>
              <td>{formatDateTime(batch.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
