import { useEffect, useState } from 'preact/hooks';
import type { OwnedNumber } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { send } from '../../lib/ui/send';

interface FromNumberPickerProps {
  id?: string;
  /** E.164, or null for the service's default. */
  value: string | null;
  onChange(number: string | null): void;
}

/** "From number": optional; the account's numbers, loaded from the background. */
export function FromNumberPicker({ id = 'from-number', value, onChange }: FromNumberPickerProps) {
  const [numbers, setNumbers] = useState<OwnedNumber[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void send({ type: 'phone-numbers/list' }).then((reply) => {
      if (!live) return;
      if (reply.ok && Array.isArray(reply.data)) setNumbers(reply.data);
      else {
        setNumbers([]);
        setProblem(reply.ok ? null : t('calls_numbersNotLoaded', reply.error.message));
      }
    });
    return () => {
      live = false;
    };
  }, []);

  const known = numbers?.some((n) => n.phoneNumber === value) ?? false;
  const hintId = `${id}-hint`;
  return (
    <div class="field">
      <label for={id}>{t('calls_fromNumber')}</label>
      <select
        id={id}
        value={value ?? ''}
        aria-describedby={hintId}
        onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value || null)}
      >
        <option value="">{t('calls_anyNumber')}</option>
        {(numbers ?? []).map((n) => (
          <option key={n.id} value={n.phoneNumber}>
            {n.phoneNumber}
          </option>
        ))}
        {value && !known ? <option value={value}>{value}</option> : null}
      </select>
      <p class="hint" id={hintId}>
        {problem ?? (numbers === null ? t('calls_loadingNumbers') : numbers.length === 0 ? t('calls_noNumbers') : '')}
      </p>
    </div>
  );
}
