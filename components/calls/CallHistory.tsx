import type { CallRecord } from '../../lib/calls/call-record';
import { t } from '../../lib/i18n';
import { formatDateTime } from '../../lib/ui/format';
import { EmptyState } from '../shared/EmptyState';
import { tNodes } from '../shared/Translated';
import { callStatusText } from './CallView';

interface CallHistoryProps {
  calls: CallRecord[];
  selectedId?: string | null;
  onOpen(callId: string): void;
  onCallAgain(call: CallRecord): void;
  onForget?(callId: string): void;
  /** Offered when there is no call yet: opens the dial form. */
  onDial?(): void;
}

/** Recent calls, newest first: each can be reopened or dialled again. */
export function CallHistory({ calls, selectedId, onOpen, onCallAgain, onForget, onDial }: CallHistoryProps) {
  if (calls.length === 0) {
    return onDial ? <EmptyState text={t('calls_noCallsYet')} action={t('calls_placeACall')} onAction={onDial} /> : <p class="hint">{t('calls_noCallsYet')}</p>;
  }
  return (
    <ul class="history">
      {calls.map((call) => {
        const titleId = `history-${call.id}`;
        return (
          <li key={call.id} class={call.id === selectedId ? 'selected' : undefined} aria-current={call.id === selectedId ? 'true' : undefined}>
            <p class="history-title" id={titleId}>
              {tNodes('calls_historyTitle', <span class="mono">{call.toNumber}</span>, call.agentName || call.agentId)}
            </p>
            <p class="hint">
              {t('calls_historyWhen', formatDateTime(call.createdAt), callStatusText(call))}
            </p>
            <div class="actions">
              <button type="button" class="secondary small" aria-describedby={titleId} onClick={() => onOpen(call.id)}>
                {t('calls_open')}
              </button>
              <button type="button" class="secondary small" aria-describedby={titleId} onClick={() => onCallAgain(call)}>
                {t('calls_callAgain')}
              </button>
              {onForget && call.step === 'finished' ? (
                <button type="button" class="secondary small" aria-describedby={titleId} onClick={() => onForget(call.id)}>
                  {t('calls_forget')}
                </button>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
