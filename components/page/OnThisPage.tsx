/**
 * The popup's "On this page": the numbers the content script found in the tab (`popup.html?tab=<id>`,
 * else the active tab), each with "Call" (the popup's own confirmation, prefilled through
 * `popup.html?dial=…&agent=…`), "Pause/Resume on this site" and the site's own default country.
 * Long lists say how many the page holds ("Showing 500 of 5,000") and can be narrowed by a filter.
 * Small on purpose: no zod at runtime.
 */
import { useContext, useEffect, useState } from 'preact/hooks';
import { t, uiLocale } from '../../lib/i18n';
import type { TabNumbersView } from '../../lib/messages';
import { queryParam } from '../../lib/ui/hooks';
import { send } from '../../lib/ui/send';
import { countryName } from '../../lib/country-names';
import { StoreContext } from '../../lib/ui/store';
import { CountrySelect } from '../shared/CountrySelect';
import { ErrorMessage } from '../shared/Messages';

/** Numbers whose digits contain the typed digits, or whose text as written contains the typed text. */
export function filterNumbers<T extends { raw: string; e164: string }>(numbers: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...numbers];
  const digits = q.replace(/\D/g, '');
  // Digits typed with punctuation ("(415) 555") match the digits; anything with letters matches the text.
  const byDigits = digits.length > 0 && !/\p{L}/u.test(q);
  return numbers.filter((n) => (byDigits ? n.e164.replace(/\D/g, '').includes(digits) || n.raw.replace(/\D/g, '').includes(digits) : n.raw.toLowerCase().includes(q)));
}

/** "Showing 500 of 5,000 numbers" when the list is not everything the page holds. */
export function countLine(shown: number, all: number): string {
  const locale = uiLocale();
  const n = (x: number) => x.toLocaleString(locale);
  if (shown === all) return t(new Intl.PluralRules(locale).select(all) === 'one' ? 'page_countOne' : 'page_countOther', n(all));
  return t('page_showingOf', n(shown), n(all));
}

/** `?tab=<id>` when the popup was opened for a given tab (tests, the confirmation window). */
export function tabFromSearch(search: string): number | undefined {
  const tab = queryParam('tab', search);
  return tab && /^\d{1,10}$/.test(tab) ? Number(tab) : undefined;
}

/** The popup URL that opens its confirmation for `e164` (the same path the background uses). */
export function dialSearch(e164: string, search: string, agentId?: string | null): string {
  const params = new URLSearchParams({ dial: e164, source: 'on-this-page' });
  if (agentId) params.set('agent', agentId);
  const tab = tabFromSearch(search);
  if (tab !== undefined) params.set('tab', String(tab));
  return `?${params}`;
}

export function OnThisPage({ search = typeof location === 'undefined' ? '' : location.search }: { search?: string }) {
  const [view, setView] = useState<TabNumbersView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const tabId = tabFromSearch(search);
  const store = useContext(StoreContext);

  const load = async () => {
    const reply = await send({ type: 'page/numbers-for-tab', ...(tabId !== undefined ? { tabId } : {}) });
    if (reply.ok) setView(reply.data);
    return reply.ok ? reply.data : null;
  };

  useEffect(() => {
    void load();
  }, [tabId]);

  // Nothing to say about pages the content script cannot run on (browser pages, the extension's own).
  if (!view || !view.host || view.tabId === null) return null;
  const { host, numbers, enabled } = view;
  const total = view.total ?? numbers.length;
  const shown = filterNumbers(numbers, query);

  const setCountry = async (country: string) => {
    setError(null);
    setNote(null);
    const reply = await send({ type: 'sites/update', country: { host, country } });
    if (!reply.ok) setError(reply.error.message);
    else await load();
  };

  const toggle = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    const reply = await send({ type: 'sites/update', ...(enabled ? { pause: host } : { resume: host }) });
    if (!reply.ok) setError(reply.error.message);
    else {
      const after = await load();
      if (!enabled && after && !after.enabled) {
        setNote(t('page_staysOff', host));
      }
    }
    setBusy(false);
  };

  const call = (e164: string) => {
    // The agent the background's confirmation would pick: the last one called with, else the first listed.
    const agents = store?.agentsCache.value?.agents ?? [];
    const last = store?.calls.value[0]?.agentId;
    const agentId = agents.find((a) => a.id === last)?.id ?? agents[0]?.id ?? null;
    location.search = dialSearch(e164, search, agentId);
  };

  return (
    <section class="on-this-page" aria-labelledby="on-this-page-title">
      <h2 id="on-this-page-title">{t('page_title')}</h2>
      {view.pagesOn === false ? (
        <p class="hint">{t('page_pagesOff')}</p>
      ) : !enabled ? (
        <p class="hint">{t('page_offOn', host)}</p>
      ) : numbers.length === 0 ? (
        <p class="hint">{t('page_noneFound', host)}</p>
      ) : (
        <>
        <p class="hint" role="status" id="on-this-page-count">
          {countLine(shown.length, Math.max(total, numbers.length))}
        </p>
        {numbers.length > 5 || total > numbers.length ? (
          <div class="field">
            <label for="on-this-page-filter">{t('page_filter')}</label>
            <input
              id="on-this-page-filter"
              type="search"
              value={query}
              placeholder={t('page_filterPlaceholder')}
              aria-describedby="on-this-page-count"
              onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
            />
          </div>
        ) : null}
        <ul class="plain" aria-label={t('page_numbersOn', host)}>
          {shown.map((n) => (
            <li key={n.e164} class="row" style={{ justifyContent: 'space-between', padding: '2px 0' }}>
              <span>
                {n.raw}
                {n.raw !== n.e164 ? <span class="hint mono"> {n.e164}</span> : null}
              </span>
              <button type="button" class="secondary small" aria-label={t('page_callNumber', n.raw)} onClick={() => call(n.e164)}>
                {t('page_call')}
              </button>
            </li>
          ))}
        </ul>
        </>
      )}
      <div class="field">
        <label for="on-this-page-country">{t('page_countryFor', host)}</label>
        <CountrySelect
          id="on-this-page-country"
          value={view.siteCountry ?? ''}
          emptyLabel={view.siteCountry || !view.country ? t('page_defaultCountry') : t('page_defaultCountryNamed', countryName(view.country))}
          onChange={(country) => void setCountry(country)}
        />
      </div>
      {view.pagesOn === false ? null : (
        <div class="actions">
          <button type="button" class="secondary small" disabled={busy} onClick={() => void toggle()}>
            {enabled ? t('page_pause') : t('page_resume')}
          </button>
        </div>
      )}
      {note ? <p class="hint" role="status">{note}</p> : null}
      <ErrorMessage>{error}</ErrorMessage>
    </section>
  );
}
