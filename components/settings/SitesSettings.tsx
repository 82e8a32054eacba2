/**
 * Options → Sites: where the content script offers calls (everywhere / only listed sites /
 * everywhere except listed sites), the list of hosts, the sites paused from the popup, and the
 * default country per site (for numbers written without +country code).
 * Saved through `sites/update`; the background owns the settings.
 */
import { useEffect, useState } from 'preact/hooks';
import { t, type MessageKey } from '../../lib/i18n';
import type { SettingsView } from '../../lib/messages';
import { countryName } from '../../lib/country-names';
import { send } from '../../lib/ui/send';
import { CountrySelect } from '../shared/CountrySelect';
import { ErrorMessage, StatusMessage } from '../shared/Messages';

type Mode = SettingsView['sites']['mode'];

const MODES: { value: Mode; label: MessageKey }[] = [
  { value: 'everywhere', label: 'sites_modeEverywhere' },
  { value: 'only-listed', label: 'sites_modeOnlyListed' },
  { value: 'except-listed', label: 'sites_modeExceptListed' },
];

const HOST_RE = /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$|^\[[0-9a-f:.]+\]$/;

/**
 * One host per line (or comma separated) → hosts. Accepts pasted URLs (their host is kept) and
 * `*.example.com`; ports and paths are dropped (rules apply per host). Returns the lines it could not read.
 */
export function parseHostList(text: string): { hosts: string[]; invalid: string[] } {
  const hosts: string[] = [];
  const invalid: string[] = [];
  for (const item of text.split(/[\n,]+/)) {
    let host = item.trim().toLowerCase();
    if (!host) continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//.test(host)) {
      try {
        host = new URL(host).hostname;
      } catch {
        invalid.push(item.trim());
        continue;
      }
    }
    host = host.replace(/\/.*$/, '').replace(/:\d+$/, '').replace(/\.$/, '');
    if (host.length > 253 || !HOST_RE.test(host)) invalid.push(item.trim());
    else if (!hosts.includes(host)) hosts.push(host);
  }
  return { hosts, invalid };
}

export function SitesSettings() {
  const [sites, setSites] = useState<SettingsView['sites'] | null>(null);
  const [mode, setMode] = useState<Mode>('everywhere');
  const [listText, setListText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [countryHost, setCountryHost] = useState('');
  const [newCountry, setNewCountry] = useState('GB');
  const [countryError, setCountryError] = useState<string | null>(null);

  const apply = (view: SettingsView) => {
    setSites(view.sites);
    setMode(view.sites.mode);
    setListText(view.sites.listed.join('\n'));
  };

  useEffect(() => {
    void send({ type: 'settings/get' }).then((reply) => {
      if (reply.ok) apply(reply.data);
      else setError(reply.error.message);
    });
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setStatus('');
    setError(null);
    const { hosts, invalid } = parseHostList(listText);
    if (invalid.length > 0) {
      setListError(t('sites_notAHost', invalid.join(', ')));
      return;
    }
    if (mode === 'only-listed' && hosts.length === 0) {
      setListError(t('sites_listAtLeastOne'));
      return;
    }
    setListError(null);
    setBusy(true);
    const reply = await send({ type: 'sites/update', mode, listed: hosts });
    setBusy(false);
    if (!reply.ok) return setError(reply.error.message);
    apply(reply.data);
    setStatus(t('sites_applied'));
  };

  const resume = async (host: string) => {
    setStatus('');
    setError(null);
    const reply = await send({ type: 'sites/update', resume: host });
    if (!reply.ok) return setError(reply.error.message);
    apply(reply.data);
    setStatus(t('sites_resumedOn', host));
  };

  const setSiteCountry = async (host: string, country: string) => {
    setStatus('');
    setError(null);
    const reply = await send({ type: 'sites/update', country: { host, country } });
    if (!reply.ok) return setError(reply.error.message);
    apply(reply.data);
    setStatus(country ? t('sites_countrySet', host, countryName(country)) : t('sites_countryDefault', host));
  };

  const addSiteCountry = async (event: Event) => {
    event.preventDefault();
    const { hosts, invalid } = parseHostList(countryHost);
    if (invalid.length > 0 || hosts.length !== 1) {
      setCountryError(t('sites_writeOneHost'));
      return;
    }
    setCountryError(null);
    await setSiteCountry(hosts[0]!, newCountry);
    setCountryHost('');
  };

  const countries = Object.entries(sites?.countries ?? {}).sort(([a], [b]) => a.localeCompare(b));

  return (
    <section aria-labelledby="sites-title">
      <h2 id="sites-title">{t('sites_title')}</h2>
      <p class="hint">{t('sites_intro')}</p>
      {sites === null && !error ? <p class="hint">{t('sites_loading')}</p> : null}
      <form noValidate onSubmit={(e) => void submit(e)}>
        <fieldset>
          <legend>{t('sites_offerCallsOn')}</legend>
          {MODES.map((m) => (
            <div class="row" key={m.value}>
              <input
                type="radio"
                id={`sites-mode-${m.value}`}
                name="sites-mode"
                value={m.value}
                checked={mode === m.value}
                onChange={() => setMode(m.value)}
              />
              <label for={`sites-mode-${m.value}`}>{t(m.label)}</label>
            </div>
          ))}
        </fieldset>
        <div class="field">
          <label for="sites-list">{t('sites_listedSites')}</label>
          <textarea
            id="sites-list"
            rows={5}
            style={{ width: '100%', boxSizing: 'border-box' }}
            value={listText}
            aria-describedby="sites-list-hint sites-list-error"
            aria-invalid={listError ? 'true' : undefined}
            onInput={(e) => setListText((e.target as HTMLTextAreaElement).value)}
          />
          <p class="hint" id="sites-list-hint">
            {t('sites_listHint')}
          </p>
          <ErrorMessage id="sites-list-error">{listError}</ErrorMessage>
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || sites === null}>
            {t('sites_apply')}
          </button>
        </div>
      </form>
      <h3 id="paused-title">{t('sites_pausedTitle')}</h3>
      {sites && sites.paused.length > 0 ? (
        <ul class="plain" aria-labelledby="paused-title">
          {sites.paused.map((host) => (
            <li key={host} class="row" style={{ justifyContent: 'space-between', padding: '2px 0' }}>
              <span class="mono">{host}</span>
              <button type="button" class="secondary small" aria-label={t('sites_resumeOnHost', host)} onClick={() => void resume(host)}>
                {t('sites_resume')}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="hint">{t('sites_noPaused')}</p>
      )}
      <h3 id="site-countries-title">{t('sites_countryPerSiteTitle')}</h3>
      <p class="hint">{t('sites_countryPerSiteHint')}</p>
      {countries.length > 0 ? (
        <ul class="plain" aria-labelledby="site-countries-title">
          {countries.map(([host, country]) => (
            <li key={host} class="row" style={{ justifyContent: 'space-between', padding: '2px 0' }}>
              <span class="mono">{host}</span>
              <CountrySelect id={`site-country-${host}`} aria-label={t('sites_countryForHost', host)} value={country} onChange={(c) => void setSiteCountry(host, c)} />
              <button type="button" class="secondary small" aria-label={t('sites_useDefaultCountryOn', host)} onClick={() => void setSiteCountry(host, '')}>
                {t('sites_remove')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form noValidate onSubmit={(e) => void addSiteCountry(e)} class="row">
        <label for="site-country-host">{t('sites_site')}</label>
        <input
          id="site-country-host"
          value={countryHost}
          placeholder="crm.example.com"
          aria-invalid={countryError ? 'true' : undefined}
          aria-describedby="site-country-error"
          onInput={(e) => setCountryHost((e.target as HTMLInputElement).value)}
        />
        <label for="site-country-new">{t('sites_country')}</label>
        <CountrySelect id="site-country-new" value={newCountry} onChange={setNewCountry} />
        <button type="submit" class="secondary" disabled={sites === null}>
          {t('sites_setCountry')}
        </button>
      </form>
      <ErrorMessage id="site-country-error">{countryError}</ErrorMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <StatusMessage>{status}</StatusMessage>
    </section>
  );
}
