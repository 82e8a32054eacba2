import type { Execution } from '../../lib/api/schemas/execution';
import { answered, isTerminalExecutionStatus, STATUS_EXPLANATIONS, statusLabel } from '../../lib/calls/status';
import { executionDuration, formatDuration } from '../../lib/ui/format';

/** The plain meaning of a finished execution's status, with the service's own error message. */
export function outcomeExplanation(execution: Pick<Execution, 'status' | 'conversation_duration' | 'conversation_time' | 'answered_by_voice_mail'>): string {
  const status = execution.status;
  if (status === 'completed') {
    if (execution.answered_by_voice_mail) return 'The call reached voicemail; the agent spoke to the answering machine.';
    if (!answered(executionDuration(execution))) return 'Nobody answered: the call completed with no conversation (duration 0 s).';
  }
  return STATUS_EXPLANATIONS[status] ?? (isTerminalExecutionStatus(status) ? `The call ended with status “${status}”.` : `The call is ${statusLabel(status).toLowerCase()}.`);
}

export function CallOutcome({ execution }: { execution: Execution }) {
  const duration = executionDuration(execution);
  return (
    <div class={`outcome outcome-${execution.status}`}>
      <p class="outcome-status">
        <strong>{statusLabel(execution.status)}</strong>
        {duration !== null ? ` · ${formatDuration(duration)}` : ''}
      </p>
      <p>{outcomeExplanation(execution)}</p>
      {execution.error_message ? (
        <p class="message message-error" role="alert">
          Service message: {execution.error_message}
        </p>
      ) : null}
      {execution.summary ? <p class="summary">Summary: {execution.summary}</p> : null}
    </div>
  );
}
