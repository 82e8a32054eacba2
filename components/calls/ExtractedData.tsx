import { formatValue } from '../../lib/ui/format';

/** The values the agent extracted from the conversation, as a two-column table. */
export function ExtractedData({ data }: { data: Record<string, unknown> | null | undefined }) {
  const entries = Object.entries(data ?? {});
  return (
    <section class="extracted" aria-labelledby="extracted-title">
      <h3 id="extracted-title">Extracted data</h3>
      {entries.length === 0 ? (
        <p class="hint">No data was extracted.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([name, value]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{formatValue(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
