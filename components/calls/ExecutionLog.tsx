import { useState } from 'preact/hooks';
import type { ExecutionLogEntry } from '../../lib/api/schemas/execution';
import { t, uiLocale } from '../../lib/i18n';
import { formatDateTime } from '../../lib/ui/format';
import { logEntries, send } from '../../lib/ui/send';
import { ErrorMessage } from '../shared/Messages';

function logTime(at: string | null | undefined): string {
  if (!at) return '—';
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  return date.toLocaleTimeString(uiLocale(), { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** The service's step-by-step log of the call (transcriber, LLM, synthesizer…), loaded on demand. */
export function ExecutionLog({ executionId }: { executionId: string }) {
  const [entries, setEntries] = useState<ExecutionLogEntry[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = async () => {
    setLoading(true);
    setError(null);
    const reply = await send({ type: 'execution/log', executionId });
    setLoading(false);
    if (!reply.ok) setError(t('log_notLoaded', reply.error.message));
    else setEntries(logEntries(reply.data));
  };

  return (
    <section class="execution-log" aria-labelledby={`log-title-${executionId}`}>
      <h3 id={`log-title-${executionId}`}>{t('log_title')}</h3>
      {entries === null ? (
        <button type="button" class="secondary" onClick={load} disabled={loading}>
          {loading ? t('log_loading') : t('log_load')}
        </button>
      ) : entries.length === 0 ? (
        <p class="hint">{t('log_empty')}</p>
      ) : (
        <ol class="log-entries">
          {entries.map((entry, i) => (
            <li key={i} class="log-entry">
              <p class="log-meta">
                <time dateTime={entry.created_at ?? undefined} title={entry.created_at ? formatDateTime(entry.created_at) : undefined}>
                  {logTime(entry.created_at)}
                </time>
                {' · '}
                <span class="log-component">
                  {entry.provider
                    ? t('log_componentWithProvider', entry.component ?? t('log_unknownComponent'), entry.provider)
                    : (entry.component ?? t('log_unknownComponent'))}
                </span>
                {' · '}
                <span class="log-type">{entry.type ?? t('log_entry')}</span>
              </p>
              <p class="log-text">{entry.data ?? ''}</p>
              {entry.reasoning_content ? <p class="log-text log-reasoning">{t('log_reasoning', entry.reasoning_content)}</p> : null}
            </li>
          ))}
        </ol>
      )}
      <ErrorMessage>{error}</ErrorMessage>
    </section>
  );
}
