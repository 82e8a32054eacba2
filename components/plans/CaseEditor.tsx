import { useId } from 'preact/hooks';
import { EXPECTABLE_STATUSES } from '../../lib/plans/schema';
import { CHECK_KINDS, VALUELESS, type CaseDraft, type CheckKind, type FieldCheckDraft } from '../../lib/plans/draft';
import { t, type MessageKey } from '../../lib/i18n';
import { num } from './plural';
import { READY_SCRIPT_NAMES, readyScript, scriptToText, type ReadyScript } from '../../lib/plans/guided';

const SCRIPT_LABELS: Record<ReadyScript, MessageKey> = {
  voicemail: 'plans_script_voicemail',
  angry: 'plans_script_angry',
  human: 'plans_script_human',
  'wrong-number': 'plans_script_wrongNumber',
  silence: 'plans_script_silence',
};

const CHECK_LABELS: Record<CheckKind, MessageKey> = {
  equals: 'plans_checkEquals',
  one_of: 'plans_checkOneOf',
  contains: 'plans_checkContains',
  matches: 'plans_checkMatches',
  min: 'plans_checkMin',
  max: 'plans_checkMax',
  present: 'plans_checkPresent',
  absent: 'plans_checkAbsent',
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
      <legend>{t('plans_caseLegend', num(index + 1))}</legend>
      <div class="plans-grid">
        <label>
          {t('plans_caseLabel')}
          <input value={draft.label} onInput={(e) => set('label', input(e))} />
        </label>
        <label>
          {t('plans_caseId')}
          <input value={draft.id} onInput={(e) => set('id', input(e))} class="mono" />
        </label>
        <label>
          {t('plans_numberToCall')}
          {/* An example number in E.164, the same in every language. */}
          <input value={draft.contactNumber} onInput={(e) => set('contactNumber', input(e))} inputMode="tel" placeholder="+14155550123" />
        </label>
        <label>
          <span id={`${base}-status`}>{t('plans_expectedStatus')}</span>
          <select aria-labelledby={`${base}-status`} value={statusValue} onChange={(e) => set('status', input(e) ? input(e).split('|') : [])}>
            <option value="">{t('plans_anyStatus')}</option>
            {draft.status.length > 1 ? <option value={statusValue}>{t('plans_anyOf', draft.status.join(', '))}</option> : null}
            {EXPECTABLE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>

      <fieldset class="plans-rows">
        <legend>{t('plans_variables')}</legend>
        {draft.variables.map((v, i) => (
          <div class="plans-row" key={i}>
            <label>
              {t('plans_variableName')}
              <input value={v.name} onInput={(e) => setVariable(i, { ...v, name: input(e) })} />
            </label>
            <label>
              {t('plans_variableValue')}
              <input value={v.value} onInput={(e) => setVariable(i, { ...v, value: input(e) })} />
            </label>
            <button type="button" class="secondary small" onClick={() => set('variables', draft.variables.filter((_, j) => j !== i))}>
              {t('plans_removeVariable', v.name)}
            </button>
          </div>
        ))}
        <button type="button" class="secondary small" onClick={() => set('variables', [...draft.variables, { name: '', value: '' }])}>
          {t('plans_addVariable')}
        </button>
      </fieldset>

      <fieldset class="plans-rows">
        <legend>{t('plans_extractedChecks')}</legend>
        {draft.checks.map((c, i) => (
          <div class="plans-row" key={i}>
            <label>
              {t('plans_field')}
              <input value={c.field} onInput={(e) => setCheck(i, { ...c, field: input(e) })} />
            </label>
            <label>
              <span id={`${base}-check-${i}`}>{t('plans_check')}</span>
              <select aria-labelledby={`${base}-check-${i}`} value={c.check} onChange={(e) => setCheck(i, { ...c, check: input(e) as CheckKind })}>
                {CHECK_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {t(CHECK_LABELS[k])}
                  </option>
                ))}
              </select>
            </label>
            {VALUELESS.includes(c.check) ? null : (
              <label>
                {t('plans_expectedValue')}
                <input value={c.value} onInput={(e) => setCheck(i, { ...c, value: input(e) })} />
              </label>
            )}
            <button type="button" class="secondary small" onClick={() => set('checks', draft.checks.filter((_, j) => j !== i))}>
              {c.field ? t('plans_removeCheckOf', c.field) : t('plans_removeCheckUnnamed')}
            </button>
          </div>
        ))}
        <button type="button" class="secondary small" onClick={() => set('checks', [...draft.checks, { field: '', check: 'equals', value: '' }])}>
          {t('plans_addCheck')}
        </button>
      </fieldset>

      <div class="plans-grid">
        <label>
          {t('plans_transcriptContains')}
          <textarea rows={2} value={draft.contains} onInput={(e) => set('contains', input(e))} />
        </label>
        <label>
          {t('plans_transcriptNotContains')}
          <textarea rows={2} value={draft.notContains} onInput={(e) => set('notContains', input(e))} />
        </label>
        <label>
          {t('plans_durationAtLeast')}
          <input value={draft.durationAtLeast} onInput={(e) => set('durationAtLeast', input(e))} inputMode="decimal" />
        </label>
        <label>
          {t('plans_durationAtMost')}
          <input value={draft.durationAtMost} onInput={(e) => set('durationAtMost', input(e))} inputMode="decimal" />
        </label>
        <label>
          {t('plans_costAtMost')}
          <input value={draft.costAtMost} onInput={(e) => set('costAtMost', input(e))} inputMode="decimal" />
        </label>
        <label>
          {t('plans_hungUpBy')}
          {/* The service's own value for hangup_by, matched as typed: not translated. */}
          <input value={draft.hangupBy} onInput={(e) => set('hangupBy', input(e))} placeholder="Callee" />
        </label>
        <label>
          {t('plans_repeatCase')}
          <input value={draft.repeat ?? ''} onInput={(e) => set('repeat', input(e))} inputMode="numeric" />
        </label>
        <label>
          {t('plans_minPassRateCase')}
          <input value={draft.minPassRate ?? ''} onInput={(e) => set('minPassRate', input(e))} inputMode="decimal" />
        </label>
        <label class="plans-check">
          <input type="checkbox" checked={!!draft.advisory} onChange={(e) => onChange({ ...draft, advisory: (e.currentTarget as HTMLInputElement).checked || undefined })} />
          {t('plans_advisoryCase')}
        </label>
      </div>
      <label class="field">
        {t('plans_moreChecks')}
        <textarea rows={3} class="mono" value={draft.moreChecks} onInput={(e) => set('moreChecks', input(e))} aria-describedby={`${base}-more-hint`} />
      </label>
      <p class="hint" id={`${base}-more-hint`}>
        {t('plans_moreChecksHint')}
      </p>
      <label class="field">
        {t('plans_callerScript')}
        <textarea rows={3} value={draft.callerScript} onInput={(e) => set('callerScript', input(e))} aria-describedby={`${base}-script-hint`} />
      </label>
      <p class="hint" id={`${base}-script-hint`}>
        {t('plans_callerScriptHint')}
      </p>
      <label class="field">
        <span id={`${base}-ready`}>{t('plans_insertScript')}</span>
        <select
          aria-labelledby={`${base}-ready`}
          value=""
          onChange={(e) => {
            const name = input(e) as ReadyScript;
            if (!name) return;
            const text = scriptToText(readyScript(name, t));
            // Added after what is there: nothing typed is lost.
            set('callerScript', draft.callerScript.trim() ? `${draft.callerScript.trimEnd()}\n${text}` : text);
          }}
        >
          <option value="">{t('plans_insertScriptChoose')}</option>
          {READY_SCRIPT_NAMES.map((name) => (
            <option key={name} value={name}>
              {t(SCRIPT_LABELS[name])}
            </option>
          ))}
        </select>
      </label>
      {onRemove ? (
        <button type="button" class="secondary small" onClick={onRemove}>
          {t('plans_removeCase', num(index + 1))}
        </button>
      ) : null}
    </fieldset>
  );
}
