import type { Execution } from '../../lib/api/schemas/execution';
import { formatDuration } from '../../lib/ui/format';

function text(value: unknown): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** Who called whom, who hung up and why, as the telephony provider reported it. */
export function TelephonyDetails({ execution }: { execution: Execution }) {
  const t = execution.telephony_data;
  const rows: [string, unknown][] = [
    ['From', t?.from_number],
    ['To', t?.to_number ?? execution.context_details?.recipient_phone_number],
    ['Hang-up by', t?.hangup_by],
    ['Hang-up reason', t?.hangup_reason],
    ['Hang-up code', t?.hangup_provider_code],
    ['Provider', t?.provider],
    ['Call type', t?.call_type],
    ['Line duration', typeof t?.duration === 'number' ? formatDuration(t.duration) : null],
    ['Provider call id', t?.provider_call_id],
    ['Execution id', execution.id],
    ['Batch id', execution.batch_id],
  ];
  return (
    <section class="telephony" aria-labelledby="telephony-title">
      <h3 id="telephony-title">Telephony</h3>
      <dl class="details">
        {rows.map(([label, value]) => (
          <div key={label} class="details-row">
            <dt>{label}</dt>
            <dd class={label.endsWith('id') ? 'mono' : undefined}>{text(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
