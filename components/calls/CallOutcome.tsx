import type { Execution } from '../../lib/api/schemas/execution';
import { answered, isTerminalExecutionStatus } from '../../lib/calls/status';
import { statusExplanation, statusText } from '../../lib/calls/status-text';
import { t, uiLocale } from '../../lib/i18n';
import { executionDuration } from '../../lib/executions/duration';
import { formatDuration } from '../../lib/ui/format';
import { tNodes } from '../shared/Translated';

/** The plain meaning of a finished execution's status, with the service's own error message. */
export function outcomeExplanation(execution: Pick<Execution, 'status' | 'conversation_duration' | 'conversation_time' | 'answered_by_voice_mail'>): string {
  const status = execution.status;
  if (status === 'completed') {
    if (execution.answered_by_voice_mail) return t('outcome_voicemail');
    if (!answered(executionDuration(execution))) return t('outcome_nobodyAnswered');
  }
  return statusExplanation(status) ?? (isTerminalExecutionStatus(status) ? t('outcome_endedWithStatus', status) : t('calls_callIsStatus', statusText(status).toLocaleLowerCase(uiLocale())));
}

export function CallOutcome({ execution }: { execution: Execution }) {
  const duration = executionDuration(execution);
  return (
    <div class={`outcome outcome-${execution.status}`}>
      <p class="outcome-status">
        {duration !== null ? (
          tNodes('outcome_statusWithDuration', <strong>{statusText(execution.status)}</strong>, formatDuration(duration))
        ) : (
          <strong>{statusText(execution.status)}</strong>
        )}
      </p>
      <p>{outcomeExplanation(execution)}</p>
      {execution.error_message ? (
        <p class="message message-error" role="alert">
          {t('outcome_serviceMessage', execution.error_message)}
        </p>
      ) : null}
      {execution.summary ? <p class="summary">{t('outcome_summary', execution.summary)}</p> : null}
    </div>
  );
}
