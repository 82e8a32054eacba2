import { useState } from 'preact/hooks';
import type { AvailablePhoneNumber, PhoneNumber } from '../../lib/api/schemas/phone-number';
import { t, uiLocale } from '../../lib/i18n';
import { checkPattern, formatPrice } from '../../lib/numbers/price';
import { send } from '../../lib/ui/send';
import { useStore } from '../../lib/ui/store';
import { ConfirmBox } from '../shared/ConfirmBox';
import { CountrySelect } from '../shared/CountrySelect';
import { ErrorMessage } from '../shared/Messages';
import { DataTable } from '../shared/DataTable';


/** "San Francisco, CA": where an offered number is, as far as the service says. */
const availableText = (count: number) =>
  t(new Intl.PluralRules(uiLocale()).select(count) === 'one' ? 'numbers_availableOne' : 'numbers_availableOther', new Intl.NumberFormat(uiLocale()).format(count));

const placeOf = (offer: AvailablePhoneNumber) => [offer.locality, offer.region].filter(Boolean).join(', ');

interface BuyNumberProps {
  /** Called with the bought number (its record when the service answered one). */
  onBought(phoneNumber: string, record: PhoneNumber | null): void;
}

/** Search the service's available numbers by country and digits; buy one after a confirmation that states its price. */
export function BuyNumber({ onBought }: BuyNumberProps) {
  const store = useStore();
  const [country, setCountry] = useState(store.settings.value.defaultCountry || 'US');
  const [pattern, setPattern] = useState('');
  const [patternError, setPatternError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const [offers, setOffers] = useState<AvailablePhoneNumber[] | null>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<AvailablePhoneNumber | null>(null);
  const [buying, setBuying] = useState(false);
  const [buyError, setBuyError] = useState<string | null>(null);
  const [searchedCountry, setSearchedCountry] = useState(country);

  async function search(event: Event) {
    event.preventDefault();
    const checked = checkPattern(pattern);
    if (!checked.ok) {
      setPatternError(checked.message);
      return;
    }
    setPatternError(null);
    setSearching(true);
    setSearchError(null);
    setChosen(null);
    const reply = await send({ type: 'phone-numbers/search', country, pattern: checked.pattern });
    setSearching(false);
    if (reply.ok) {
      setOffers(reply.data);
      setSearchedCountry(country);
    } else setSearchError(t('numbers_searchFailed', reply.error.message));
  }

  async function buy(offer: AvailablePhoneNumber) {
    setBuying(true);
    setBuyError(null);
    const reply = await send({
      type: 'phone-numbers/buy',
      country: searchedCountry,
      phoneNumber: offer.phone_number,
      ...(offer.provider ? { provider: offer.provider } : {}),
    });
    setBuying(false);
    if (!reply.ok) {
      setBuyError(t('numbers_notBought', offer.phone_number, reply.error.message));
      return;
    }
    setChosen(null);
    setOffers((list) => list?.filter((o) => o.phone_number !== offer.phone_number) ?? null);
    onBought(offer.phone_number, reply.data);
  }

  const chosenPrice = chosen ? formatPrice(chosen.price, uiLocale()) : null;
  return (
    <section class="buy-number" aria-labelledby="buy-number-title">
      <h2 id="buy-number-title">{t('numbers_buyTitle')}</h2>
      <form onSubmit={search} noValidate>
        <div class="field">
          <label for="number-search-country">{t('numbers_country')}</label>
          <CountrySelect id="number-search-country" value={country} onChange={setCountry} />
        </div>
        <div class="field">
          <label for="number-search-pattern">{t('numbers_digits')}</label>
          <input
            id="number-search-pattern"
            inputMode="numeric"
            value={pattern}
            aria-describedby="number-search-pattern-hint"
            aria-invalid={patternError ? true : undefined}
            onInput={(e) => setPattern((e.currentTarget as HTMLInputElement).value)}
          />
          <p class="hint" id="number-search-pattern-hint">
            {t('numbers_digitsHint')}
          </p>
          <ErrorMessage>{patternError}</ErrorMessage>
        </div>
        <div class="actions">
          <button type="submit" class="secondary" disabled={searching}>
            {t('numbers_search')}
          </button>
        </div>
      </form>
      <ErrorMessage>{searchError}</ErrorMessage>
      <p class="hint" role="status" aria-live="polite">
        {searching ? t('numbers_searching') : offers ? (offers.length === 0 ? t('numbers_noneAvailable') : availableText(offers.length)) : ''}
      </p>
      {offers && offers.length > 0 ? (
        <DataTable class="available-numbers" caption={t('numbers_availableCaption')} columns={[t('numbers_colNumber'), t('numbers_colPlace'), t('numbers_colPrice')]} actionColumn={t('numbers_colAction')}>
          {offers.map((offer) => (
            <tr key={offer.phone_number}>
              <td class="mono">{offer.phone_number}</td>
              <td>{placeOf(offer) || '—'}</td>
              <td>{formatPrice(offer.price, uiLocale()) ?? '—'}</td>
              <td>
                <button
                  type="button"
                  class="secondary small"
                  disabled={buying}
                  aria-label={t('numbers_buyNumber', offer.phone_number)}
                  onClick={() => {
                    setBuyError(null);
                    setChosen(offer);
                  }}
                >
                  {t('numbers_buy')}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      {chosen ? (
        <ConfirmBox
          title={t('numbers_buyConfirmTitle', chosen.phone_number)}
          confirmLabel={chosenPrice ? t('numbers_buyFor', chosenPrice) : t('numbers_buyNumber', chosen.phone_number)}
          busy={buying}
          error={buyError}
          onConfirm={() => void buy(chosen)}
          onCancel={() => setChosen(null)}
        >
          <dl class="details">
            <dt>{t('numbers_colNumber')}</dt>
            <dd class="mono">{chosen.phone_number}</dd>
            {placeOf(chosen) ? (
              <>
                <dt>{t('numbers_colPlace')}</dt>
                <dd>{placeOf(chosen)}</dd>
              </>
            ) : null}
            {chosen.provider ? (
              <>
                <dt>{t('numbers_colProvider')}</dt>
                <dd>{chosen.provider}</dd>
              </>
            ) : null}
            <dt>{t('numbers_colPrice')}</dt>
            <dd>{chosenPrice ?? t('numbers_noPrice')}</dd>
          </dl>
          <p>{t('numbers_charged')}</p>
        </ConfirmBox>
      ) : null}
    </section>
  );
}
