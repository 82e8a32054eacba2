import { useEffect, useRef, useState } from 'preact/hooks';
import { agentChanges, editsFrom, patchBody, SYNTHESIZER_FIELDS, type AgentEdits, type SynthesizerField } from '../../lib/agents/edit';
import { issuePath } from '../../lib/agents/document';
import { t, uiLocale } from '../../lib/i18n';
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
      setProblems([t('agents_nothingChanged')]);
      return;
    }
    const checked = agentPatchBody.safeParse(body);
    if (!checked.success) {
      setProblems(checked.error.issues.map((i) => t('agents_problemAt', issuePath(i.path), i.message)));
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
      aria-label={t('agents_editAgent')}
      onSubmit={(e) => {
        e.preventDefault();
        if (reviewing && body) onSave(body);
        else review();
      }}
    >
      {text('agent-edit-name', t('agents_name'), edits.agent_name, (v) => set({ agent_name: v }))}
      <div class="field">
        <label for="agent-edit-welcome">{t('agents_welcomeMessage')}</label>
        <textarea id="agent-edit-welcome" rows={3} value={edits.agent_welcome_message} onInput={(e) => set({ agent_welcome_message: (e.currentTarget as HTMLTextAreaElement).value })} />
      </div>
      {text('agent-edit-webhook', t('agents_webhookUrl'), edits.webhook_url, (v) => set({ webhook_url: v }))}
      <p class="hint">{t('agents_webhookEmptyHint')}</p>
      <fieldset>
        <legend>{t('agents_synthesizer')}</legend>
        {SYNTHESIZER_FIELDS.map((f) => text(`agent-edit-synth-${f.key}`, t(f.labelKey), edits.synthesizer[f.key], (v) => setSynth(f.key, v)))}
      </fieldset>
      {Object.keys(edits.prompts).map((key) => (
        <div class="field" key={key}>
          <label for={`agent-edit-prompt-${key}`}>{t('agents_promptLabel', key)}</label>
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
          <h4 id="agent-review-title" ref={reviewTitle} tabIndex={-1}>{new Intl.PluralRules(uiLocale()).select(changes.length) === 'one' ? t('agents_changeWillBeSaved') : t('agents_changesWillBeSaved', changes.length.toLocaleString(uiLocale()))}</h4>
          <AgentDiff changes={changes} />
        </section>
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        {reviewing ? (
          <>
            <button type="submit" class="primary" disabled={saving}>
              {saving ? t('agents_saving') : t('agents_saveChanges')}
            </button>
            <button type="button" class="secondary" onClick={() => setReviewing(false)} disabled={saving}>
              {t('agents_keepEditing')}
            </button>
          </>
        ) : (
          <button type="submit" class="primary">
            {t('agents_reviewChanges')}
          </button>
        )}
        <button type="button" class="secondary" onClick={onCancel} disabled={saving}>
          {t('agents_close')}
        </button>
      </div>
      <p class="hint">{t('agents_closingKeepsEdits')}</p>
    </form>
  );
}
