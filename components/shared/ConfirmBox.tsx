import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ErrorMessage } from './Messages';

interface ConfirmBoxProps {
  /** Names what happens to what, e.g. "Delete +14155552000?". */
  title: string;
  children: ComponentChildren;
  /** The confirm button says the action and its object, e.g. "Delete +14155552000". */
  confirmLabel: string;
  /** A destructive action is shown as such. */
  danger?: boolean;
  busy: boolean;
  /** The service's message when the action failed; the box stays open to retry or cancel. */
  error?: string | null;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * An inline confirmation for an action that spends money or destroys something. Focus starts on
 * Cancel, so a stray Enter never confirms; Escape cancels; closing returns focus to the opener.
 */
export function ConfirmBox({ title, children, confirmLabel, danger = false, busy, error, onConfirm, onCancel }: ConfirmBoxProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useRef(`confirm-${Math.random().toString(36).slice(2)}`).current;
  useEffect(() => {
    // Keyboard users return to the button that opened the box (when it is still there).
    const opener = document.activeElement;
    cancelRef.current?.focus();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  return (
    <section
      class="confirm-box"
      role="dialog"
      aria-labelledby={`${titleId}-title`}
      aria-describedby={`${titleId}-body`}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <h3 id={`${titleId}-title`}>{title}</h3>
      <div id={`${titleId}-body`}>{children}</div>
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="button" class={danger ? 'danger' : 'primary'} disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" class="secondary" ref={cancelRef} disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
