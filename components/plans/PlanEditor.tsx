import { useState } from 'preact/hooks';
import { draftProblems, draftToValue, emptyCase, freeCaseId, problemPlace, type PlanDraft } from '../../lib/plans/draft';
import { checkPlan, type PlanProblem } from '../../lib/plans/schema';
import { savePlan } from './save-plan';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import { CaseEditor } from './CaseEditor';
import { t } from '../../lib/i18n';

interface PlanEditorProps {
  planId: string;
  initial: PlanDraft;
  /** Said when the editor opens (e.g. "Imported plan.json: check it and save it."). */
  note?: string;
  onSaved(planId: string): void;
  onCancel(): void;
}

/**
 * A plan and its cases, checked on Save by the plan file's own schema (the import's): the problems are
 * listed by place and everything typed stays as it was.
 */
export function PlanEditor({ planId, initial, note, onSaved, onCancel }: PlanEditorProps) {
  const [draft, setDraft] = useState(initial);
  const [problems, setProblems] = useState<PlanProblem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const input = (e: Event) => (e.currentTarget as HTMLInputElement).value;

  const save = async (e: Event) => {
    e.preventDefault();
    const checked = checkPlan(draftToValue(draft));
    const unread = draftProblems(draft);
    if (!checked.ok || unread.length) {
      setProblems([...unread, ...(checked.ok ? [] : checked.problems)]);
      setError(null);
      return;
    }
    setProblems([]);
    setSaving(true);
    // A plan past one message's 64 KB (about 300 cases) goes in parts.
    const reply = await savePlan(planId, checked.plan);
    setSaving(false);
    if (!reply.ok) setError(reply.error.message);
    else onSaved(planId);
  };

  return (
    <form class="plans-editor" aria-label={t('plans_planEditor')} onSubmit={save} noValidate>
      <h2>{initial.name ? t('plans_editNamed', initial.name) : t('plans_newPlanTitle')}</h2>
      <StatusMessage>{note}</StatusMessage>
      <div class="plans-grid">
        <label>
          {t('plans_planName')}
          <input value={draft.name} onInput={(e) => setDraft({ ...draft, name: input(e) })} />
        </label>
        <label>
          {t('plans_agentId')}
          <input value={draft.agentId} onInput={(e) => setDraft({ ...draft, agentId: input(e) })} class="mono" />
        </label>
        <label>
          {t('plans_callFrom')}
          <input value={draft.fromNumber} onInput={(e) => setDraft({ ...draft, fromNumber: input(e) })} inputMode="tel" />
        </label>
        <label>
          {t('plans_repeatPlan')}
          <input value={draft.repeat ?? ''} onInput={(e) => setDraft({ ...draft, repeat: input(e) })} inputMode="numeric" placeholder="1" />
        </label>
        <label>
          {t('plans_minPassRatePlan')}
          <input value={draft.minPassRate ?? ''} onInput={(e) => setDraft({ ...draft, minPassRate: input(e) })} inputMode="decimal" placeholder="1" />
        </label>
        <label>
          {t('plans_retryNoConnection')}
          <input value={draft.retryNoConnection ?? ''} onInput={(e) => setDraft({ ...draft, retryNoConnection: input(e) })} inputMode="numeric" placeholder="0" />
        </label>
      </div>
      {draft.cases.map((c, i) => (
        <CaseEditor
          key={c.key}
          index={i}
          draft={c}
          onChange={(next) => setDraft({ ...draft, cases: draft.cases.map((x) => (x.key === c.key ? next : x)) })}
          onRemove={draft.cases.length > 1 ? () => setDraft({ ...draft, cases: draft.cases.filter((x) => x.key !== c.key) }) : undefined}
        />
      ))}
      <div class="actions">
        <button type="button" class="secondary" onClick={() => setDraft({ ...draft, cases: [...draft.cases, emptyCase(freeCaseId(draft))] })}>
          {t('plans_addCase')}
        </button>
      </div>
      {problems.length ? (
        <div class="message message-error" role="alert">
          <p>{t('plans_notSaved')}</p>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>
                {t('plans_problemAt', problemPlace(p.path, draft), p.message)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="submit" class="primary" disabled={saving}>
          {t('plans_savePlan')}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          {t('plans_cancel')}
        </button>
      </div>
    </form>
  );
}
