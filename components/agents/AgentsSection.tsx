import { useEffect, useRef, useState } from 'preact/hooks';
import { agentTemplate, checkCreateDocument, checkReplaceDocument, documentText, duplicateDocument, replaceDocument } from '../../lib/agents/document';
import { agentChanges, editsFrom } from '../../lib/agents/edit';
import type { Agent, AgentCreateBody, AgentPatchBody, AgentReplaceBody } from '../../lib/api/schemas/agent';
import { t } from '../../lib/i18n';
import { send } from '../../lib/ui/send';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { AgentEditForm } from './AgentEditForm';
import { AgentJsonEditor } from './AgentJsonEditor';
import { AgentPicker } from './AgentPicker';
import { AgentView } from './AgentView';
import { DeleteAgentDialog } from './DeleteAgentDialog';
import { createDraft, editDrafts, forgetDrafts, replaceDrafts } from './drafts';

type Mode = 'view' | 'edit' | 'replace' | 'create' | 'delete';

const nameOf = (agent: Agent) => agent.agent_name || agent.id;

/**
 * The side panel's Agents section: the chosen agent in full, editing (PATCH, after a review of the
 * changes), replacing its whole config from JSON (PUT), creating (from a template or a copy) and
 * deleting. Drafts are kept per agent until sent (./drafts.ts), so nothing typed is lost by moving around.
 */
export function AgentsSection({ agentId, onAgentChange }: SectionProps) {
  const [agent, setAgent] = useState<Agent | null>(null);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode>('view');
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const deleteButton = useRef<HTMLButtonElement>(null);

  const load = async (id: string) => {
    setLoading(true);
    setLoadError(null);
    const reply = await send({ type: 'agent/get', agentId: id });
    setLoading(false);
    if (!reply.ok) {
      setAgent(null);
      setLoadError(reply.error.message);
      return;
    }
    setAgent(reply.data);
  };

  useEffect(() => {
    if (mode !== 'create') setMode('view');
    setActionError(null);
    if (!agentId) {
      setAgent(null);
      setLoadError(null);
      return;
    }
    if (agent?.id !== agentId) void load(agentId);
  }, [agentId]);

  const open = (next: Mode) => {
    setActionError(null);
    setStatus('');
    setMode(next);
  };

  /** Opens the create editor; an edited, unsent draft stays as it is. */
  const startCreate = (document: AgentCreateBody, note: string) => {
    const draft = createDraft.value;
    if (draft && draft.text.trim() !== '' && draft.text !== draft.initial) {
      open('create');
      setStatus(t('agents_unsentStillInEditor'));
      return;
    }
    const text = documentText(document);
    createDraft.value = { text, initial: text, note };
    open('create');
  };

  const run = async <T,>(action: () => Promise<{ ok: true; data: T } | { ok: false; error: { message: string } }>, done: (data: T) => void) => {
    setBusy(true);
    setActionError(null);
    const reply = await action();
    setBusy(false);
    if (!reply.ok) {
      setActionError(reply.error.message);
      return;
    }
    done(reply.data);
  };

  const save = (id: string, body: AgentPatchBody) =>
    run(
      () => send({ type: 'agent/update', agentId: id, body }),
      (data) => {
        setAgent(data.agent);
        const { [id]: _sent, ...rest } = editDrafts.value;
        editDrafts.value = rest;
        setMode('view');
        setStatus(t('agents_changesSaved'));
      },
    );

  const replace = (id: string, body: AgentReplaceBody) =>
    run(
      () => send({ type: 'agent/replace', agentId: id, body }),
      (data) => {
        setAgent(data.agent);
        const { [id]: _sent, ...rest } = replaceDrafts.value;
        replaceDrafts.value = rest;
        setMode('view');
        setStatus(t('agents_configReplaced'));
      },
    );

  const create = (body: AgentCreateBody) =>
    run(
      () => send({ type: 'agent/create', body }),
      (data) => {
        createDraft.value = null;
        setAgent(data.agent);
        setMode('view');
        onAgentChange(data.agent.id);
        setStatus(t('agents_wasCreated', nameOf(data.agent)));
      },
    );

  const remove = (doomed: Agent) =>
    run(
      () => send({ type: 'agent/delete', agentId: doomed.id }),
      () => {
        forgetDrafts(doomed.id);
        setAgent(null);
        setMode('view');
        onAgentChange('');
        setStatus(t('agents_wasDeleted', nameOf(doomed)));
      },
    );

  const current = agent && agent.id === agentId ? agent : null;
  const creating = createDraft.value;
  const editDraft = current ? editDrafts.value[current.id] : undefined;
  const unsentEdits = Boolean(current && editDraft && agentChanges(editsFrom(current), editDraft).length);
  const unsentReplace = Boolean(current && replaceDrafts.value[current.id] !== undefined);
  return (
    <section class="agents-section" aria-label={t('agents_section')}>
      <AgentPicker id="agents-agent" value={agentId} onChange={onAgentChange} />
      <div class="actions" role="group" aria-label={t('agents_actions')}>
        <button type="button" class="secondary" onClick={() => startCreate(agentTemplate(), t('agents_templateNote'))} disabled={busy}>
          {t('agents_newAgent')}
        </button>
        {current ? (
          <>
            <button type="button" class="secondary" onClick={() => open('edit')} aria-pressed={mode === 'edit'} disabled={busy}>
              {t('agents_edit')}
            </button>
            <button type="button" class="secondary" onClick={() => open('replace')} aria-pressed={mode === 'replace'} disabled={busy}>
              {t('agents_replaceFromJson')}
            </button>
            <button type="button" class="secondary" onClick={() => startCreate(duplicateDocument(current), t('agents_copyNote', nameOf(current)))} disabled={busy}>
              {t('agents_duplicate')}
            </button>
            <button type="button" class="secondary" ref={deleteButton} onClick={() => open('delete')} disabled={busy}>
              {t('agents_delete')}
            </button>
          </>
        ) : null}
      </div>
      <StatusMessage>{loading ? t('agents_reading') : status}</StatusMessage>
      <ErrorMessage>{loadError ? t('agents_notRead', loadError) : null}</ErrorMessage>

      {mode === 'create' && creating ? (
        <AgentJsonEditor
          id="agent-create-json"
          title={t('agents_newAgent')}
          warning={creating.note}
          text={creating.text}
          onText={(text) => (createDraft.value = { ...creating, text })}
          check={checkCreateDocument}
          submitLabel={busy ? t('agents_creating') : t('agents_createAgent')}
          busy={busy}
          error={actionError}
          onSubmit={create}
          onClose={() => open('view')}
        />
      ) : null}

      {current && mode === 'delete' ? (
        <DeleteAgentDialog
          agentName={nameOf(current)}
          agentId={current.id}
          busy={busy}
          error={actionError}
          onConfirm={() => remove(current)}
          onCancel={() => {
            open('view');
            // Back to the button that opened the dialog, once it is enabled again.
            requestAnimationFrame(() => deleteButton.current?.focus());
          }}
        />
      ) : null}

      {current && mode === 'edit' ? (
        <AgentEditForm
          agent={current}
          edits={editDraft ?? editsFrom(current)}
          onEdits={(edits) => (editDrafts.value = { ...editDrafts.value, [current.id]: edits })}
          saving={busy}
          error={actionError}
          onSave={(body) => save(current.id, body)}
          onCancel={() => open('view')}
        />
      ) : null}

      {current && mode === 'replace' ? (
        <AgentJsonEditor
          id="agent-replace-json"
          title={t('agents_replaceTitle', nameOf(current))}
          warning={t('agents_replaceWarning')}
          text={replaceDrafts.value[current.id] ?? documentText(replaceDocument(current))}
          onText={(text) => (replaceDrafts.value = { ...replaceDrafts.value, [current.id]: text })}
          check={checkReplaceDocument}
          submitLabel={busy ? t('agents_replacing') : t('agents_replaceConfig')}
          busy={busy}
          error={actionError}
          onSubmit={(body) => replace(current.id, body)}
          onClose={() => open('view')}
        />
      ) : null}

      {current && mode === 'view' && unsentEdits ? <p class="hint">{t('agents_editsKept')}</p> : null}
      {current && mode === 'view' && unsentReplace ? <p class="hint">{t('agents_jsonKept')}</p> : null}
      {mode === 'view' && creating && creating.text !== creating.initial ? <p class="hint">{t('agents_newKept')}</p> : null}
      {current && (mode === 'view' || mode === 'delete') ? <AgentView agent={current} /> : null}
      {!agentId && !loading && mode !== 'create' ? <p class="hint">{t('agents_chooseToSee')}</p> : null}
    </section>
  );
}
