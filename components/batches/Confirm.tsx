import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../../lib/i18n';

/** Asks before a destructive action, in words that name what it destroys; Cancel has the focus. */
export function Confirm(props: { id: string; children: ComponentChildren; confirmLabel: string; busy?: boolean; onConfirm(): void; onCancel(): void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div class="batch-confirm" role="group" aria-labelledby={props.id}>
      <p id={props.id}>{props.children}</p>
      <div class="actions">
        <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" class="secondary" ref={cancel} onClick={props.onCancel}>
          {t('batches_cancel')}
        </button>
      </div>
    </div>
  );
}
