import { useState } from 'preact/hooks';
import { compareRuns } from '../../lib/plans/compare';
import type { PlanRun } from '../../lib/plans/run-state';
import { formatValue, formatDateTime } from '../../lib/ui/format';
import { VERDICT_LABEL } from './RunResults';

const locale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);
const runName = (run: PlanRun) => `${formatDateTime(run.createdAt, { locale: locale() })} (${run.result ? VERDICT_LABEL[run.result.verdict] : run.phase})`;
const verdictText = (v: keyof typeof VERDICT_LABEL | undefined) => (v ? VERDICT_LABEL[v] : 'not in this run');

/** Two finished runs of a plan side by side: what changed between them. */
export function RunCompare({ runs }: { runs: PlanRun[] }) {
  const done = runs.filter((r) => r.result).sort((a, b) => a.createdAt - b.createdAt);
  const [beforeId, setBeforeId] = useState(done[done.length - 2]?.id ?? '');
  const [afterId, setAfterId] = useState(done[done.length - 1]?.id ?? '');
  const before = done.find((r) => r.id === beforeId);
  const after = done.find((r) => r.id === afterId);
  const comparison = before?.result && after?.result ? compareRuns(before.result, after.result) : null;
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
    <section class="plans-compare" aria-label="Compare runs">
      <h3>Compare two runs</h3>
      <div class="plans-grid">
        {picker('Earlier run', beforeId, setBeforeId)}
        {picker('Later run', afterId, setAfterId)}
      </div>
      {comparison ? (
        <>
          <p>
            Run verdict: {VERDICT_LABEL[comparison.verdicts.before]} then {VERDICT_LABEL[comparison.verdicts.after]}.{' '}
            {comparison.verdictChanges === 1 ? '1 case changed its verdict.' : `${comparison.verdictChanges} cases changed their verdict.`}
          </p>
          {changed.length === 0 ? <p class="hint">Nothing changed between these runs.</p> : null}
          {changed.map((c) => (
            <article key={c.caseId} class="plans-compare-case" aria-label={`Changes in ${c.label}`}>
              <h4>{c.label}</h4>
              {c.verdictChanged ? (
                <p>
                  Verdict: {verdictText(c.before?.verdict)} then {verdictText(c.after?.verdict)}.
                </p>
              ) : null}
              {c.extractedChanges.length ? (
                <table>
                  <caption>Extracted values that changed</caption>
                  <thead>
                    <tr>
                      <th scope="col">Field</th>
                      <th scope="col">Earlier</th>
                      <th scope="col">Later</th>
                    </tr>
                  </thead>
                  <tbody>
                    {c.extractedChanges.map((x) => (
                      <tr key={x.field}>
                        <th scope="row">{x.field}</th>
                        <td>{x.before === undefined ? '(absent)' : formatValue(x.before)}</td>
                        <td>{x.after === undefined ? '(absent)' : formatValue(x.after)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : null}
              {c.transcriptChanged ? (
                <figure>
                  <figcaption>Transcript changes (− earlier only, + later only)</figcaption>
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
