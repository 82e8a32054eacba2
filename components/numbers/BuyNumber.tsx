import { useState } from 'preact/hooks';
import type { AvailablePhoneNumber, PhoneNumber } from '../../lib/api/schemas/phone-number';
import { checkPattern, formatPrice } from '../../lib/numbers/price';
import { send } from '../../lib/ui/send';
import { useStore } from '../../lib/ui/store';
import { ConfirmBox } from '../shared/ConfirmBox';
import { CountrySelect } from '../shared/CountrySelect';
import { ErrorMessage } from '../shared/Messages';

const locale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

/** "San Francisco, CA": where an offered number is, as far as the service says. */
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
    } else setSearchError(`The search failed: ${reply.error.message}`);
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
      setBuyError(`${offer.phone_number} was not bought: ${reply.error.message}`);
      return;
    }
    setChosen(null);
    setOffers((list) => list?.filter((o) => o.phone_number !== offer.phone_number) ?? null);
    onBought(offer.phone_number, reply.data);
  }

  const chosenPrice = chosen ? formatPrice(chosen.price, locale()) : null;
  return (
    <section class="buy-number" aria-labelledby="buy-number-title">
      <h2 id="buy-number-title">Buy a number</h2>
      <form onSubmit={search} noValidate>
        <div class="field">
          <label for="number-search-country">Country</label>
          <CountrySelect id="number-search-country" value={country} onChange={setCountry} />
        </div>
        <div class="field">
          <label for="number-search-pattern">Digits to look for (optional)</label>
          <input
            id="number-search-pattern"
            inputMode="numeric"
            value={pattern}
            aria-describedby="number-search-pattern-hint"
            aria-invalid={patternError ? true : undefined}
            onInput={(e) => setPattern((e.currentTarget as HTMLInputElement).value)}
          />
          <p class="hint" id="number-search-pattern-hint">
            An area code or other digits, such as 415.
          </p>
          <ErrorMessage>{patternError}</ErrorMessage>
        </div>
        <div class="actions">
          <button type="submit" class="secondary" disabled={searching}>
            Search
          </button>
        </div>
      </form>
      <ErrorMessage>{searchError}</ErrorMessage>
      <p class="hint" role="status" aria-live="polite">
        {searching ? 'Searching…' : offers ? (offers.length === 0 ? 'No numbers available for this search.' : `${offers.length} numbers available.`) : ''}
      </p>
      {offers && offers.length > 0 ? (
        <div class="table-scroll">
          <table class="available-numbers">
            <caption class="visually-hidden">Available numbers</caption>
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Place</th>
                <th scope="col">Price</th>
                <th scope="col">
                  <span class="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {offers.map((offer) => (
                <tr key={offer.phone_number}>
                  <td class="mono">{offer.phone_number}</td>
                  <td>{placeOf(offer) || '—'}</td>
                  <td>{formatPrice(offer.price, locale()) ?? '—'}</td>
                  <td>
                    <button
                      type="button"
                      class="secondary small"
                      disabled={buying}
                      aria-label={`Buy ${offer.phone_number}`}
                      onClick={() => {
                        setBuyError(null);
                        setChosen(offer);
                      }}
                    >
                      Buy
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {chosen ? (
        <ConfirmBox
          title={`Buy ${chosen.phone_number}?`}
          confirmLabel={chosenPrice ? `Buy for ${chosenPrice}` : `Buy ${chosen.phone_number}`}
          busy={buying}
          error={buyError}
          onConfirm={() => void buy(chosen)}
          onCancel={() => setChosen(null)}
        >
          <dl class="details">
            <dt>Number</dt>
            <dd class="mono">{chosen.phone_number}</dd>
            {placeOf(chosen) ? (
              <>
                <dt>Place</dt>
                <dd>{placeOf(chosen)}</dd>
              </>
            ) : null}
            {chosen.provider ? (
              <>
                <dt>Provider</dt>
                <dd>{chosen.provider}</dd>
              </>
            ) : null}
            <dt>Price</dt>
            <dd>{chosenPrice ?? 'The service did not state a price.'}</dd>
          </dl>
          <p>Your account is charged this price, as the service quotes it.</p>
        </ConfirmBox>
      ) : null}
    </section>
  );
}
