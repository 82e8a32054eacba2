import { useEffect, useRef } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { ErrorMessage } from '../shared/Messages';
import { tNodes } from '../shared/Translated';

interface DeleteAgentDialogProps {
  agentName: string;
  agentId: string;
  busy: boolean;
  error: string | null;
  onConfirm(): void;
  onCancel(): void;
}

/** Asks before deleting, naming the agent; focus starts on Cancel, and Escape cancels. */
export function DeleteAgentDialog({ agentName, agentId, busy, error, onConfirm, onCancel }: DeleteAgentDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  return (
    <section
      class="agent-delete"
      role="alertdialog"
      aria-modal="false"
      aria-labelledby="agent-delete-title"
      aria-describedby="agent-delete-text"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) onCancel();
      }}
    >
      <h3 id="agent-delete-title">{t('agents_deleteTitle', agentName)}</h3>
      <p id="agent-delete-text">
        {tNodes('agents_deleteText', <strong>{agentName}</strong>, <span class="mono">{agentId}</span>)}
      </p>
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="button" class="danger" onClick={onConfirm} disabled={busy}>
          {busy ? t('agents_deleting') : t('agents_deleteAgent')}
        </button>
        <button type="button" class="secondary" ref={cancelRef} onClick={onCancel} disabled={busy}>
          {t('agents_cancel')}
        </button>
      </div>
    </section>
  );
}
