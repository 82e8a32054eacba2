import { useEffect, useRef, useState } from 'preact/hooks';
import { agentChanges, editsFrom, patchBody, SYNTHESIZER_FIELDS, type AgentEdits, type SynthesizerField } from '../../lib/agents/edit';
import { issuePath } from '../../lib/agents/document';
import { agentPatchBody, type Agent, type AgentPatchBody } from '../../lib/api/schemas/agent';
import { ErrorMessage } from '../shared/Messages';
import { AgentDiff } from './AgentDiff';

interface AgentEditFormProps {
  agent: Agent;
  /** The form's values, kept by the section so nothing typed is lost when the view changes. */
  edits: AgentEdits;
  onEdits(edits: AgentEdits): void;
  saving: boolean;
  error: string | null;
  onSave(body: AgentPatchBody): void;
  onCancel(): void;
}

/** Name, welcome message, webhook, synthesizer and prompts; a review of the changes; then the PATCH. */
export function AgentEditForm({ agent, edits, onEdits, saving, error, onSave, onCancel }: AgentEditFormProps) {
  const [reviewing, setReviewing] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const reviewTitle = useRef<HTMLHeadingElement>(null);
  // The review takes focus, so a keyboard or screen reader user lands on what will be saved.
  useEffect(() => {
    if (reviewing) reviewTitle.current?.focus();
  }, [reviewing]);
  const changes = agentChanges(editsFrom(agent), edits);
  const body = patchBody(agent, changes);

  const set = (patch: Partial<AgentEdits>) => {
    onEdits({ ...edits, ...patch });
    setReviewing(false);
  };
  const setSynth = (key: SynthesizerField, value: string) => set({ synthesizer: { ...edits.synthesizer, [key]: value } });
  const setPrompt = (key: string, value: string) => set({ prompts: { ...edits.prompts, [key]: value } });

  const review = () => {
    if (!body) {
      setProblems(['Nothing has changed yet.']);
      return;
    }
    const checked = agentPatchBody.safeParse(body);
    if (!checked.success) {
      setProblems(checked.error.issues.map((i) => `${issuePath(i.path)}: ${i.message}`));
      return;
    }
    setProblems([]);
    setReviewing(true);
  };

  const text = (id: string, label: string, value: string, onInput: (v: string) => void) => (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="text" value={value} spellcheck={false} onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)} />
    </div>
  );

  return (
    <form
      class="agent-edit"
      aria-label="Edit agent"
      onSubmit={(e) => {
        e.preventDefault();
        if (reviewing && body) onSave(body);
        else review();
      }}
    >
      {text('agent-edit-name', 'Name', edits.agent_name, (v) => set({ agent_name: v }))}
      <div class="field">
        <label for="agent-edit-welcome">Welcome message</label>
        <textarea id="agent-edit-welcome" rows={3} value={edits.agent_welcome_message} onInput={(e) => set({ agent_welcome_message: (e.currentTarget as HTMLTextAreaElement).value })} />
      </div>
      {text('agent-edit-webhook', 'Webhook URL', edits.webhook_url, (v) => set({ webhook_url: v }))}
      <p class="hint">Leave the webhook URL empty to remove it.</p>
      <fieldset>
        <legend>Synthesizer</legend>
        {SYNTHESIZER_FIELDS.map((f) => text(`agent-edit-synth-${f.key}`, f.label, edits.synthesizer[f.key], (v) => setSynth(f.key, v)))}
      </fieldset>
      {Object.keys(edits.prompts).map((key) => (
        <div class="field" key={key}>
          <label for={`agent-edit-prompt-${key}`}>{`Prompt (${key})`}</label>
          <textarea id={`agent-edit-prompt-${key}`} rows={6} value={edits.prompts[key]} onInput={(e) => setPrompt(key, (e.currentTarget as HTMLTextAreaElement).value)} />
        </div>
      ))}

      <ErrorMessage>
        {problems.length ? (
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : null}
      </ErrorMessage>
      {reviewing && body ? (
        <section class="agent-review" aria-labelledby="agent-review-title">
          <h4 id="agent-review-title" ref={reviewTitle} tabIndex={-1}>{changes.length === 1 ? 'This change will be saved' : `These ${changes.length} changes will be saved`}</h4>
          <AgentDiff changes={changes} />
        </section>
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        {reviewing ? (
          <>
            <button type="submit" class="primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save changes'}
            </button>
            <button type="button" class="secondary" onClick={() => setReviewing(false)} disabled={saving}>
              Keep editing
            </button>
          </>
        ) : (
          <button type="submit" class="primary">
            Review changes
          </button>
        )}
        <button type="button" class="secondary" onClick={onCancel} disabled={saving}>
          Close
        </button>
      </div>
      <p class="hint">Closing keeps what you typed here until you save it.</p>
    </form>
  );
}
