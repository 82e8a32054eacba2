import type { Execution } from '../../lib/api/schemas/execution';
import { t, type MessageKey } from '../../lib/i18n';
import { formatDuration } from '../../lib/ui/format';

function text(value: unknown): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** Who called whom, who hung up and why, as the telephony provider reported it. */
export function TelephonyDetails({ execution }: { execution: Execution }) {
  const telephony = execution.telephony_data;
  // The ids are shown in a monospace font.
  const rows: [MessageKey, unknown, boolean?][] = [
    ['telephony_from', telephony?.from_number],
    ['telephony_to', telephony?.to_number ?? execution.context_details?.recipient_phone_number],
    ['telephony_hangupBy', telephony?.hangup_by],
    ['telephony_hangupReason', telephony?.hangup_reason],
    ['telephony_hangupCode', telephony?.hangup_provider_code],
    ['telephony_provider', telephony?.provider],
    ['telephony_callType', telephony?.call_type],
    ['telephony_lineDuration', typeof telephony?.duration === 'number' ? formatDuration(telephony.duration) : null],
    ['telephony_providerCallId', telephony?.provider_call_id, true],
    ['telephony_executionId', execution.id, true],
    ['telephony_batchId', execution.batch_id, true],
  ];
  return (
    <section class="telephony" aria-labelledby="telephony-title">
      <h3 id="telephony-title">{t('telephony_title')}</h3>
      <dl class="details">
        {rows.map(([label, value, mono]) => (
          <div key={label} class="details-row">
            <dt>{t(label)}</dt>
            <dd class={mono ? 'mono' : undefined}>{text(value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
