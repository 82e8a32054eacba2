import { t } from '../../lib/i18n';
import { formatValue } from '../../lib/ui/format';

/** The values the agent extracted from the conversation, as a two-column table. */
export function ExtractedData({ data }: { data: Record<string, unknown> | null | undefined }) {
  const entries = Object.entries(data ?? {});
  return (
    <section class="extracted" aria-labelledby="extracted-title">
      <h3 id="extracted-title">{t('extracted_title')}</h3>
      {entries.length === 0 ? (
        <p class="hint">{t('extracted_none')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('extracted_field')}</th>
              <th scope="col">{t('extracted_value')}</th>
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
