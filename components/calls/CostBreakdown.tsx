import type { CostBreakdown as CostBreakdownData } from '../../lib/api/schemas/execution';
import { formatCents } from '../../lib/ui/format';

const PARTS: [keyof CostBreakdownData & string, string][] = [
  ['llm', 'Language model'],
  ['transcriber', 'Transcriber'],
  ['synthesizer', 'Voice synthesizer'],
  ['network', 'Telephony network'],
  ['platform', 'Platform'],
];

/** Costs are in cents on the wire; shown in dollars. */
export function CostBreakdown({ total, breakdown }: { total: number | null | undefined; breakdown: CostBreakdownData | null | undefined }) {
  const parts = PARTS.filter(([key]) => typeof breakdown?.[key] === 'number');
  return (
    <section class="cost" aria-labelledby="cost-title">
      <h3 id="cost-title">Cost</h3>
      <table>
        <tbody>
          {parts.map(([key, label]) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              <td class="num">{formatCents(breakdown?.[key] as number)}</td>
            </tr>
          ))}
          <tr class="total">
            <th scope="row">Total</th>
            <td class="num">{formatCents(total)}</td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}
