/** A country <select> (common countries first), with an optional first choice such as "Default (United States)". */
import { t } from '../../lib/i18n';
import { countryOptions } from '../../lib/country-names';

export function CountrySelect(props: {
  id: string;
  value: string;
  onChange: (country: string) => void;
  /** Label of the '' option; without it there is none. */
  emptyLabel?: string;
  disabled?: boolean;
  'aria-label'?: string;
}) {
  const { common, others } = countryOptions();
  return (
    <select
      id={props.id}
      value={props.value}
      disabled={props.disabled}
      aria-label={props['aria-label']}
      onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}
    >
      {props.emptyLabel !== undefined ? <option value="">{props.emptyLabel}</option> : null}
      <optgroup label={t('countries_common')}>
        {common.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </optgroup>
      <optgroup label={t('countries_all')}>
        {others.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </optgroup>
    </select>
  );
}
