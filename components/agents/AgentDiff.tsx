import type { FieldChange } from '../../lib/agents/edit';
import { t } from '../../lib/i18n';

const shown = (value: string | null) => (value === null ? <em>{t('agents_none')}</em> : <span class="agent-text">{value}</span>);

/** What a save will change, field by field: old → new. */
export function AgentDiff({ changes }: { changes: FieldChange[] }) {
  return (
    <ul class="agent-diff" aria-label={t('agents_changesToSave')}>
      {changes.map((c) => (
        <li key={c.path}>
          <p class="agent-diff-field">{c.label}</p>
          <p>
            <span class="visually-hidden">{t('agents_oldValue')} </span>
            <del>{shown(c.before)}</del>
          </p>
          <p aria-hidden="true">→</p>
          <p>
            <span class="visually-hidden">{t('agents_newValue')} </span>
            <ins>{shown(c.after)}</ins>
          </p>
        </li>
      ))}
    </ul>
  );
}
