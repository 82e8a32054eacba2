import { useEffect, useRef, useState } from 'preact/hooks';
import type { Execution } from '../../lib/api/schemas/execution';
import { t, uiLocale } from '../../lib/i18n';
import { executionsCsv, executionsCsvName } from '../../lib/executions/csv';
import { collectAllPages, EXPORT_PAGE_SIZE, ExportCancelled, type ExportProgress } from '../../lib/executions/export';
import type { ExecutionFilter, ExecutionQuery } from '../../lib/executions/filter';
import { send } from '../../lib/ui/send';
import { ErrorMessage, StatusMessage } from '../shared/Messages';

interface ExecutionsExportProps {
  agentId: string;
  agentName: string;
  filter: ExecutionFilter;
  query: ExecutionQuery;
}

type ExportState =
  | { step: 'idle' }
  | { step: 'running'; progress: ExportProgress | null }
  | { step: 'ready'; url: string; fileName: string; count: number }
  | { step: 'cancelled' }
  | { step: 'failed'; message: string };

function progressText(progress: ExportProgress | null): string {
  if (!progress) return t('executions_exportFirstPage');
  const n = (x: number) => new Intl.NumberFormat(uiLocale()).format(x);
  return progress.pagesTotal
    ? t('executions_exportPageOf', n(progress.pagesDone), n(progress.pagesTotal), n(progress.executions))
    : t('executions_exportPage', n(progress.pagesDone), n(progress.executions));
}

/** Exports every page of the filtered list as CSV, with progress and a Cancel; the file comes as a download link. */
export function ExecutionsExport({ agentId, agentName, filter, query }: ExecutionsExportProps) {
  const [state, setState] = useState<ExportState>({ step: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const url = state.step === 'ready' ? state.url : null;

  // The file's memory goes with the link: a new export or leaving the section frees it.
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  useEffect(() => () => controller.current?.abort(), []);
  // A changed filter or agent makes a ready file stale.
  useEffect(() => {
    controller.current?.abort();
    setState({ step: 'idle' });
  }, [agentId, query]);

  const start = async () => {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ step: 'running', progress: null });
    try {
      const executions = await collectAllPages<Execution>(
        async (pageNumber) => {
          const reply = await send({ type: 'executions/list', agentId, pageNumber, pageSize: EXPORT_PAGE_SIZE, ...query });
          if (!reply.ok) throw new Error(reply.error.message);
          return reply.data;
        },
        { signal: abort.signal, onProgress: (progress) => !abort.signal.aborted && setState({ step: 'running', progress }) },
      );
      const blob = new Blob([executionsCsv(executions)], { type: 'text/csv;charset=utf-8' });
      setState({ step: 'ready', url: URL.createObjectURL(blob), fileName: executionsCsvName(agentName, filter.fromDate, filter.toDate), count: executions.length });
    } catch (error) {
      if (error instanceof ExportCancelled) setState({ step: 'cancelled' });
      else setState({ step: 'failed', message: t('executions_exportFailed', error instanceof Error ? error.message : String(error)) });
    }
  };

  return (
    <div class="executions-export">
      <div class="actions">
        {state.step === 'running' ? (
          <button type="button" class="secondary small" onClick={() => controller.current?.abort()}>
            {t('executions_cancelExport')}
          </button>
        ) : (
          <button type="button" class="secondary small" onClick={() => void start()}>
            {t('executions_exportCsv')}
          </button>
        )}
        {state.step === 'ready' ? (
          <a href={state.url} download={state.fileName}>
            {t('executions_download', state.fileName)}
          </a>
        ) : null}
      </div>
      <StatusMessage>
        {state.step === 'running'
          ? progressText(state.progress)
          : state.step === 'ready'
            ? t(
                new Intl.PluralRules(uiLocale()).select(state.count) === 'one' ? 'executions_exportReadyOne' : 'executions_exportReadyOther',
                new Intl.NumberFormat(uiLocale()).format(state.count),
              )
            : state.step === 'cancelled'
              ? t('executions_exportCancelled')
              : ''}
      </StatusMessage>
      <ErrorMessage>{state.step === 'failed' ? state.message : null}</ErrorMessage>
    </div>
  );
}
