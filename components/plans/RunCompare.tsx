import { useState } from 'preact/hooks';
import { compareRuns } from '../../lib/plans/compare';
import { runResultOf } from '../../lib/plans/guided';
import type { PlanRun } from '../../lib/plans/run-state';
import { formatValue, formatDateTime } from '../../lib/ui/format';
import type { Verdict } from '../../lib/plans/judge';
import { phaseLabel, verdictLabel } from './RunResults';
import { t, uiLocale } from '../../lib/i18n';
import { plural } from './plural';

const runName = (run: PlanRun) => t('plans_runName', formatDateTime(run.createdAt, { locale: uiLocale() }), run.result ? verdictLabel(runResultOf(run)!.verdict) : phaseLabel(run.phase));
const verdictText = (v: Verdict | undefined) => (v ? verdictLabel(v) : t('plans_notInRun'));

/** Two finished runs of a plan side by side: what changed between them. */
export function RunCompare({ runs }: { runs: PlanRun[] }) {
  const done = runs.filter((r) => r.result).sort((a, b) => a.createdAt - b.createdAt);
  const [beforeId, setBeforeId] = useState(done[done.length - 2]?.id ?? '');
  const [afterId, setAfterId] = useState(done[done.length - 1]?.id ?? '');
  const before = done.find((r) => r.id === beforeId);
  const after = done.find((r) => r.id === afterId);
  const comparison = before?.result && after?.result ? compareRuns(runResultOf(before)!, runResultOf(after)!) : null;
  const changed = comparison?.cases.filter((c) => c.verdictChanged || c.extractedChanges.length || c.transcriptChanged) ?? [];

  const picker = (label: string, value: string, onChange: (id: string) => void) => (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}>
        {done.map((r) => (
          <option key={r.id} value={r.id}>
            {runName(r)}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section class="plans-compare" aria-label={t('plans_compareRuns')}>
      <h3>{t('plans_compareTwoRuns')}</h3>
      <div class="plans-grid">
        {picker(t('plans_earlierRun'), beforeId, setBeforeId)}
        {picker(t('plans_laterRun'), afterId, setAfterId)}
      </div>
      {comparison ? (
        <>
          <p>
            {t('plans_runVerdicts', verdictLabel(comparison.verdicts.before), verdictLabel(comparison.verdicts.after))}{' '}
            {plural(comparison.verdictChanges, 'plans_verdictChangesOne', 'plans_verdictChangesOther')}
          </p>
          {changed.length === 0 ? <p class="hint">{t('plans_nothingChanged')}</p> : null}
          {changed.map((c) => (
            <article key={c.caseId} class="plans-compare-case" aria-label={t('plans_changesIn', c.label)}>
              <h4>{c.label}</h4>
              {c.verdictChanged ? (
                <p>
                  {t('plans_caseVerdicts', verdictText(c.before?.verdict), verdictText(c.after?.verdict))}
                </p>
              ) : null}
              {c.extractedChanges.length ? (
                <table>
                  <caption>{t('plans_changedValues')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('plans_field')}</th>
                      <th scope="col">{t('plans_colEarlier')}</th>
                      <th scope="col">{t('plans_colLater')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {c.extractedChanges.map((x) => (
                      <tr key={x.field}>
                        <th scope="row">{x.field}</th>
                        <td>{x.before === undefined ? t('plans_absent') : formatValue(x.before)}</td>
                        <td>{x.after === undefined ? t('plans_absent') : formatValue(x.after)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : null}
              {c.transcriptChanged ? (
                <figure>
                  <figcaption>{t('plans_transcriptChanges')}</figcaption>
                  <pre class="plans-diff">
                    {c.transcript.map((d, i) => (
                      <span key={i} class={`plans-diff-${d.kind}`}>
                        {d.kind === 'removed' ? '− ' : d.kind === 'added' ? '+ ' : '  '}
                        {d.text}
                        {'\n'}
                      </span>
                    ))}
                  </pre>
                </figure>
              ) : null}
            </article>
          ))}
        </>
      ) : null}
    </section>
  );
}
