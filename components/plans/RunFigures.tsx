/**
 * A run's figures beyond one verdict per case (issue 21): passes of N and pass rates, flaky cases, the
 * cause of each failure (triage), the retries of calls that never connected, blocking vs advisory,
 * and the run against the plan's pinned baseline.
 */
import type { CaseResult, RunResult } from '../../lib/plans/judge';
import { gateRun, type CaseGate, type GateChange } from '../../lib/plans/gate';
import type { Triage } from '../../lib/plans/triage';
import { callErrorText, failureText } from '../../lib/plans/outcome-text';
import { formatDateTime } from '../../lib/ui/format';
import { t, uiLocale, type MessageKey } from '../../lib/i18n';
import { figure, num } from './plural';

const TRIAGE_LABEL: Record<Triage, MessageKey> = {
  'no-connection': 'plans_triageNoConnection',
  'account-or-service': 'plans_triageAccount',
  agent: 'plans_triageAgent',
  plan: 'plans_triagePlan',
};
export const triageLabel = (triage: Triage) => t(TRIAGE_LABEL[triage]);

const percent = (rate: number) => new Intl.NumberFormat(uiLocale(), { style: 'percent', maximumFractionDigits: 0 }).format(rate);

/** The run called some case more than once: the results show passes of N. */
export const isRepeated = (run: RunResult) => run.cases.some((c) => (c.repeats?.calls ?? 1) > 1);

/** "2 of 3 (67%)" and "flaky", for a case's row. */
export function PassesCell({ result }: { result: CaseResult }) {
  const r = result.repeats;
  if (!r) return <td>—</td>;
  return (
    <td>
      {t('plans_passesOf', num(r.passes), num(r.calls), percent(r.passRate))}
      {r.flaky ? <span class="plans-flaky"> {t('plans_flaky')}</span> : null}
    </td>
  );
}

/** What a case's details add: its pass rate against its minimum, its worst call, the cause and count of each failure, its retries. */
export function CaseFigures({ result }: { result: CaseResult }) {
  const r = result.repeats;
  const repeated = !!r && r.calls > 1;
  return (
    <>
      {result.triage ? <p>{t('plans_triageOf', triageLabel(result.triage))}</p> : null}
      {repeated ? (
        <p>
          {t('plans_passRateNeeded', num(r.passes), num(r.calls), percent(r.passRate), percent(r.minPassRate))}
          {r.flaky ? ` ${t('plans_flaky')}.` : ''}
          {r.worstRepeat !== null ? ` ${t('plans_worstCall', num(r.worstRepeat))}` : ''}
        </p>
      ) : null}
      {r?.retried ? <p>{t('plans_retriedCalls', num(r.retried))}</p> : null}
      {repeated && r.reasons.length ? (
        <ul aria-label={t('plans_reasonsOf', result.label)} class="plans-reasons">
          {r.reasons.map((x, i) => (
            <li key={i}>
              {t('plans_reasonCount', num(x.count))} {x.triage ? `${triageLabel(x.triage)}: ` : ''}
              {x.outcome ? failureText(x.outcome, t, figure) : x.errorCheck ? callErrorText(x.errorCheck, t) : x.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** The run's lines: blocking vs advisory, calls passed, retries. */
export function RunFigures({ run }: { run: RunResult }) {
  const a = run.advisory;
  const b = run.blocking;
  return (
    <>
      {a && b && a.pass + a.fail + a.error > 0 ? (
        <p>{t('plans_runGates', num(b.pass), num(b.fail), num(b.error), num(a.pass), num(a.fail), num(a.error))}</p>
      ) : null}
      {isRepeated(run) && run.calls !== undefined ? <p>{t('plans_callsPassed', num(run.passedCalls ?? 0), num(run.calls))}</p> : null}
      {(run.retries ?? []).map((x) => (
        <p key={x.round}>{x.problem ? t('plans_retryNotPlaced', num(x.round), x.problem) : t('plans_retryRound', num(x.round), num(x.calls))}</p>
      ))}
    </>
  );
}

const GATE_LINES: Array<[GateChange, MessageKey]> = [
  ['flaky', 'plans_flakyVsBaseline'],
  ['already-failing', 'plans_alreadyFailing'],
  ['fixed', 'plans_fixedVsBaseline'],
];

/** This run against the plan's baseline: regressions apart from flaky cases and cases already failing, with pass rates. */
export function BaselineFigures({ baseline, pinnedAt, run }: { baseline: RunResult; pinnedAt: number; run: RunResult }) {
  const gate = gateRun(baseline, run);
  const list = (cases: CaseGate[]) =>
    cases.map((c) => t('plans_rateChange', c.label, c.before === null ? '—' : percent(c.before), percent(c.after)) + (c.blocking ? '' : ` (${t('plans_advisory')})`)).join(', ');
  const flipped = gate.cases.filter((c) => c.change === 'flipped');
  // Still passing, but less often than in the baseline.
  const down = gate.cases.filter((c) => c.change === 'passing' && c.before !== null && c.after < c.before);
  return (
    <div class="plans-baseline" role="group" aria-label={t('plans_vsBaseline', formatDateTime(pinnedAt, { locale: uiLocale() }))}>
      <p>{t('plans_vsBaseline', formatDateTime(baseline.startedAt ? Date.parse(baseline.startedAt) : pinnedAt, { locale: uiLocale() }))}</p>
      <p class={flipped.length ? 'plans-fail' : undefined}>{flipped.length ? t('plans_regressions', list(flipped)) : t('plans_noRegressions')}</p>
      {GATE_LINES.map(([change, key]) => {
        const cases = gate.cases.filter((c) => c.change === change);
        return cases.length ? <p key={change}>{t(key, list(cases))}</p> : null;
      })}
      {down.length ? <p>{t('plans_rateDown', list(down))}</p> : null}
    </div>
  );
}
