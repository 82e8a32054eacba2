import { useState } from 'preact/hooks';
import { countryName } from '../../lib/ui/countries';
import type { PhoneParse } from '../../lib/ui/phone';

interface PhoneNumberInputProps {
  id?: string;
  value: string;
  onInput(text: string): void;
  /** The parse of `value` (null while the parser loads). */
  parsed: PhoneParse | null;
  defaultCountry: string;
  /** Show the error even before the field lost focus (after a submit attempt). */
  showError?: boolean;
}

/** "Phone number": typed freely, parsed on input against the default country. */
export function PhoneNumberInput({ id = 'phone-number', value, onInput, parsed, defaultCountry, showError = false }: PhoneNumberInputProps) {
  const [touched, setTouched] = useState(false);
  const hasText = value.trim() !== '';
  const invalid = hasText && parsed !== null && !parsed.ok;
  const errorVisible = invalid && (touched || showError);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div class="field">
      <label for={id}>Phone number</label>
      <input
        id={id}
        type="tel"
        inputMode="tel"
        autocomplete="off"
        value={value}
        placeholder={defaultCountry === 'US' ? '(415) 555-0123 or +44 20 7946 0958' : 'A number, or +country code and number'}
        aria-invalid={errorVisible ? 'true' : undefined}
        aria-describedby={errorVisible ? `${hintId} ${errorId}` : hintId}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
        onBlur={() => setTouched(true)}
      />
      <p class="hint" id={hintId} aria-live="polite">
        {!hasText
          ? `Numbers without a + are read as ${countryName(defaultCountry)} numbers.`
          : parsed === null
            ? 'Checking the number…'
            : parsed.ok
              ? `${parsed.international}${parsed.country ? ` · ${countryName(parsed.country)}` : ''}`
              : ''}
      </p>
      {errorVisible && !parsed.ok ? (
        <p class="message message-error" role="alert" id={errorId}>
          {parsed.error}
        </p>
      ) : null}
    </div>
  );
}
