import { useId } from 'preact/hooks';
import { EXPECTABLE_STATUSES } from '../../lib/plans/schema';
import { CHECK_KINDS, VALUELESS, type CaseDraft, type CheckKind, type FieldCheckDraft } from '../../lib/plans/draft';

const CHECK_LABELS: Record<CheckKind, string> = {
  equals: 'equals',
  one_of: 'is one of (comma separated)',
  contains: 'contains',
  matches: 'matches the pattern',
  min: 'is at least',
  max: 'is at most',
  present: 'is present',
  absent: 'is absent',
};

interface CaseEditorProps {
  index: number;
  draft: CaseDraft;
  onChange(next: CaseDraft): void;
  onRemove?: () => void;
}

/** One case of the plan: what to call, with which variables, and what a good call looks like. */
export function CaseEditor({ index, draft, onChange, onRemove }: CaseEditorProps) {
  const set = <K extends keyof CaseDraft>(key: K, value: CaseDraft[K]) => onChange({ ...draft, [key]: value });
  const setVariable = (i: number, next: { name: string; value: string }) => set('variables', draft.variables.map((v, j) => (j === i ? next : v)));
  const setCheck = (i: number, next: FieldCheckDraft) => set('checks', draft.checks.map((c, j) => (j === i ? next : c)));
  const input = (e: Event) => (e.currentTarget as HTMLInputElement).value;
  // Selects get their label by id: a wrapping label would also take in the options' text.
  const base = useId();
  const statusValue = draft.status.length > 1 ? draft.status.join('|') : (draft.status[0] ?? '');

  return (
    <fieldset class="plans-case">
      <legend>Case {index + 1}</legend>
      <div class="plans-grid">
        <label>
          Case label
          <input value={draft.label} onInput={(e) => set('label', input(e))} />
        </label>
        <label>
          Case id
          <input value={draft.id} onInput={(e) => set('id', input(e))} class="mono" />
        </label>
        <label>
          Number to call
          <input value={draft.contactNumber} onInput={(e) => set('contactNumber', input(e))} inputMode="tel" placeholder="+14155550123" />
        </label>
        <label>
          <span id={`${base}-status`}>Expected status</span>
          <select aria-labelledby={`${base}-status`} value={statusValue} onChange={(e) => set('status', input(e) ? input(e).split('|') : [])}>
            <option value="">Any status</option>
            {draft.status.length > 1 ? <option value={statusValue}>Any of: {draft.status.join(', ')}</option> : null}
            {EXPECTABLE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>

      <fieldset class="plans-rows">
        <legend>Variables</legend>
        {draft.variables.map((v, i) => (
          <div class="plans-row" key={i}>
            <label>
              Variable name
              <input value={v.name} onInput={(e) => setVariable(i, { ...v, name: input(e) })} />
            </label>
            <label>
              Variable value
              <input value={v.value} onInput={(e) => setVariable(i, { ...v, value: input(e) })} />
            </label>
            <button type="button" class="secondary small" onClick={() => set('variables', draft.variables.filter((_, j) => j !== i))}>
              Remove variable {v.name}
            </button>
          </div>
        ))}
        <button type="button" class="secondary small" onClick={() => set('variables', [...draft.variables, { name: '', value: '' }])}>
          Add variable
        </button>
      </fieldset>

      <fieldset class="plans-rows">
        <legend>Extracted data checks</legend>
        {draft.checks.map((c, i) => (
          <div class="plans-row" key={i}>
            <label>
              Field
              <input value={c.field} onInput={(e) => setCheck(i, { ...c, field: input(e) })} />
            </label>
            <label>
              <span id={`${base}-check-${i}`}>Check</span>
              <select aria-labelledby={`${base}-check-${i}`} value={c.check} onChange={(e) => setCheck(i, { ...c, check: input(e) as CheckKind })}>
                {CHECK_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {CHECK_LABELS[k]}
                  </option>
                ))}
              </select>
            </label>
            {VALUELESS.includes(c.check) ? null : (
              <label>
                Expected value
                <input value={c.value} onInput={(e) => setCheck(i, { ...c, value: input(e) })} />
              </label>
            )}
            <button type="button" class="secondary small" onClick={() => set('checks', draft.checks.filter((_, j) => j !== i))}>
              Remove check of {c.field || 'this field'}
            </button>
          </div>
        ))}
        <button type="button" class="secondary small" onClick={() => set('checks', [...draft.checks, { field: '', check: 'equals', value: '' }])}>
          Add extracted data check
        </button>
      </fieldset>

      <div class="plans-grid">
        <label>
          Transcript contains (one phrase per line)
          <textarea rows={2} value={draft.contains} onInput={(e) => set('contains', input(e))} />
        </label>
        <label>
          Transcript does not contain (one phrase per line)
          <textarea rows={2} value={draft.notContains} onInput={(e) => set('notContains', input(e))} />
        </label>
        <label>
          Duration at least (seconds)
          <input value={draft.durationAtLeast} onInput={(e) => set('durationAtLeast', input(e))} inputMode="decimal" />
        </label>
        <label>
          Duration at most (seconds)
          <input value={draft.durationAtMost} onInput={(e) => set('durationAtMost', input(e))} inputMode="decimal" />
        </label>
        <label>
          Cost at most (cents)
          <input value={draft.costAtMost} onInput={(e) => set('costAtMost', input(e))} inputMode="decimal" />
        </label>
        <label>
          Hung up by
          <input value={draft.hangupBy} onInput={(e) => set('hangupBy', input(e))} placeholder="Callee" />
        </label>
      </div>
      {onRemove ? (
        <button type="button" class="secondary small" onClick={onRemove}>
          Remove case {index + 1}
        </button>
      ) : null}
    </fieldset>
  );
}
