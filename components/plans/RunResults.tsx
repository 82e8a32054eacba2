import type { CaseResult, Verdict } from '../../lib/plans/judge';
import { toCsv, toJson, toJUnit } from '../../lib/plans/export';
import { formatDuration as formatRunDuration } from '../../lib/plans/report';
import { isRunActive, type PlanRun } from '../../lib/plans/run-state';
import { statusCounts } from '../../lib/plans/follow';
import { formatCents, formatDateTime, formatDuration } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import { ConfirmAction } from './ConfirmAction';
import { downloadText } from './download';

export const VERDICT_LABEL: Record<Verdict, string> = { pass: 'Pass', fail: 'Fail', error: 'Error' };
const PHASE_LABEL = { creating: 'Creating the batch…', scheduling: 'Scheduling the batch…', following: 'Calls under way…', finished: 'Finished', failed: 'Failed' } as const;

const locale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

function Progress({ run }: { run: PlanRun }) {
  const counts = run.follow ? statusCounts(run.follow) : {};
  const finished = run.follow ? Object.keys(run.follow.finished).length : 0;
  const parts = Object.entries(counts).map(([status, n]) => `${n} ${status}`);
  return (
    <>
      <StatusMessage>
        {run.stopRequested ? 'Stopping the run…' : PHASE_LABEL[run.phase]} {run.follow ? `${finished} of ${run.plan.cases.length} calls finished.` : ''}
        {parts.length ? ` Now: ${parts.join(', ')}.` : ''}
      </StatusMessage>
      {run.lastError ? <p class="hint">Last problem (the run keeps trying): {run.lastError}</p> : null}
      <ConfirmAction
        label="Stop run"
        question={`Stop this run of ${run.plan.name}? Calls not yet placed will not be made; the cases are judged on the calls that finished.`}
        confirmLabel="Stop the run"
        disabled={run.stopRequested}
        onConfirm={async () => void (await send({ type: 'plans/stop-run', runId: run.id }))}
      />
    </>
  );
}

function CaseDetails({ result }: { result: CaseResult }) {
  return (
    <details class="plans-case-details">
      <summary>
        {result.label}: {VERDICT_LABEL[result.verdict]}
      </summary>
      {result.error ? <p>{result.error}</p> : null}
      {result.outcomes.length ? (
        <table>
          <caption class="visually-hidden">Expectations of {result.label}</caption>
          <thead>
            <tr>
              <th scope="col">Expectation</th>
              <th scope="col">Expected</th>
              <th scope="col">Actual</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {result.outcomes.map((o, i) => (
              <tr key={i} class={o.passed ? 'plans-pass' : 'plans-fail'}>
                <td>{o.name}</td>
                <td>{o.expected}</td>
                <td>{o.actual}</td>
                <td>{o.passed ? 'Holds' : 'Does not hold'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : !result.error ? (
        <p class="hint">This case has no expectations: the call happening is enough.</p>
      ) : null}
    </details>
  );
}

/** A run: its progress while it runs, then the verdict per case with each expectation's outcome, and the exports. */
export function RunResults({ run, openExecution }: { run: PlanRun; openExecution(executionId: string): void }) {
  const r = run.result;
  const base = `${run.plan.name}-${new Date(run.createdAt).toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;
  return (
    <section class="plans-run" aria-label="Run results">
      <h3>Run of {formatDateTime(run.createdAt, { locale: locale() })}</h3>
      {isRunActive(run) ? <Progress run={run} /> : null}
      {run.phase === 'failed' ? <ErrorMessage>The run failed: {run.lastError}</ErrorMessage> : null}
      {r ? (
        <>
          <p class={`plans-verdict plans-${r.verdict}`}>
            Verdict: {VERDICT_LABEL[r.verdict]}. {r.counts.pass} passed, {r.counts.fail} failed, {r.counts.error} in error.
          </p>
          <p>
            Duration: {r.durationMs === null ? '—' : formatRunDuration(r.durationMs)}. Total cost: {formatCents(r.totalCostCents, 'USD', locale())}.
            {r.batchId ? <span class="hint"> Batch {r.batchId}.</span> : null}
          </p>
          <div class="table-scroll">
            <table class="plans-results">
              <caption class="visually-hidden">Verdict per case</caption>
              <thead>
                <tr>
                  <th scope="col">Case</th>
                  <th scope="col">Verdict</th>
                  <th scope="col">Status</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Cost</th>
                  <th scope="col">Call</th>
                </tr>
              </thead>
              <tbody>
                {r.cases.map((c) => (
                  <tr key={c.caseId} class={`plans-${c.verdict}`}>
                    <th scope="row">{c.label}</th>
                    <td>{VERDICT_LABEL[c.verdict]}</td>
                    <td>{c.status ?? '—'}</td>
                    <td>{formatDuration(c.durationSeconds)}</td>
                    <td>{formatCents(c.costCents, 'USD', locale())}</td>
                    <td>
                      {c.executionId ? (
                        <button type="button" class="secondary small" onClick={() => openExecution(c.executionId!)}>
                          Open call of {c.label}
                        </button>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {r.cases.map((c) => (
            <CaseDetails key={c.caseId} result={c} />
          ))}
          <div class="actions">
            <button type="button" class="secondary" onClick={() => downloadText(`${base}.junit.xml`, toJUnit(r), 'application/xml')}>
              Download JUnit XML
            </button>
            <button type="button" class="secondary" onClick={() => downloadText(`${base}.json`, toJson(r), 'application/json')}>
              Download JSON
            </button>
            <button type="button" class="secondary" onClick={() => downloadText(`${base}.csv`, toCsv(r), 'text/csv')}>
              Download CSV
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}
