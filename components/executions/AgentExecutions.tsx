import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ExecutionPage } from '../../lib/api/schemas/execution';
import { t, uiLocale } from '../../lib/i18n';
import { defaultFilter, filterToQuery, type ExecutionFilter, type ExecutionQuery } from '../../lib/executions/filter';
import { pageCount } from '../../lib/executions/page';
import type { BatchChoice } from '../../lib/requests/executions';
import { send } from '../../lib/ui/send';
import { AgentPicker, useAgents } from '../agents/AgentPicker';
import { ErrorMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { ExecutionFilters } from './ExecutionFilters';
import { ExecutionsExport } from './ExecutionsExport';
import { ExecutionsTable } from './ExecutionsTable';

export const PAGE_SIZE = 20;

const count = (n: number) => new Intl.NumberFormat(uiLocale()).format(n);

const matchText = (total: number) =>
  t(new Intl.PluralRules(uiLocale()).select(total) === 'one' ? 'executions_matchOne' : 'executions_matchOther', count(total));

/** The agent's batches for the batch filter; none when the service cannot list them. */
function useBatches(agentId: string): BatchChoice[] {
  const [batches, setBatches] = useState<BatchChoice[]>([]);
  useEffect(() => {
    setBatches([]);
    if (!agentId) return;
    let live = true;
    void send({ type: 'executions/batches', agentId }).then((reply) => live && reply.ok && Array.isArray(reply.data) && setBatches(reply.data));
    return () => {
      live = false;
    };
  }, [agentId]);
  return batches;
}

/** An agent's executions from the service, filtered and page by page; each opens its details; the list exports as CSV. */
export function AgentExecutions({ agentId, onAgentChange, openExecution }: SectionProps) {
  const initial = useMemo(() => {
    const filter = defaultFilter(Date.now());
    const result = filterToQuery(filter);
    return { filter, query: (result.ok ? result.query : null) as ExecutionQuery };
  }, []);
  const [filter, setFilter] = useState<ExecutionFilter>(initial.filter);
  const [query, setQuery] = useState<ExecutionQuery>(initial.query);
  const [pageNumber, setPageNumber] = useState(1);
  const [page, setPage] = useState<ExecutionPage | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const batches = useBatches(agentId);
  const { agents } = useAgents();
  const agentName = agents.find((a) => a.id === agentId)?.name ?? agentId;

  useEffect(() => {
    if (!agentId) {
      setPage(null);
      return;
    }
    let live = true;
    setLoading(true);
    setError(null);
    void send({ type: 'executions/list', agentId, pageNumber, pageSize: PAGE_SIZE, ...query }).then((reply) => {
      if (!live) return;
      setLoading(false);
      if (reply.ok) setPage(reply.data);
      else setError(t('executions_notLoaded', reply.error.message));
    });
    return () => {
      live = false;
    };
  }, [agentId, pageNumber, query]);

  const pages = page ? pageCount(page) : null;
  return (
    <section class="agent-executions" aria-label={t('executions_label')}>
      <AgentPicker
        id="executions-agent"
        value={agentId}
        refreshOnMount={false}
        onChange={(id) => {
          onAgentChange(id);
          setPageNumber(1);
        }}
      />
      {agentId ? (
        <ExecutionFilters
          initial={filter}
          batches={batches}
          onApply={(next, nextQuery) => {
            setFilter(next);
            setQuery(nextQuery);
            setPageNumber(1);
          }}
        />
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <p class="hint" role="status" aria-live="polite">
        {!agentId
          ? t('executions_chooseAgent')
          : loading
            ? t('executions_loading')
            : page
              ? matchText(page.total)
              : ''}
      </p>
      {page && agentId ? (
        page.data.length === 0 ? (
          <p class="hint">{t('executions_noneMatch')}</p>
        ) : (
          <ExecutionsTable executions={page.data} pageNumber={pageNumber} batches={batches} openExecution={openExecution} />
        )
      ) : null}
      {agentId ? (
        <nav class="actions pager" aria-label={t('executions_pagesLabel')}>
          <button type="button" class="secondary small" disabled={pageNumber <= 1 || loading} onClick={() => setPageNumber((n) => n - 1)}>
            {t('executions_previous')}
          </button>
          <span>{pages ? t('executions_pageOf', count(pageNumber), count(pages)) : t('executions_page', count(pageNumber))}</span>
          <button type="button" class="secondary small" disabled={!page?.has_more || loading} onClick={() => setPageNumber((n) => n + 1)}>
            {t('executions_next')}
          </button>
        </nav>
      ) : null}
      {agentId ? <ExecutionsExport agentId={agentId} agentName={agentName} filter={filter} query={query} /> : null}
    </section>
  );
}
