import { useEffect, useRef, useState } from 'preact/hooks';
import { agentTemplate, checkCreateDocument, checkReplaceDocument, documentText, duplicateDocument, replaceDocument } from '../../lib/agents/document';
import { agentChanges, editsFrom } from '../../lib/agents/edit';
import type { Agent, AgentCreateBody, AgentPatchBody, AgentReplaceBody } from '../../lib/api/schemas/agent';
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
      setStatus('Your unsent new agent is still in the editor. Send it, or clear the editor to start again.');
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
        setStatus('Your changes were saved.');
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
        setStatus('The agent’s configuration was replaced.');
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
        setStatus(`The agent “${nameOf(data.agent)}” was created and is now chosen.`);
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
        setStatus(`The agent “${nameOf(doomed)}” was deleted.`);
      },
    );

  const current = agent && agent.id === agentId ? agent : null;
  const creating = createDraft.value;
  const editDraft = current ? editDrafts.value[current.id] : undefined;
  const unsentEdits = Boolean(current && editDraft && agentChanges(editsFrom(current), editDraft).length);
  const unsentReplace = Boolean(current && replaceDrafts.value[current.id] !== undefined);
  return (
    <section class="agents-section" aria-label="Agents">
      <AgentPicker id="agents-agent" value={agentId} onChange={onAgentChange} />
      <div class="actions" role="group" aria-label="Agent actions">
        <button type="button" class="secondary" onClick={() => startCreate(agentTemplate(), 'This new agent starts from a template. It is created only when you press Create agent.')} disabled={busy}>
          New agent
        </button>
        {current ? (
          <>
            <button type="button" class="secondary" onClick={() => open('edit')} aria-pressed={mode === 'edit'} disabled={busy}>
              Edit
            </button>
            <button type="button" class="secondary" onClick={() => open('replace')} aria-pressed={mode === 'replace'} disabled={busy}>
              Replace from JSON
            </button>
            <button type="button" class="secondary" onClick={() => startCreate(duplicateDocument(current), `This new agent is a copy of “${nameOf(current)}”. It is created only when you press Create agent.`)} disabled={busy}>
              Duplicate
            </button>
            <button type="button" class="secondary" ref={deleteButton} onClick={() => open('delete')} disabled={busy}>
              Delete
            </button>
          </>
        ) : null}
      </div>
      <StatusMessage>{loading ? 'Reading the agent…' : status}</StatusMessage>
      <ErrorMessage>{loadError ? `The agent could not be read: ${loadError}` : null}</ErrorMessage>

      {mode === 'create' && creating ? (
        <AgentJsonEditor
          id="agent-create-json"
          title="New agent"
          warning={creating.note}
          text={creating.text}
          onText={(text) => (createDraft.value = { ...creating, text })}
          check={checkCreateDocument}
          submitLabel={busy ? 'Creating…' : 'Create agent'}
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
          title={`Replace the configuration of “${nameOf(current)}”`}
          warning="This replaces the whole configuration: anything left out of the document is dropped from the agent."
          text={replaceDrafts.value[current.id] ?? documentText(replaceDocument(current))}
          onText={(text) => (replaceDrafts.value = { ...replaceDrafts.value, [current.id]: text })}
          check={checkReplaceDocument}
          submitLabel={busy ? 'Replacing…' : 'Replace configuration'}
          busy={busy}
          error={actionError}
          onSubmit={(body) => replace(current.id, body)}
          onClose={() => open('view')}
        />
      ) : null}

      {current && mode === 'view' && unsentEdits ? <p class="hint">Your unsaved edits of this agent are kept: press Edit to return to them.</p> : null}
      {current && mode === 'view' && unsentReplace ? <p class="hint">Your unsent JSON for this agent is kept: press Replace from JSON to return to it.</p> : null}
      {mode === 'view' && creating && creating.text !== creating.initial ? <p class="hint">Your unsent new agent is kept: press New agent to return to it.</p> : null}
      {current && (mode === 'view' || mode === 'delete') ? <AgentView agent={current} /> : null}
      {!agentId && !loading && mode !== 'create' ? <p class="hint">Choose an agent to see its configuration, or create a new one.</p> : null}
    </section>
  );
}
