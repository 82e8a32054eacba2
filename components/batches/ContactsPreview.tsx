import type { ContactsPreview } from '../../lib/batches/contacts';
import { t, uiLocale } from '../../lib/i18n';
import { TableFit } from '../shared/TableFit';

const SHOWN_BAD = 100;
const SHOWN_GOOD = 10;
const count = (n: number) => new Intl.NumberFormat(uiLocale()).format(n);

function variablesText(variables: Record<string, string>): string {
  return Object.entries(variables)
    .map(([name, value]) => t('batches_variableIs', name, value || t('batches_emptyValue')))
    .join('; ');
}

/** The checked contact list: every bad row with its reason, a few good rows, and the variables the columns become. */
export function ContactsPreviewView({ preview }: { preview: ContactsPreview }) {
  if (preview.fileProblem) return null;
  const badRows = preview.rows.filter((r) => r.problems.length);
  const goodRows = preview.rows.filter((r) => !r.problems.length);
  return (
    <div class="contacts-preview">
      <p>
        {preview.bad === 0
          ? preview.good === 1
            ? t('batches_oneReady')
            : t('batches_allReady', count(preview.good))
          : t('batches_someWithProblems', count(preview.rows.length), count(preview.good), count(preview.bad))}
        {preview.emptyLines.length ? ` ${t('batches_emptyLinesLeftOut', count(preview.emptyLines.length))}` : ''}
      </p>
      <p class="hint">
        {preview.variables.length
          ? t('batches_variablesFromColumns', preview.variables.join(', '))
          : t('batches_noVariables')}
      </p>
      {badRows.length ? (
        <TableFit>
          <table class="contacts-bad">
            <caption>{t('batches_badCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('batches_colLine')}</th>
                <th scope="col">contact_number</th>
                <th scope="col">{t('batches_colProblem')}</th>
              </tr>
            </thead>
            <tbody>
              {badRows.slice(0, SHOWN_BAD).map((row) => (
                <tr key={row.line}>
                  <td class="num">{row.line}</td>
                  <td>{row.written || '—'}</td>
                  <td>{row.problems.join(' ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {badRows.length > SHOWN_BAD ? <p class="hint">{t('batches_firstBadShown', count(SHOWN_BAD), count(badRows.length))}</p> : null}
        </TableFit>
      ) : null}
      {goodRows.length ? (
        <TableFit>
          <table class="contacts-good">
            <caption>{t('batches_goodCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('batches_colLine')}</th>
                <th scope="col">{t('batches_colNumber')}</th>
                <th scope="col">{t('batches_colVariables')}</th>
              </tr>
            </thead>
            <tbody>
              {goodRows.slice(0, SHOWN_GOOD).map((row) => (
                <tr key={row.line}>
                  <td class="num">{row.line}</td>
                  <td>{row.e164}</td>
                  <td>{variablesText(row.variables) || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {goodRows.length > SHOWN_GOOD ? <p class="hint">{t('batches_firstGoodShown', count(SHOWN_GOOD), count(goodRows.length))}</p> : null}
        </TableFit>
      ) : null}
    </div>
  );
}
