import type { CostBreakdown as CostBreakdownData } from '../../lib/api/schemas/execution';
import { t, type MessageKey } from '../../lib/i18n';
import { formatCents } from '../../lib/money';

const PARTS: [keyof CostBreakdownData & string, MessageKey][] = [
  ['llm', 'cost_llm'],
  ['transcriber', 'cost_transcriber'],
  ['synthesizer', 'cost_synthesizer'],
  ['network', 'cost_network'],
  ['platform', 'cost_platform'],
];

/** Costs are in cents on the wire; shown in dollars. */
export function CostBreakdown({ total, breakdown }: { total: number | null | undefined; breakdown: CostBreakdownData | null | undefined }) {
  const parts = PARTS.filter(([key]) => typeof breakdown?.[key] === 'number');
  return (
    <section class="cost" aria-labelledby="cost-title">
      <h3 id="cost-title">{t('cost_title')}</h3>
      <table>
        <tbody>
          {parts.map(([key, label]) => (
            <tr key={key}>
              <th scope="row">{t(label)}</th>
              <td class="num">{formatCents(breakdown?.[key] as number)}</td>
            </tr>
          ))}
          <tr class="total">
            <th scope="row">{t('cost_total')}</th>
            <td class="num">{formatCents(total)}</td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}
