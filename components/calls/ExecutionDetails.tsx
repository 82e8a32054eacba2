import { useEffect, useState } from 'preact/hooks';
import type { Execution } from '../../lib/api/schemas/execution';
import { t } from '../../lib/i18n';
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
      else setError(t('execution_notLoaded', reply.error.message));
    });
    return () => {
      live = false;
    };
  }, [executionId]);
  return (
    <section class="execution-details" aria-label={t('execution_detailsLabel')}>
      <button type="button" class="secondary small" onClick={onBack}>
        {t('execution_backToList')}
      </button>
      <ErrorMessage>{error}</ErrorMessage>
      {execution ? (
        <ExecutionResults execution={execution} onReload={reload} reloading={reloading} reloadError={reloadError} />
      ) : error ? null : (
        <p class="hint" role="status">
          {t('execution_loading')}
        </p>
      )}
    </section>
  );
}
