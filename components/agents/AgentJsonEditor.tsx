import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Checked } from '../../lib/agents/document';
import { t, uiLocale } from '../../lib/i18n';
import { ErrorMessage } from '../shared/Messages';

interface AgentJsonEditorProps<T> {
  id: string;
  title: string;
  /** Shown above the editor (e.g. that a PUT drops what is left out). */
  warning?: ComponentChildren;
  text: string;
  onText(text: string): void;
  check(text: string): Checked<T>;
  submitLabel: string;
  busy: boolean;
  /** The service's refusal; the text stays as typed. */
  error: string | null;
  onSubmit(body: T): void;
  onClose(): void;
  children?: ComponentChildren;
}

/** A JSON document checked with the client's schema before anything is sent; problems name their path. */
export function AgentJsonEditor<T>({ id, title, warning, text, onText, check, submitLabel, busy, error, onSubmit, onClose, children }: AgentJsonEditorProps<T>) {
  const [problems, setProblems] = useState<string[]>([]);
  const problemsId = `${id}-problems`;
  const submit = () => {
    const checked = check(text);
    if (!checked.ok) {
      setProblems(checked.problems);
      return;
    }
    setProblems([]);
    onSubmit(checked.body);
  };
  return (
    <form
      class="agent-json"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h3 id={`${id}-title`}>{title}</h3>
      {warning ? <p class="message message-warning">{warning}</p> : null}
      {children}
      <div class="field">
        <label for={id}>{t('agents_agentJson')}</label>
        <textarea
          id={id}
          class="mono agent-json-text"
          rows={18}
          spellcheck={false}
          value={text}
          aria-invalid={problems.length ? 'true' : undefined}
          aria-describedby={problems.length ? problemsId : undefined}
          onInput={(e) => onText((e.currentTarget as HTMLTextAreaElement).value)}
        />
      </div>
      <ErrorMessage id={problemsId}>
        {problems.length ? (
          <>
            {new Intl.PluralRules(uiLocale()).select(problems.length) === 'one' ? t('agents_notSentOne') : t('agents_notSentOther', problems.length.toLocaleString(uiLocale()))}
            <ul>
              {problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          </>
        ) : null}
      </ErrorMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {submitLabel}
        </button>
        <button type="button" class="secondary" onClick={onClose} disabled={busy}>
          {t('agents_close')}
        </button>
      </div>
      <p class="hint">{t('agents_closingKeepsJson')}</p>
    </form>
  );
}
