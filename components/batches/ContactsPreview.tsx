import type { ContactsPreview } from '../../lib/batches/contacts';

const SHOWN_BAD = 100;
const SHOWN_GOOD = 10;
const count = (n: number) => new Intl.NumberFormat(navigator.language).format(n);

function variablesText(variables: Record<string, string>): string {
  return Object.entries(variables)
    .map(([name, value]) => `${name} = ${value || '(empty)'}`)
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
          ? `All ${count(preview.good)} contacts are ready.`
          : `${count(preview.rows.length)} contacts: ${count(preview.good)} ready, ${count(preview.bad)} with problems. Fix them to create the batch.`}
        {preview.emptyLines.length ? ` Empty lines left out: ${count(preview.emptyLines.length)}.` : ''}
      </p>
      <p class="hint">
        {preview.variables.length
          ? `Variables from the other columns: ${preview.variables.join(', ')}.`
          : 'The list has no other columns: the calls get no variables.'}
      </p>
      {badRows.length ? (
        <div class="table-scroll">
          <table class="contacts-bad">
            <caption>Rows with problems</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">contact_number</th>
                <th scope="col">Problem</th>
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
          {badRows.length > SHOWN_BAD ? <p class="hint">{`The first ${SHOWN_BAD} of ${count(badRows.length)} rows with problems are shown.`}</p> : null}
        </div>
      ) : null}
      {goodRows.length ? (
        <div class="table-scroll">
          <table class="contacts-good">
            <caption>Contacts to call</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Number</th>
                <th scope="col">Variables</th>
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
          {goodRows.length > SHOWN_GOOD ? <p class="hint">{`The first ${SHOWN_GOOD} of ${count(goodRows.length)} ready contacts are shown.`}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
