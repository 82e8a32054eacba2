import { statusLabel } from '../../lib/calls/status';
import type { BatchExecutionRow } from '../../lib/requests/batches';
import { formatCents, formatDuration } from '../../lib/ui/format';

/** A batch's calls: number, status, duration, cost; each opens in the call view. */
export function BatchExecutions({ executions, openExecution }: { executions: BatchExecutionRow[]; openExecution(id: string): void }) {
  if (executions.length === 0) return <p class="hint">This batch has no calls yet.</p>;
  return (
    <div class="table-scroll">
      <table class="batch-executions">
        <caption>Calls of the batch</caption>
        <thead>
          <tr>
            <th scope="col">Number</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {executions.map((execution) => (
            <tr key={execution.id}>
              <td>
                <button type="button" class="link" onClick={() => openExecution(execution.id)} aria-label={`Open the call to ${execution.to_number ?? execution.id}`}>
                  {execution.to_number ?? execution.id}
                </button>
              </td>
              <td>{statusLabel(execution.status)}</td>
              <td class="num">{formatDuration(execution.duration)}</td>
              <td class="num">{formatCents(execution.total_cost, 'USD', navigator.language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
