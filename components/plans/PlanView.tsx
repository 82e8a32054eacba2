import { useState } from 'preact/hooks';
import { planToJson } from '../../lib/plans';
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
import { RunResults, VERDICT_LABEL } from './RunResults';

interface PlanViewProps {
  stored: StoredPlan;
  /** This plan's runs, newest first. */
  runs: PlanRun[];
  onEdit(): void;
  onDeleted(): void;
  openExecution(executionId: string): void;
}

const locale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

/** One plan: its cases at a glance, Run, its runs with their results, and two runs compared. */
export function PlanView({ stored, runs, onEdit, onDeleted, openExecution }: PlanViewProps) {
  const { plan } = stored;
  const [confirming, setConfirming] = useState(false);
  const [runId, setRunId] = useState<string | null>(runs[0]?.id ?? null);
  const [error, setError] = useState<string | null>(null);
  const shown = runs.find((r) => r.id === runId) ?? runs[0];
  const running = runs.some(isRunActive);

  return (
    <section class="plans-plan" aria-label={`Plan ${plan.name}`}>
      <h2>{plan.name}</h2>
      <p class="hint">
        {plan.cases.length === 1 ? '1 case' : `${plan.cases.length} cases`} for agent <span class="mono">{plan.agent_id}</span>.
      </p>
      <ul class="plans-case-list">
        {plan.cases.map((c) => (
          <li key={c.id}>
            {c.label} <span class="hint mono">{c.contact_number}</span>
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="primary" onClick={() => setConfirming(true)} disabled={confirming || running}>
          Run plan
        </button>
        <button type="button" class="secondary" onClick={onEdit}>
          Edit plan
        </button>
        <button type="button" class="secondary" onClick={() => downloadText(`${plan.name}.json`, planToJson(plan), 'application/json')}>
          Export plan file
        </button>
        <ConfirmAction
          label="Delete plan"
          question={`Delete the plan ${plan.name}, its ${plan.cases.length} cases and its ${runs.length} stored runs? This cannot be undone.`}
          confirmLabel="Delete the plan"
          onConfirm={async () => {
            const reply = await send({ type: 'plans/delete', planId: stored.id });
            if (reply.ok) onDeleted();
            else setError(reply.error.message);
          }}
        />
      </div>
      {running ? <p class="hint">A run of this plan is in progress; a new one can start when it ends.</p> : null}
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
      {runs.length ? (
        <>
          <label class="field">
            Run shown
            <select value={shown?.id} onChange={(e) => setRunId((e.currentTarget as HTMLSelectElement).value)}>
              {runs.map((r) => (
                <option key={r.id} value={r.id}>
                  {formatDateTime(r.createdAt, { locale: locale() })}: {r.result ? VERDICT_LABEL[r.result.verdict] : 'in progress'}
                </option>
              ))}
            </select>
          </label>
          {shown ? <RunResults run={shown} openExecution={openExecution} /> : null}
          {shown && !isRunActive(shown) ? (
            <ConfirmAction
              label="Delete this run"
              question={`Delete the run of ${formatDateTime(shown.createdAt, { locale: locale() })} and its results? The calls stay in the service's history.`}
              confirmLabel="Delete the run"
              onConfirm={async () => {
                const reply = await send({ type: 'plans/delete-run', runId: shown.id });
                if (!reply.ok) setError(reply.error.message);
              }}
            />
          ) : null}
          {runs.filter((r) => r.result).length >= 2 ? <RunCompare runs={runs} /> : null}
        </>
      ) : (
        <p class="hint">No runs yet.</p>
      )}
    </section>
  );
}
