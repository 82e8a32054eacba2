import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';

/** Longer than this, an id is shown as its start and end. */
const MAX_SHOWN = 20;

/** "11111111-aaaa-4aaa-8aaa-0a0000000001" → "11111111…000001"; short values as they are. */
export function shortValue(value: string): string {
  return value.length <= MAX_SHOWN ? value : `${value.slice(0, 8)}…${value.slice(-6)}`;
}

/**
 * An id or number that may be too long for a narrow panel: shortened, with the whole value in its
 * tooltip, read whole by screen readers, and a button that copies it whole.
 */
export function ShortValue({ value, name }: { value: string; name: string }) {
  const [note, setNote] = useState<string | null>(null);
  const shown = shortValue(value);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setNote(t('shared_copied'));
    } catch {
      setNote(t('shared_notCopied'));
    }
  };
  return (
    <span class="short-value">
      {shown === value ? (
        <span class="mono">{value}</span>
      ) : (
        <>
          <span class="mono" title={value} aria-hidden="true">
            {shown}
          </span>
          <span class="visually-hidden">{value}</span>
        </>
      )}{' '}
      <button type="button" class="link copy-value" aria-label={t('shared_copyValue', name)} onClick={() => void copy()}>
        {t('shared_copy')}
      </button>
      <span aria-live="polite" class="hint">
        {note ? ` ${note}` : ''}
      </span>
    </span>
  );
}
