import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { AgentSummary, AgentsView } from '../../lib/messages';
import { send } from '../../lib/ui/send';
import { useStore } from '../../lib/ui/store';
import { ErrorMessage } from '../shared/Messages';

/** The agents to offer: the stored cache for the current base URL, else the last reply. */
export function useAgents(): { agents: AgentSummary[]; listRouteMissing: boolean; fetchedAt: number | null; setView(view: AgentsView): void } {
  const store = useStore();
  const [view, setView] = useState<AgentsView | null>(null);
  const cache = store.agentsCache.value;
  const baseUrl = store.settings.value.baseUrl;
  const fromCache = cache && (!cache.baseUrl || cache.baseUrl === baseUrl) ? cache : null;
  const source = fromCache ?? view;
  return {
    agents: source?.agents ?? [],
    listRouteMissing: source?.listRouteMissing ?? false,
    fetchedAt: source?.fetchedAt ?? null,
    setView,
  };
}

export function agentLabel(agent: AgentSummary, all: AgentSummary[]): string {
  const twin = all.some((a) => a !== agent && a.name === agent.name);
  return twin ? t('agents_nameWithId', agent.name, agent.id.slice(0, 8)) : agent.name || agent.id;
}

interface AgentPickerProps {
  id?: string;
  value: string;
  onChange(agentId: string): void;
  /** Ask the background for a fresh list once mounted (the cache renders first). */
  refreshOnMount?: boolean;
}

export function AgentPicker({ id = 'agent', value, onChange, refreshOnMount = true }: AgentPickerProps) {
  const { agents, listRouteMissing, setView } = useAgents();
  const [refreshing, setRefreshing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [manualId, setManualId] = useState('');
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);

  const refresh = async (fresh: boolean) => {
    setRefreshing(true);
    const reply = await send({ type: 'agents/list', refresh: fresh });
    setRefreshing(false);
    if (!reply.ok) {
      setError(reply.error.message);
      return;
    }
    setView(reply.data);
    setError(reply.data.refreshError ? t('agents_listNotRefreshed', reply.data.refreshError) : null);
  };

  useEffect(() => {
    if (refreshOnMount) void refresh(true);
  }, []);

  const addById = async () => {
    const agentId = manualId.trim();
    if (!agentId) {
      setAddError(t('agents_enterAgentId'));
      return;
    }
    setAdding(true);
    const reply = await send({ type: 'agents/add-by-id', agentId });
    setAdding(false);
    if (!reply.ok) {
      setAddError(reply.error.message);
      return;
    }
    setAddError(null);
    setManualId('');
    await refresh(false);
    onChange(agentId);
  };

  const selected = agents.find((a) => a.id === value);
  const hintId = `${id}-hint`;
  return (
    <div class="field agent-picker">
      <label for={id}>{t('agents_agent')}</label>
      <div class="row">
        <select
          id={id}
          value={value}
          aria-describedby={hintId}
          onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}
        >
          <option value="">{agents.length ? t('agents_chooseAgent') : t('agents_noAgentsYet')}</option>
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agentLabel(agent, agents)}
            </option>
          ))}
          {value && !selected ? <option value={value}>{value}</option> : null}
        </select>
        <button type="button" class="secondary" onClick={() => refresh(true)} disabled={refreshing}>
          {t('agents_refresh')}
        </button>
      </div>
      <p class="hint" id={hintId} aria-live="polite">
        {refreshing ? t('agents_refreshingList') : selected?.status ? t('agents_statusIs', selected.status) : ''}
      </p>
      <ErrorMessage>{error}</ErrorMessage>
      {listRouteMissing ? (
        <div class="add-agent">
          <p class="hint">{t('agents_cannotList')}</p>
          <label for={`${id}-manual`}>{t('agents_agentId')}</label>
          <div class="row">
            <input
              id={`${id}-manual`}
              type="text"
              value={manualId}
              spellcheck={false}
              autocomplete="off"
              onInput={(e) => setManualId((e.currentTarget as HTMLInputElement).value)}
            />
            <button type="button" class="secondary" onClick={addById} disabled={adding}>
              {t('agents_addAgent')}
            </button>
          </div>
          <ErrorMessage>{addError}</ErrorMessage>
        </div>
      ) : null}
    </div>
  );
}
