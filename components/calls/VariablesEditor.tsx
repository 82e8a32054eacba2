import { variableRow, type VariableRow } from '../../lib/ui/variables';

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
      <legend>Variables</legend>
      {rows.length === 0 ? <p class="hint">No variables: the agent’s prompt gets only the phone number.</p> : null}
      {rows.map((row, i) => (
        <div class="variable-row" key={row.key}>
          <div class="field">
            <label for={`var-name-${row.key}`}>
              Name<span class="visually-hidden"> of variable {i + 1}</span>
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
            <label for={`var-value-${row.key}`}>
              Value<span class="visually-hidden"> of variable {i + 1}</span>
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
            aria-label={`Remove variable ${i + 1}${row.name ? ` (${row.name})` : ''}`}
            onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" class="secondary small" onClick={() => onChange([...rows, variableRow()])}>
        Add variable
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
