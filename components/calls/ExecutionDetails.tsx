import { useEffect, useState } from 'preact/hooks';
import type { Execution } from '../../lib/api/schemas/execution';
import { send } from '../../lib/ui/send';
import { ErrorMessage } from '../shared/Messages';
import { useReloadedExecution } from './CallView';
import { ExecutionResults } from './ExecutionResults';

/** One execution of the service, read in full, in the call view's results (any execution, not only a call of the history). */
export function ExecutionDetails({ executionId, onBack }: { executionId: string; onBack(): void }) {
  const [loaded, setLoaded] = useState<Execution | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { execution, reload, reloading, reloadError } = useReloadedExecution(executionId, loaded);
  useEffect(() => {
    let live = true;
    setLoaded(null);
    setError(null);
    void send({ type: 'execution/get', executionId }).then((reply) => {
      if (!live) return;
      if (reply.ok) setLoaded(reply.data);
      else setError(`The execution could not be loaded: ${reply.error.message}`);
    });
    return () => {
      live = false;
    };
  }, [executionId]);
  return (
    <section class="execution-details" aria-label="Execution details">
      <button type="button" class="secondary small" onClick={onBack}>
        Back to the list
      </button>
      <ErrorMessage>{error}</ErrorMessage>
      {execution ? (
        <ExecutionResults execution={execution} onReload={reload} reloading={reloading} reloadError={reloadError} />
      ) : error ? null : (
        <p class="hint" role="status">
          Loading the execution…
        </p>
      )}
    </section>
  );
}
