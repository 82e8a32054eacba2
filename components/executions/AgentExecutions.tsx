import { useEffect, useState } from 'preact/hooks';
import type { ExecutionPage } from '../../lib/api/schemas/execution';
import { statusLabel } from '../../lib/calls/status';
import { executionDuration, formatDateTime, formatDuration } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { AgentPicker } from '../agents/AgentPicker';
import { ErrorMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';

const PAGE_SIZE = 20;

/** An agent's executions from the service, page by page; each opens its details. */
export function AgentExecutions({ agentId, onAgentChange, openExecution }: SectionProps) {
  const [pageNumber, setPageNumber] = useState(1);
  const [page, setPage] = useState<ExecutionPage | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!agentId) {
      setPage(null);
      return;
    }
    let live = true;
    setLoading(true);
    setError(null);
    void send({ type: 'agent/executions', agentId, pageNumber, pageSize: PAGE_SIZE }).then((reply) => {
      if (!live) return;
      setLoading(false);
      if (reply.ok) setPage(reply.data);
      else setError(`The executions could not be loaded: ${reply.error.message}`);
    });
    return () => {
      live = false;
    };
  }, [agentId, pageNumber]);

  const pages = page && page.total > 0 ? Math.max(1, Math.ceil(page.total / (page.page_size || PAGE_SIZE))) : null;
  return (
    <section class="agent-executions" aria-label="Agent executions">
      <AgentPicker
        id="executions-agent"
        value={agentId}
        refreshOnMount={false}
        onChange={(id) => {
          onAgentChange(id);
          setPageNumber(1);
        }}
      />
      <ErrorMessage>{error}</ErrorMessage>
      <p class="hint" role="status" aria-live="polite">
        {!agentId ? 'Choose an agent to see its recent calls.' : loading ? 'Loading executions…' : ''}
      </p>
      {page && agentId ? (
        page.data.length === 0 ? (
          <p class="hint">No executions on this page.</p>
        ) : (
          <table class="executions">
            <caption class="visually-hidden">Executions of the agent, page {pageNumber}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((execution) => (
                <tr key={execution.id}>
                  <td>
                    <button type="button" class="link" onClick={() => openExecution(execution.id)} aria-label={`Open execution of ${formatDateTime(execution.created_at)}`}>
                      {formatDateTime(execution.created_at)}
                    </button>
                  </td>
                  <td>{statusLabel(execution.status)}</td>
                  <td>{formatDuration(executionDuration(execution))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      {agentId ? (
        <div class="actions pager">
          <button type="button" class="secondary small" disabled={pageNumber <= 1 || loading} onClick={() => setPageNumber((n) => n - 1)}>
            Previous
          </button>
          <span>
            Page {pageNumber}
            {pages ? ` of ${pages}` : ''}
          </span>
          <button type="button" class="secondary small" disabled={!page?.has_more || loading} onClick={() => setPageNumber((n) => n + 1)}>
            Next
          </button>
        </div>
      ) : null}
    </section>
  );
}
