import { variableRow, type VariableRow } from '../../lib/ui/variables';
import { t } from '../../lib/i18n';

interface VariablesEditorProps {
  rows: VariableRow[];
  onChange(rows: VariableRow[]): void;
  errors?: string[];
}

/** Prompt variables for the call: each becomes a CSV column the agent's prompt can use. */
export function VariablesEditor({ rows, onChange, errors = [] }: VariablesEditorProps) {
  const update = (key: number, patch: Partial<VariableRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <fieldset class="variables">
      <legend>{t('variables_legend')}</legend>
      {rows.length === 0 ? <p class="hint">{t('variables_none')}</p> : null}
      {rows.map((row, i) => (
        <div class="variable-row" key={row.key}>
          <div class="field">
            {/* Seen: "Name"; heard (the label): the whole "Name of variable 2". */}
            <span class="field-label" aria-hidden="true">
              {t('variables_name')}
            </span>
            <label for={`var-name-${row.key}`} class="visually-hidden">
              {t('variables_nameOf', i + 1)}
            </label>
            <input
              id={`var-name-${row.key}`}
              type="text"
              value={row.name}
              spellcheck={false}
              autocomplete="off"
              onInput={(e) => update(row.key, { name: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
          <div class="field">
            <span class="field-label" aria-hidden="true">
              {t('variables_value')}
            </span>
            <label for={`var-value-${row.key}`} class="visually-hidden">
              {t('variables_valueOf', i + 1)}
            </label>
            <input
              id={`var-value-${row.key}`}
              type="text"
              value={row.value}
              autocomplete="off"
              onInput={(e) => update(row.key, { value: (e.currentTarget as HTMLInputElement).value })}
            />
          </div>
          <button
            type="button"
            class="secondary small"
            aria-label={row.name ? t('variables_removeNamed', i + 1, row.name) : t('variables_remove', i + 1)}
            onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
          >
            {t('variables_removeButton')}
          </button>
        </div>
      ))}
      <button type="button" class="secondary small" onClick={() => onChange([...rows, variableRow()])}>
        {t('variables_add')}
      </button>
      {errors.length ? (
        <div class="message message-error" role="alert">
          <ul>
            {errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </fieldset>
  );
}
