import type { CaseResult, Verdict } from '../../lib/plans/judge';
import { toCsv, toJson, toJUnit } from '../../lib/plans/export';
import { formatDuration as formatRunDuration } from '../../lib/plans/report';
import { isRunActive, placementCalls, type PlanRun } from '../../lib/plans/run-state';
import type { PlanBaseline } from '../../lib/plans/store';
import { BaselineFigures, CaseFigures, isRepeated, PassesCell, RunFigures } from './RunFigures';
import { statusCounts } from '../../lib/placement/follow-batch';
import { statusText } from '../../lib/calls/status-text';
import { formatCents } from '../../lib/money';
import { formatDateTime, formatDuration } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import { ConfirmAction } from './ConfirmAction';
import { downloadText } from './download';
import { t, uiLocale, type MessageKey } from '../../lib/i18n';
import { figure, num } from './plural';
import { TableFit } from '../shared/TableFit';
import { elapsedText, runResultOf } from '../../lib/plans/guided';
import type { LatencyFigures } from '../../lib/plans/latency';
import type { ScriptStep, ScriptStepResult } from '../../lib/plans/checks-schema';
import { callErrorText, outcomeText, stepText } from '../../lib/plans/outcome-text';
import { GuidedCall } from './GuidedCall';

const ms = (n: number | null) => (n === null ? '—' : t('plans_ms', num(Math.round(n))));

/** The call's latency figures (the bounds and their outcomes are in the expectations table). */
function Latency({ figures }: { figures: LatencyFigures }) {
  return (
    <p class="plans-latency">
      {t('plans_latencyFigures', ms(figures.firstAudioMs), ms(figures.medianMs), ms(figures.p95Ms), ms(figures.worstMs), num(figures.turnsMs.length))}
    </p>
  );
}

/** A guided case's script with the tester's marks, as the verdict took them; each step in the UI's language when the plan still has it. */
function ScriptMarks({ steps, script }: { steps: ScriptStepResult[]; script: readonly ScriptStep[] | undefined }) {
  return (
    <ol class="plans-steps">
      {steps.map((s) => (
        <li key={s.step} class={s.mark ? `plans-step-${s.mark}` : undefined}>
          <span class="plans-step-text">{script?.[s.step - 1] ? stepText(script[s.step - 1]!, t, figure) : s.text}</span>{' '}
          <span class="plans-step-mark">
            {s.mark === 'done' ? t('plans_markedDone', elapsedText(s.atMs ?? 0)) : s.mark === 'wrong' ? t('plans_markedWrong', elapsedText(s.atMs ?? 0), s.note || '—') : t('plans_notMarked')}
          </span>
        </li>
      ))}
    </ol>
  );
}

const VERDICT_LABEL: Record<Verdict, MessageKey> = { pass: 'plans_verdictPass', fail: 'plans_verdictFail', error: 'plans_verdictError' };
const PHASE_LABEL: Record<PlanRun['phase'], MessageKey> = {
  creating: 'plans_phaseCreating',
  scheduling: 'plans_phaseScheduling',
  following: 'plans_phaseFollowing',
  finished: 'plans_phaseFinished',
  failed: 'plans_phaseFailed',
};

/** A verdict as shown: "Pass", "Fail", "Error". */
export const verdictLabel = (verdict: Verdict): string => t(VERDICT_LABEL[verdict]);
/** A run's phase as shown: "Calls under way…". */
export const phaseLabel = (phase: PlanRun['phase']): string => t(PHASE_LABEL[phase]);

function Progress({ run }: { run: PlanRun }) {
  const counts = run.follow ? statusCounts(run.follow) : {};
  const finished = run.follow ? Object.keys(run.follow.finished).length : 0;
  // Each status in the person's words and language ("3 In progress"), as the call view says it.
  const parts = Object.entries(counts).map(([status, n]) => t('plans_statusCount', num(n), statusText(status)));
  return (
    <>
      <StatusMessage>
        {run.stopRequested && !run.abandoned ? t('plans_stopping') : phaseLabel(run.phase)} {run.follow ? t('plans_callsFinished', num(finished), num(placementCalls(run))) : ''}
        {parts.length ? ` ${t('plans_statusNow', parts.join(', '))}` : ''}
      </StatusMessage>
      {run.lastError ? <p class="hint">{t('plans_lastProblem', run.lastError)}</p> : null}
      <ConfirmAction
        label={t('plans_stopRun')}
        question={t('plans_stopRunQuestion', run.plan.name)}
        confirmLabel={t('plans_stopRunConfirm')}
        disabled={run.stopRequested}
        onConfirm={async () => void (await send({ type: 'plans/stop-run', runId: run.id }))}
      />
    </>
  );
}

function CaseDetails({ result, script }: { result: CaseResult; script: readonly ScriptStep[] | undefined }) {
  return (
    <details class="plans-case-details">
      <summary>
        {t('plans_caseVerdict', result.label, verdictLabel(result.verdict))}
      </summary>
      <CaseFigures result={result} />
      {result.error ? <p>{result.errorCheck ? callErrorText(result.errorCheck, t) : result.error}</p> : null}
      {result.outcomes.length ? (
        <table>
          <caption class="visually-hidden">{t('plans_expectationsOf', result.label)}</caption>
          <thead>
            <tr>
              <th scope="col">{t('plans_colExpectation')}</th>
              <th scope="col">{t('plans_colExpected')}</th>
              <th scope="col">{t('plans_colActual')}</th>
              <th scope="col">{t('plans_colOutcome')}</th>
            </tr>
          </thead>
          <tbody>
            {result.outcomes.map((o, i) => {
              // Our words in the UI's language; the exports keep the judge's English (lib/plans/outcome-text.ts).
              const x = outcomeText(o, t, figure);
              return (
                <tr key={i} class={o.passed ? 'plans-pass' : 'plans-fail'}>
                  <td>{x.name}</td>
                  <td>{x.expected}</td>
                  <td>{x.actual}</td>
                  <td>{o.passed ? t('plans_holds') : t('plans_doesNotHold')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : !result.error ? (
        <p class="hint">{t('plans_noExpectations')}</p>
      ) : null}
      {result.latency ? <Latency figures={result.latency} /> : null}
      {result.script ? <ScriptMarks steps={result.script} script={script} /> : null}
    </details>
  );
}

/** Pin this run as the plan's baseline, or unpin it when it is. */
function PinBaseline({ run, baseline, onError }: { run: PlanRun; baseline: PlanBaseline | null; onError(message: string): void }) {
  const pinned = baseline?.runId === run.id;
  const pin = async (runId: string | null) => {
    const reply = await send({ type: 'plans/pin-baseline', planId: run.planId, runId });
    if (!reply.ok) onError(reply.error.message);
  };
  return pinned ? (
    <>
      <p class="hint">{t('plans_isBaseline')}</p>
      <button type="button" class="secondary" onClick={() => void pin(null)}>
        {t('plans_unpinBaseline')}
      </button>
    </>
  ) : (
    <button type="button" class="secondary" onClick={() => void pin(run.id)}>
      {t('plans_pinBaseline')}
    </button>
  );
}

/** A run: its progress while it runs, then the verdict per case with each expectation's outcome, its figures against the baseline, and the exports. */
export function RunResults({
  run,
  openExecution,
  baseline = null,
  onError = () => {},
}: {
  run: PlanRun;
  openExecution(executionId: string): void;
  /** The plan's pinned baseline, if any. */
  baseline?: PlanBaseline | null;
  onError?(message: string): void;
}) {
  // A guided run's marks join its verdict here, in every export too (lib/plans/guided.ts).
  const r = runResultOf(run);
  const repeated = r ? isRepeated(r) : false;
  const base = `${run.plan.name}-${new Date(run.createdAt).toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;
  return (
    <section class="plans-run" aria-label={t('plans_runResults')}>
      <h3>{t('plans_runOf', formatDateTime(run.createdAt, { locale: uiLocale() }))}</h3>
      {isRunActive(run) ? <Progress run={run} /> : null}
      {run.guided ? <GuidedCall run={run} /> : null}
      {run.phase === 'failed' ? <ErrorMessage>{t('plans_runFailed', run.lastError ?? '')}</ErrorMessage> : null}
      {r ? (
        <>
          <p class={`plans-verdict plans-${r.verdict}`}>
            {t('plans_runVerdict', verdictLabel(r.verdict), num(r.counts.pass), num(r.counts.fail), num(r.counts.error))}
          </p>
          <p>
            {t('plans_runTotals', r.durationMs === null ? '—' : formatRunDuration(r.durationMs), formatCents(r.totalCostCents))}
            {r.batchId ? <span class="hint"> {t('plans_batchId', r.batchId)}</span> : null}
          </p>
          <RunFigures run={r} />
          {baseline && baseline.runId !== run.id && !r.interrupted ? <BaselineFigures baseline={baseline.result} pinnedAt={baseline.pinnedAt} run={r} /> : null}
          <TableFit>
            <table class="plans-results">
              <caption class="visually-hidden">{t('plans_verdictPerCase')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('plans_colCase')}</th>
                  <th scope="col">{t('plans_colVerdict')}</th>
                  {repeated ? <th scope="col">{t('plans_colPasses')}</th> : null}
                  <th scope="col">{t('plans_colStatus')}</th>
                  <th scope="col">{t('plans_colDuration')}</th>
                  <th scope="col">{t('plans_colCost')}</th>
                  <th scope="col">{t('plans_colCall')}</th>
                </tr>
              </thead>
              <tbody>
                {r.cases.map((c) => (
                  <tr key={c.caseId} class={`plans-${c.verdict}`}>
                    <th scope="row">{c.label}</th>
                    <td>
                      {verdictLabel(c.verdict)}
                      {c.gate === 'advisory' ? <span class="hint"> ({t('plans_advisory')})</span> : null}
                    </td>
                    {repeated ? <PassesCell result={c} /> : null}
                    <td>{c.status ?? '—'}</td>
                    <td>{formatDuration(c.durationSeconds)}</td>
                    <td>{formatCents(c.costCents)}</td>
                    <td>
                      {c.executionId ? (
                        <button type="button" class="secondary small" onClick={() => openExecution(c.executionId!)}>
                          {t('plans_openCallOf', c.label)}
                        </button>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableFit>
          {r.cases.map((c) => (
            <CaseDetails key={c.caseId} result={c} script={run.plan.cases.find((x) => x.id === c.caseId)?.caller_script} />
          ))}
          <div class="actions">
            <PinBaseline run={run} baseline={baseline} onError={onError} />
          </div>
          <div class="actions">
            <button type="button" class="secondary" onClick={() => downloadText(`${base}.junit.xml`, toJUnit(r), 'application/xml')}>
              {t('plans_downloadJUnit')}
            </button>
            <button type="button" class="secondary" onClick={() => downloadText(`${base}.json`, toJson(r), 'application/json')}>
              {t('plans_downloadJson')}
            </button>
            <button type="button" class="secondary" onClick={() => downloadText(`${base}.csv`, toCsv(r), 'text/csv')}>
              {t('plans_downloadCsv')}
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}
