import type { FieldChange } from '../../lib/agents/edit';

const shown = (value: string | null) => (value === null ? <em>(none)</em> : <span class="agent-text">{value}</span>);

/** What a save will change, field by field: old → new. */
export function AgentDiff({ changes }: { changes: FieldChange[] }) {
  return (
    <ul class="agent-diff" aria-label="Changes to save">
      {changes.map((c) => (
        <li key={c.path}>
          <p class="agent-diff-field">{c.label}</p>
          <p>
            <span class="visually-hidden">Old value: </span>
            <del>{shown(c.before)}</del>
          </p>
          <p aria-hidden="true">→</p>
          <p>
            <span class="visually-hidden">New value: </span>
            <ins>{shown(c.after)}</ins>
          </p>
        </li>
      ))}
    </ul>
  );
}
