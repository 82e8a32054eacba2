/**
 * Options → Sites: where the content script offers calls (everywhere / only listed sites /
 * everywhere except listed sites), the list of hosts, the sites paused from the popup, and the
 * default country per site (for numbers written without +country code).
 * Saved through `sites/update`; the background owns the settings.
 */
import { useEffect, useState } from 'preact/hooks';
import type { SettingsView } from '../../lib/messages';
import { countryName } from '../../lib/ui/countries';
import { send } from '../../lib/ui/send';
import { CountrySelect } from '../shared/CountrySelect';
import { ErrorMessage, StatusMessage } from '../shared/Messages';

type Mode = SettingsView['sites']['mode'];

const MODES: { value: Mode; label: string }[] = [
  { value: 'everywhere', label: 'Everywhere' },
  { value: 'only-listed', label: 'Only on the sites listed below' },
  { value: 'except-listed', label: 'Everywhere except the sites listed below' },
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
      setListError(`Not a host name: ${invalid.join(', ')}. Write one host per line, like crm.example.com or *.example.com.`);
      return;
    }
    if (mode === 'only-listed' && hosts.length === 0) {
      setListError('List at least one site, or click-to-call is off everywhere.');
      return;
    }
    setListError(null);
    setBusy(true);
    const reply = await send({ type: 'sites/update', mode, listed: hosts });
    setBusy(false);
    if (!reply.ok) return setError(reply.error.message);
    apply(reply.data);
    setStatus('Site settings applied. Open pages follow them at once.');
  };

  const resume = async (host: string) => {
    setStatus('');
    setError(null);
    const reply = await send({ type: 'sites/update', resume: host });
    if (!reply.ok) return setError(reply.error.message);
    apply(reply.data);
    setStatus(`Resumed on ${host}.`);
  };

  const setSiteCountry = async (host: string, country: string) => {
    setStatus('');
    setError(null);
    const reply = await send({ type: 'sites/update', country: { host, country } });
    if (!reply.ok) return setError(reply.error.message);
    apply(reply.data);
    setStatus(country ? `Numbers on ${host} are read as ${countryName(country)} numbers.` : `${host} uses the default country again.`);
  };

  const addSiteCountry = async (event: Event) => {
    event.preventDefault();
    const { hosts, invalid } = parseHostList(countryHost);
    if (invalid.length > 0 || hosts.length !== 1) {
      setCountryError('Write one host, like crm.example.com.');
      return;
    }
    setCountryError(null);
    await setSiteCountry(hosts[0]!, newCountry);
    setCountryHost('');
  };

  const countries = Object.entries(sites?.countries ?? {}).sort(([a], [b]) => a.localeCompare(b));

  return (
    <section aria-labelledby="sites-title">
      <h2 id="sites-title">Sites</h2>
      <p class="hint">Where the extension finds phone numbers on pages and offers to call them. Calls always need your confirmation.</p>
      {sites === null && !error ? <p class="hint">Loading…</p> : null}
      <form noValidate onSubmit={(e) => void submit(e)}>
        <fieldset>
          <legend>Offer calls on</legend>
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
              <label for={`sites-mode-${m.value}`}>{m.label}</label>
            </div>
          ))}
        </fieldset>
        <div class="field">
          <label for="sites-list">Listed sites</label>
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
            One host per line, like crm.example.com; *.example.com or example.com also covers its subdomains.
          </p>
          <ErrorMessage id="sites-list-error">{listError}</ErrorMessage>
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || sites === null}>
            Apply site settings
          </button>
        </div>
      </form>
      <h3 id="paused-title">Paused sites</h3>
      {sites && sites.paused.length > 0 ? (
        <ul class="plain" aria-labelledby="paused-title">
          {sites.paused.map((host) => (
            <li key={host} class="row" style={{ justifyContent: 'space-between', padding: '2px 0' }}>
              <span class="mono">{host}</span>
              <button type="button" class="secondary small" aria-label={`Resume on ${host}`} onClick={() => void resume(host)}>
                Resume
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="hint">None. Pause a site from the extension’s popup while you are on it.</p>
      )}
      <h3 id="site-countries-title">Country per site</h3>
      <p class="hint">Numbers written without +country code are read for this country on the site, unless the page itself names another.</p>
      {countries.length > 0 ? (
        <ul class="plain" aria-labelledby="site-countries-title">
          {countries.map(([host, country]) => (
            <li key={host} class="row" style={{ justifyContent: 'space-between', padding: '2px 0' }}>
              <span class="mono">{host}</span>
              <CountrySelect id={`site-country-${host}`} aria-label={`Country for ${host}`} value={country} onChange={(c) => void setSiteCountry(host, c)} />
              <button type="button" class="secondary small" aria-label={`Use the default country on ${host}`} onClick={() => void setSiteCountry(host, '')}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form noValidate onSubmit={(e) => void addSiteCountry(e)} class="row">
        <label for="site-country-host">Site</label>
        <input
          id="site-country-host"
          value={countryHost}
          placeholder="crm.example.com"
          aria-invalid={countryError ? 'true' : undefined}
          aria-describedby="site-country-error"
          onInput={(e) => setCountryHost((e.target as HTMLInputElement).value)}
        />
        <label for="site-country-new">Country</label>
        <CountrySelect id="site-country-new" value={newCountry} onChange={setNewCountry} />
        <button type="submit" class="secondary" disabled={sites === null}>
          Set country
        </button>
      </form>
      <ErrorMessage id="site-country-error">{countryError}</ErrorMessage>
      <ErrorMessage>{error}</ErrorMessage>
      <StatusMessage>{status}</StatusMessage>
    </section>
  );
}
