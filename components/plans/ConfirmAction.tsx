import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';

interface ConfirmActionProps {
  /** The button that asks first, e.g. "Delete plan". */
  label: string;
  /** The question naming what is destroyed. */
  question: string;
  /** The confirming button's text. */
  confirmLabel: string;
  onConfirm(): void | Promise<void>;
  disabled?: boolean;
}

/** A destructive action that asks first, naming what it destroys. */
export function ConfirmAction({ label, question, confirmLabel, onConfirm, disabled }: ConfirmActionProps) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class="secondary" onClick={() => setAsking(true)} disabled={disabled}>
        {label}
      </button>
    );
  }
  return (
    <div class="plans-confirm" role="group" aria-label={label}>
      <p>{question}</p>
      <div class="actions">
        <button
          type="button"
          class="danger"
          onClick={async () => {
            setAsking(false);
            await onConfirm();
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" class="secondary" onClick={() => setAsking(false)} autoFocus>
          {t('plans_cancel')}
        </button>
      </div>
    </div>
  );
}
