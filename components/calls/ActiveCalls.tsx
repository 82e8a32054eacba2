import type { CallRecord } from '../../lib/calls/call-record';
import { t } from '../../lib/i18n';
import { callStatusText } from './CallView';

/** Calls still under way, so a person who reopens the popup finds them. */
export function ActiveCalls({ calls, onShow }: { calls: CallRecord[]; onShow(callId: string): void }) {
  const active = calls.filter((c) => c.step !== 'finished');
  if (active.length === 0) return null;
  return (
    <section class="active-calls" aria-labelledby="active-calls-title">
      <h2 id="active-calls-title">{t('calls_underWay')}</h2>
      <ul class="plain">
        {active.map((call) => (
          <li key={call.id}>
            <span id={`active-${call.id}`}>
              <span class="mono">{call.toNumber}</span> · {callStatusText(call)}
            </span>{' '}
            <button type="button" class="secondary small" aria-describedby={`active-${call.id}`} onClick={() => onShow(call.id)}>
              {t('calls_show')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
