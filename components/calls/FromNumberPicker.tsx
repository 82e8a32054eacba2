import { useEffect, useState } from 'preact/hooks';
import type { OwnedNumber } from '../../lib/messages';
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
        setProblem(reply.ok ? null : `Your numbers could not be loaded (${reply.error.message}); the service’s default number will be used.`);
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
      <label for={id}>From number</label>
      <select
        id={id}
        value={value ?? ''}
        aria-describedby={hintId}
        onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value || null)}
      >
        <option value="">Any number (service default)</option>
        {(numbers ?? []).map((n) => (
          <option key={n.id} value={n.phoneNumber}>
            {n.phoneNumber}
          </option>
        ))}
        {value && !known ? <option value={value}>{value}</option> : null}
      </select>
      <p class="hint" id={hintId}>
        {problem ?? (numbers === null ? 'Loading your numbers…' : numbers.length === 0 ? 'No numbers on this account; the service’s default is used.' : '')}
      </p>
    </div>
  );
}
