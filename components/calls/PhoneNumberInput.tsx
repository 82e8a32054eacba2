import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { countryName } from '../../lib/country-names';
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
      <label for={id}>{t('phone_label')}</label>
      <input
        id={id}
        type="tel"
        inputMode="tel"
        autocomplete="off"
        value={value}
        placeholder={defaultCountry === 'US' ? t('phone_placeholderUS') : t('phone_placeholder')}
        aria-invalid={errorVisible ? 'true' : undefined}
        aria-describedby={errorVisible ? `${hintId} ${errorId}` : hintId}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
        onBlur={() => setTouched(true)}
      />
      <p class="hint" id={hintId} aria-live="polite">
        {!hasText
          ? t('phone_readAs', countryName(defaultCountry))
          : parsed === null
            ? t('phone_checking')
            : parsed.ok
              ? parsed.country
                ? t('phone_parsedWithCountry', parsed.international, countryName(parsed.country))
                : parsed.international
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
