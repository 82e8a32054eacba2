import { useEffect, useState } from 'preact/hooks';
import { scriptToText } from '../../lib/plans/guided';
import { caseToDraft, emptyPlan, freeCaseId, planToDraft, type PlanDraft } from '../../lib/plans/draft';
import { parsePlan, type PlanProblem } from '../../lib/plans/schema';
import { queryParam } from '../../lib/ui/hooks';
import { send } from '../../lib/ui/send';
import { AgentPicker } from '../agents/AgentPicker';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { PlanEditor } from './PlanEditor';
import { PlanView } from './PlanView';
import { usePlansData } from './usePlansData';
import { t } from '../../lib/i18n';
import { num, plural } from './plural';

type Mode = { kind: 'list' } | { kind: 'plan'; planId: string } | { kind: 'edit'; planId: string; draft: PlanDraft; note?: string };

/** A file that did not pass: its text stays, editable, with the problems beside it. */
interface FailedImport {
  fileName: string;
  text: string;
  problems: PlanProblem[];
}

/** The side panel's Test plans section: an agent's plans, their editor, runs and results. */
export function PlansSection({ agentId, onAgentChange, openExecution }: SectionProps) {
  const data = usePlansData();
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [failed, setFailed] = useState<FailedImport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const plans = data.plans.filter((p) => p.plan.agent_id === agentId);

  // "Save as test case" on a finished call opens here with the call's execution: make its case, open it to adjust.
  useEffect(() => {
    const executionId = queryParam('fromExecution');
    if (!executionId || !data.ready) return;
    history.replaceState(null, '', location.pathname + '?section=plans');
    void send({ type: 'plans/case-from-execution', executionId }).then((reply) => {
      if (!reply.ok) return setError(t('plans_notATestCase', reply.error.message));
      const { agentId: agent, testCase, callerScript } = reply.data;
      onAgentChange(agent);
      const target = data.plans.filter((p) => p.plan.agent_id === agent).sort((a, b) => b.updatedAt - a.updatedAt)[0];
      const draft = target ? planToDraft(target.plan) : { ...emptyPlan(agent), name: t('plans_casesFromCalls'), cases: [] };
      const made = caseToDraft(testCase);
      // The caller's lines are offered as the caller script's start: kept, edited or cleared in the editor.
      made.callerScript = scriptToText(callerScript);
      if (draft.cases.some((c) => c.id === made.id)) made.id = freeCaseId(draft, made.id);
      draft.cases.push(made);
      setMode({
        kind: 'edit',
        planId: target?.id ?? crypto.randomUUID(),
        draft,
        note: `${t('plans_callBecameCase', num(draft.cases.length), draft.name)}${callerScript.length ? ` ${t('plans_callerLinesOffered', num(callerScript.length))}` : ''}`,
      });
    });
  }, [data.ready]);

  const openImported = (fileName: string, text: string) => {
    const parsed = parsePlan(text);
    if (!parsed.ok) return setFailed({ fileName, text, problems: parsed.problems });
    setFailed(null);
    onAgentChange(parsed.plan.agent_id);
    setMode({ kind: 'edit', planId: crypto.randomUUID(), draft: planToDraft(parsed.plan), note: t('plans_readFile', fileName) });
  };

  const importFile = async (e: Event) => {
    const inputEl = e.currentTarget as HTMLInputElement;
    const file = inputEl.files?.[0];
    inputEl.value = '';
    if (!file) return;
    if (file.size > 1_000_000) return setError(t('plans_fileTooLarge', file.name));
    setError(null);
    openImported(file.name, await file.text());
  };

  if (mode.kind === 'edit') {
    return (
      <PlanEditor
        planId={mode.planId}
        initial={mode.draft}
        note={mode.note}
        onSaved={(planId) => {
          setNote(t('plans_saved'));
          setMode({ kind: 'plan', planId });
        }}
        onCancel={() => setMode(data.plans.some((p) => p.id === mode.planId) ? { kind: 'plan', planId: mode.planId } : { kind: 'list' })}
      />
    );
  }

  const open = mode.kind === 'plan' ? data.plans.find((p) => p.id === mode.planId) : undefined;
  return (
    <section class="plans" aria-label={t('plans_testPlans')}>
      <AgentPicker id="plans-agent" value={agentId} refreshOnMount={false} onChange={(id) => (onAgentChange(id), setMode({ kind: 'list' }))} />
      <ErrorMessage>{error}</ErrorMessage>
      <StatusMessage>{note}</StatusMessage>
      {open ? (
        <>
          <button type="button" class="link" onClick={() => setMode({ kind: 'list' })}>
            {t('plans_allPlans')}
          </button>
          <PlanView
            key={open.id}
            stored={open}
            runs={data.runs.filter((r) => r.planId === open.id).sort((a, b) => b.createdAt - a.createdAt)}
            onEdit={() => setMode({ kind: 'edit', planId: open.id, draft: planToDraft(open.plan) })}
            onDeleted={() => (setNote(t('plans_deleted', open.plan.name)), setMode({ kind: 'list' }))}
            openExecution={openExecution}
          />
        </>
      ) : !agentId ? (
        <p class="hint">{t('plans_chooseAgent')}</p>
      ) : (
        <>
          <h2>{t('plans_testPlans')}</h2>
          {!data.ready ? <p class="hint">{t('plans_loading')}</p> : plans.length === 0 ? <p class="hint">{t('plans_noPlans')}</p> : null}
          <ul class="plans-list">
            {plans.map((p) => (
              <li key={p.id}>
                <button type="button" class="link" onClick={() => setMode({ kind: 'plan', planId: p.id })}>
                  {p.plan.name}
                </button>{' '}
                <span class="hint">{plural(p.plan.cases.length, 'plans_caseCountOne', 'plans_caseCountOther')}</span>
              </li>
            ))}
          </ul>
          <div class="actions">
            <button type="button" class="primary" onClick={() => setMode({ kind: 'edit', planId: crypto.randomUUID(), draft: emptyPlan(agentId) })}>
              {t('plans_newPlan')}
            </button>
            <label class="secondary plans-import">
              {t('plans_importFile')}
              <input type="file" accept=".json,application/json" onChange={importFile} />
            </label>
          </div>
        </>
      )}
      {failed ? (
        <div class="plans-import-failed">
          <div class="message message-error" role="alert">
            <p>{t('plans_unreadable', failed.fileName)}</p>
            <ul>
              {failed.problems.map((p, i) => (
                <li key={i}>{p.path ? t('plans_problemAt', p.path, p.message) : p.message}</li>
              ))}
            </ul>
          </div>
          <label class="field">
            {t('plans_fileText')}
            <textarea rows={10} class="mono" value={failed.text} onInput={(e) => setFailed({ ...failed, text: (e.currentTarget as HTMLTextAreaElement).value })} />
          </label>
          <div class="actions">
            <button type="button" class="secondary" onClick={() => openImported(failed.fileName, failed.text)}>
              {t('plans_checkAgain')}
            </button>
            <button type="button" class="secondary" onClick={() => setFailed(null)}>
              {t('plans_dismiss')}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
