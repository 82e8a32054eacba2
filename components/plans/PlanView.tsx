import { useState } from 'preact/hooks';
import { planToJson } from '../../lib/plans';
import { runResultOf } from '../../lib/plans/guided';
import { GuidedStart } from './GuidedStart';
import type { PlanRun } from '../../lib/plans/run-state';
import { isRunActive } from '../../lib/plans/run-state';
import type { StoredPlan } from '../../lib/plans/store';
import { formatDateTime } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ErrorMessage } from '../shared/Messages';
import { ConfirmAction } from './ConfirmAction';
import { downloadText } from './download';
import { RunCompare } from './RunCompare';
import { RunConfirm } from './RunConfirm';
import { RunResults, verdictLabel } from './RunResults';
import { t, uiLocale } from '../../lib/i18n';
import { tNodes } from '../shared/Translated';
import { num, plural, pluralKey } from './plural';

interface PlanViewProps {
  stored: StoredPlan;
  /** This plan's runs, newest first. */
  runs: PlanRun[];
  onEdit(): void;
  onDeleted(): void;
  openExecution(executionId: string): void;
}

/** One plan: its cases at a glance, Run, its runs with their results, and two runs compared. */
export function PlanView({ stored, runs, onEdit, onDeleted, openExecution }: PlanViewProps) {
  const { plan } = stored;
  const [confirming, setConfirming] = useState(false);
  /** The case a guided call is being set up for. */
  const [guiding, setGuiding] = useState<string | null>(null);
  const [runId, setRunId] = useState<string | null>(runs[0]?.id ?? null);
  const [error, setError] = useState<string | null>(null);
  const shown = runs.find((r) => r.id === runId) ?? runs[0];
  const running = runs.some(isRunActive);

  return (
    <section class="plans-plan" aria-label={t('plans_planNamed', plan.name)}>
      <h2>{plan.name}</h2>
      <p class="hint">
        {tNodes(pluralKey(plan.cases.length, 'plans_planSummaryOne', 'plans_planSummaryOther'), num(plan.cases.length), <span class="mono">{plan.agent_id}</span>)}
      </p>
      <ul class="plans-case-list">
        {plan.cases.map((c) => (
          <li key={c.id}>
            {c.label} <span class="hint mono">{c.contact_number}</span>
            {c.caller_script ? (
              <>
                {' '}
                <button type="button" class="secondary small" aria-label={t('plans_guidedCallOf', c.label)} onClick={() => setGuiding(c.id)} disabled={running || guiding !== null}>
                  {t('plans_guidedCall')}
                </button>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="primary" onClick={() => setConfirming(true)} disabled={confirming || running}>
          {t('plans_runPlan')}
        </button>
        <button type="button" class="secondary" onClick={onEdit}>
          {t('plans_editPlan')}
        </button>
        <button type="button" class="secondary" onClick={() => downloadText(`${plan.name}.json`, planToJson(plan), 'application/json')}>
          {t('plans_exportPlan')}
        </button>
        <ConfirmAction
          label={t('plans_deletePlan')}
          question={t(
            'plans_deletePlanQuestion',
            plan.name,
            plural(plan.cases.length, 'plans_caseCountOne', 'plans_caseCountOther'),
            plural(runs.length, 'plans_storedRunsOne', 'plans_storedRunsOther'),
          )}
          confirmLabel={t('plans_deletePlanConfirm')}
          onConfirm={async () => {
            const reply = await send({ type: 'plans/delete', planId: stored.id });
            if (reply.ok) onDeleted();
            else setError(reply.error.message);
          }}
        />
      </div>
      {running ? <p class="hint">{t('plans_runInProgress')}</p> : null}
      <ErrorMessage>{error}</ErrorMessage>
      {confirming ? (
        <RunConfirm
          planId={stored.id}
          planName={plan.name}
          onCancel={() => setConfirming(false)}
          onStarted={(id) => {
            setConfirming(false);
            setRunId(id);
          }}
        />
      ) : null}
      {guiding ? (
        <GuidedStart
          planId={stored.id}
          testCase={plan.cases.find((c) => c.id === guiding)!}
          onCancel={() => setGuiding(null)}
          onStarted={(id) => {
            setGuiding(null);
            setRunId(id);
          }}
        />
      ) : null}
      {runs.length ? (
        <>
          <label class="field">
            {t('plans_runShown')}
            <select value={shown?.id} onChange={(e) => setRunId((e.currentTarget as HTMLSelectElement).value)}>
              {runs.map((r) => (
                <option key={r.id} value={r.id}>
                  {t('plans_runOption', formatDateTime(r.createdAt, { locale: uiLocale() }), r.result ? verdictLabel(runResultOf(r)!.verdict) : t('plans_inProgress'))}
                </option>
              ))}
            </select>
          </label>
          {shown ? <RunResults run={shown} openExecution={openExecution} baseline={stored.baseline ?? null} onError={setError} /> : null}
          {shown && !isRunActive(shown) ? (
            <ConfirmAction
              label={t('plans_deleteRun')}
              question={t('plans_deleteRunQuestion', formatDateTime(shown.createdAt, { locale: uiLocale() }))}
              confirmLabel={t('plans_deleteRunConfirm')}
              onConfirm={async () => {
                const reply = await send({ type: 'plans/delete-run', runId: shown.id });
                if (!reply.ok) setError(reply.error.message);
              }}
            />
          ) : null}
          {runs.filter((r) => r.result).length >= 2 ? <RunCompare runs={runs} /> : null}
        </>
      ) : (
        <p class="hint">{t('plans_noRuns')}</p>
      )}
    </section>
  );
}
