/**
 * Options → Sites: click-to-call on pages on or off, where it offers calls (everywhere / only listed
 * sites / everywhere except listed sites), the list of hosts, the sites paused from the popup, and
 * the default country per site (for numbers written without +country code).
 * Saved through `sites/update`; the background owns the settings. Turning on (or applying new rules
 * while on) asks the browser for the pages' origins from the click itself; turning off gives them
 * back (lib/ui/page-access.ts, docs/security.md).
 */
import { useEffect, useState } from 'preact/hooks';
import { watchGrants } from '../../lib/grants';
import { t, type MessageKey } from '../../lib/i18n';
import type { SettingsView } from '../../lib/messages';
import { ALL_SITES, neededOrigins } from '../../lib/page/access';
import { checkBaseUrl, originPattern } from '../../lib/settings/checks';
import { countryName } from '../../lib/country-names';
import { changePageAccess, missingOrigins, requestOrigins } from '../../lib/ui/page-access';
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

/** Origins as a person reads them: "every site", or the hosts (a listed host's two patterns, once). */
export function describeOrigins(patterns: readonly string[]): string {
  if (patterns.includes(ALL_SITES)) return t('sites_everySite');
  return [...new Set(patterns.map((p) => p.replace(/^[a-z*]+:\/\/(\*\.)?/, '').replace(/\/\*$/, '')))].join(', ');
}

/** The saved service's origin and its permission pattern, once a key is saved for it. */
function serviceOf(view: SettingsView | null): { origin: string; pattern: string } | null {
  if (!view?.hasKey) return null;
  const url = checkBaseUrl(view.baseUrl);
  return url.ok ? { origin: url.origin, pattern: originPattern(url.origin) } : null;
}

export function SitesSettings() {
  const [view, setView] = useState<SettingsView | null>(null);
  const [sites, setSites] = useState<SettingsView['sites'] | null>(null);
  /** Page origins the rules need that the browser does not give now (only while on). */
  const [missing, setMissing] = useState<string[]>([]);
  const [serviceMissing, setServiceMissing] = useState(false);
  /** The browser is asking for the service's origin again (given back along with pages). */
  const [askingService, setAskingService] = useState(false);
  const [accessError, setAccessError] = useState<string | null>(null);
  const [mode, setMode] = useState<Mode>('everywhere');
  const [listText, setListText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [countryHost, setCountryHost] = useState('');
  const [newCountry, setNewCountry] = useState('GB');
  const [countryError, setCountryError] = useState<string | null>(null);

  const apply = (next: SettingsView) => {
    setView(next);
    setSites(next.sites);
    setMode(next.sites.mode);
    setListText(next.sites.listed.join('\n'));
  };

  useEffect(() => {
    void send({ type: 'settings/get' }).then((reply) => {
      if (reply.ok) apply(reply.data);
      else setError(reply.error.message);
    });
  }, []);

  /** What the browser gives now, read again after every change (also one made in its own settings). */
  const readAccess = async () => {
    if (!view) return;
    const service = serviceOf(view);
    setMissing(view.sites.on ? await missingOrigins(neededOrigins(view.sites)) : []);
    setServiceMissing(service ? (await missingOrigins([service.pattern])).length > 0 : false);
  };
  useEffect(() => {
    void readAccess();
    return watchGrants(() => void readAccess());
  }, [view]);

  /** The rules in the form, or null (with the reason shown) when they cannot be used. */
  const formRules = (): { mode: Mode; listed: string[] } | null => {
    const { hosts, invalid } = parseHostList(listText);
    if (invalid.length > 0) {
      setListError(t('sites_notAHost', invalid.join(', ')));
      return null;
    }
    if (mode === 'only-listed' && hosts.length === 0) {
      setListError(t('sites_listAtLeastOne'));
      return null;
    }
    setListError(null);
    return { mode, listed: hosts };
  };

  const clearMessages = () => {
    setStatus('');
    setError(null);
    setAccessError(null);
  };

  /**
   * Click-to-call on with these rules: gives back what they no longer need, asks for what they need
   * (both from this click), and saves it on only once the browser granted it. Refused: off, and why.
   */
  const turnOn = (rules: { mode: Mode; listed: string[] }) => {
    if (!sites) return;
    const after = { ...sites, ...rules, on: true };
    const access = changePageAccess(sites, after, serviceOf(view)?.pattern ?? null);
    setBusy(true);
    void (async () => {
      await access.removed;
      const granted = await access.granted;
      const reply = await send({ type: 'sites/update', ...rules, on: granted === true });
      setBusy(false);
      if (!reply.ok) return setError(reply.error.message);
      apply(reply.data);
      if (granted === true) setStatus(t('sites_onFor', describeOrigins(neededOrigins(after))));
      else setAccessError(granted instanceof Error ? t('sites_cannotAsk', granted.message) : t('sites_refused', describeOrigins(access.requested)));
    })();
  };

  /** Click-to-call off: unregistered, and every page origin given back. */
  const turnOff = () => {
    if (!sites) return;
    const service = serviceOf(view);
    const access = changePageAccess(sites, { ...sites, on: false }, service?.pattern ?? null);
    setBusy(true);
    if (access.asksForService && service) {
      // Chrome takes the service's origin back with every page: it is asked for again in this click.
      setAskingService(true);
      void access.granted.then(() => {
        setAskingService(false);
        void readAccess();
      });
    }
    void (async () => {
      const removed = await access.removed;
      const reply = await send({ type: 'sites/update', on: false });
      setBusy(false);
      if (!reply.ok) return setError(reply.error.message);
      apply(reply.data);
      if (removed === true) setStatus(t('sites_turnedOff'));
      else setAccessError(t('sites_notGivenBack', removed.message));
    })();
  };

  const toggle = (on: boolean) => {
    clearMessages();
    if (!on) return turnOff();
    const rules = formRules();
    if (rules) turnOn(rules);
  };

  /** Asks for what the browser does not give now (pages the rules need, the service's origin). */
  const allow = (origins: string[]) => {
    clearMessages();
    const granted = requestOrigins(origins);
    void granted.then((answer) => {
      if (answer instanceof Error) setAccessError(t('sites_cannotAsk', answer.message));
      void readAccess();
    });
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    clearMessages();
    const rules = formRules();
    if (!rules) return;
    // While on, new rules may need other origins: asked for (and the old ones given back) from this click.
    if (sites?.on) return turnOn(rules);
    setBusy(true);
    const reply = await send({ type: 'sites/update', ...rules });
    setBusy(false);
    if (!reply.ok) return setError(reply.error.message);
    apply(reply.data);
    setStatus(t('sites_applied'));
  };

  const service = serviceOf(view);

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
      <div class="field switch-field">
        <input
          id="sites-on"
          type="checkbox"
          role="switch"
          checked={sites?.on ?? false}
          disabled={busy || sites === null}
          aria-describedby="sites-on-hint"
          onChange={(e) => toggle((e.currentTarget as HTMLInputElement).checked)}
        />
        <label for="sites-on">{t('sites_onLabel')}</label>
        <p class="hint" id="sites-on-hint">
          {t('sites_onHint')}
        </p>
      </div>
      {sites?.on && missing.length > 0 ? (
        <div class="message message-warning">
          <p>{t('sites_missing', describeOrigins(missing))}</p>
          <button type="button" class="secondary small" onClick={() => allow(missing)}>
            {t('sites_allowAccess')}
          </button>
        </div>
      ) : null}
      {askingService && service ? <p class="message message-warning">{t('sites_serviceAgain', service.origin)}</p> : null}
      {!askingService && serviceMissing && service ? (
        <div class="message message-warning">
          <p>{t('sites_serviceMissing', service.origin)}</p>
          <button type="button" class="secondary small" onClick={() => allow([service.pattern])}>
            {t('sites_allowService', service.origin)}
          </button>
        </div>
      ) : null}
      <ErrorMessage>{accessError}</ErrorMessage>
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
