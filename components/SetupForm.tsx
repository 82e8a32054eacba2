import { useEffect, useState } from 'preact/hooks';
import { browser } from '../lib/browser';
import type { ConnectionReport } from '../lib/messages';
import { checkBaseUrl, cleanApiKey, isLoopbackUrl, SANDBOX_BASE_URL } from '../lib/settings/checks';
import { countryOptions } from '../lib/ui/countries';
import { send } from '../lib/ui/send';
import { useStore } from '../lib/ui/store';
import { ErrorMessage, StatusMessage } from './Messages';

/** The host permission pattern for a base URL's origin (match patterns carry no port). */
export function originPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}

/**
 * Asks for access to the service's origin. Must run inside the click handler before any `await`:
 * browsers show the prompt only during a user gesture. Loopback origins are granted in the manifest.
 */
function requestOriginAccess(origin: string): Promise<boolean | Error> {
  if (isLoopbackUrl(new URL(origin))) return Promise.resolve(true);
  try {
    // A refusal answers false; a browser that cannot ask at all throws: keep the two apart.
    return browser.permissions.request({ origins: [originPattern(origin)] }).catch((error: unknown) => asError(error));
  } catch (error) {
    return Promise.resolve(asError(error));
  }
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

function refusedAccess(origin: string, answer: false | Error, action = 'Save'): string {
  if (answer instanceof Error) return `The browser could not ask for access to ${origin}: ${answer.message}`;
  return `The extension needs access to ${origin} to reach the service; click ${action} again and choose Allow.`;
}

interface FieldErrors {
  baseUrl?: string;
  apiKey?: string;
  form?: string;
}

/** Where the service is and the key to use: the first thing a person sees, and the options page. */
export function SetupForm({ onSaved }: { onSaved?: () => void }) {
  const store = useStore();
  const stored = store.settings.value;
  const hasKey = store.hasKey.value;
  const keyHint = store.keyHint.value;

  const [baseUrl, setBaseUrl] = useState(stored.baseUrl);
  const [apiKey, setApiKey] = useState('');
  const [rememberKey, setRememberKey] = useState(stored.rememberKey);
  const [country, setCountry] = useState(stored.defaultCountry);
  const [edited, setEdited] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState('');
  const [testing, setTesting] = useState(false);
  const [report, setReport] = useState<ConnectionReport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // Stored settings can arrive after the first render; they fill the form until the person edits it.
  useEffect(() => {
    if (edited) return;
    setBaseUrl(stored.baseUrl);
    setRememberKey(stored.rememberKey);
    setCountry(stored.defaultCountry);
  }, [stored]);

  useEffect(() => {
    void send({ type: 'settings/get' }).then((reply) => {
      if (reply.ok && reply.data.problem) setProblem(reply.data.problem);
    });
  }, []);

  const edit = <T,>(set: (value: T) => void) => (value: T) => {
    setEdited(true);
    setSaved('');
    set(value);
  };

  const save = (event: Event) => {
    event.preventDefault();
    setSaved('');
    setReport(null);
    const url = checkBaseUrl(baseUrl);
    const typedKey = apiKey.trim();
    const key = typedKey || !hasKey ? cleanApiKey(apiKey) : null;
    const found: FieldErrors = {};
    if (!url.ok) found.baseUrl = url.error;
    if (key && !key.ok) found.apiKey = key.error;
    setErrors(found);
    if (!url.ok || (key && !key.ok)) return;
    // First, while the click still counts as a user gesture: ask for the origin.
    const access = requestOriginAccess(url.origin);
    setSaving(true);
    void access.then(async (granted) => {
      if (granted !== true) {
        setSaving(false);
        setErrors({ form: refusedAccess(url.origin, granted) });
        return;
      }
      const reply = await send({
        type: 'settings/save',
        baseUrl: url.baseUrl,
        defaultCountry: country,
        rememberKey,
        ...(key?.ok ? { apiKey: key.key } : {}),
      });
      setSaving(false);
      if (!reply.ok) {
        setErrors({ form: `Not saved: ${reply.error.message}` });
        return;
      }
      setErrors({});
      setApiKey('');
      setEdited(false);
      setBaseUrl(reply.data.baseUrl);
      setSaved(reply.data.hasKey ? 'Saved. The key is stored and shown only masked from now on.' : 'Saved.');
      onSaved?.();
    });
  };

  const test = () => {
    setReport(null);
    setSaved('');
    const typedUrl = baseUrl.trim();
    const changedUrl = typedUrl !== stored.baseUrl;
    const url = changedUrl ? checkBaseUrl(typedUrl) : null;
    const key = apiKey.trim() ? cleanApiKey(apiKey) : null;
    const found: FieldErrors = {};
    if (url && !url.ok) found.baseUrl = url.error;
    if (key && !key.ok) found.apiKey = key.error;
    if (!key && !hasKey) found.apiKey = 'Paste your API key to test it.';
    setErrors(found);
    if (found.baseUrl || found.apiKey) return;
    const access = url?.ok ? requestOriginAccess(url.origin) : Promise.resolve(true);
    setTesting(true);
    void access.then(async (granted) => {
      if (granted !== true && url?.ok) {
        setTesting(false);
        setErrors({ form: refusedAccess(url.origin, granted, 'Test connection') });
        return;
      }
      const reply = await send({
        type: 'connection/test',
        ...(url?.ok ? { baseUrl: url.baseUrl } : {}),
        ...(key?.ok ? { apiKey: key.key } : {}),
      });
      setTesting(false);
      if (!reply.ok) setReport({ ok: false, outcome: 'unexpected', message: reply.error.message });
      else setReport(reply.data);
    });
  };

  const removeKey = async () => {
    setSaved('');
    const reply = await send({ type: 'settings/remove-key' });
    if (!reply.ok) setErrors({ form: `The key was not removed: ${reply.error.message}` });
    else setSaved('The key was removed from this device.');
  };

  const { common, others } = countryOptions();
  const reportText = report
    ? report.ok && report.account && !report.message.includes(report.account)
      ? `${report.message} Account: ${report.account}.`
      : report.message
    : '';

  return (
    <form class="setup" noValidate onSubmit={save} aria-labelledby="setup-title">
      <h2 id="setup-title">Connect to the service</h2>
      {problem ? <p class="message message-warning">{problem}</p> : null}

      <div class="field">
        <label for="setup-base-url">API base URL</label>
        <div class="row">
          <input
            id="setup-base-url"
            type="url"
            inputMode="url"
            value={baseUrl}
            spellcheck={false}
            autocomplete="url"
            aria-invalid={errors.baseUrl ? 'true' : undefined}
            aria-describedby={errors.baseUrl ? 'setup-base-url-error' : 'setup-base-url-hint'}
            onInput={(e) => edit(setBaseUrl)((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="button" class="secondary" onClick={() => edit(setBaseUrl)(SANDBOX_BASE_URL)}>
            Local sandbox
          </button>
        </div>
        <p class="hint" id="setup-base-url-hint">
          The service’s address (HTTPS). “Local sandbox” fills in {SANDBOX_BASE_URL}.
        </p>
        <ErrorMessage id="setup-base-url-error">{errors.baseUrl}</ErrorMessage>
      </div>

      <div class="field">
        <label for="setup-api-key">API key</label>
        <input
          id="setup-api-key"
          type="password"
          value={apiKey}
          spellcheck={false}
          autocomplete="off"
          placeholder={hasKey ? 'Leave empty to keep the saved key' : ''}
          aria-invalid={errors.apiKey ? 'true' : undefined}
          aria-describedby={errors.apiKey ? 'setup-api-key-error' : 'setup-api-key-hint'}
          onInput={(e) => edit(setApiKey)((e.currentTarget as HTMLInputElement).value)}
        />
        <p class="hint" id="setup-api-key-hint">
          {hasKey ? (
            <>
              Saved key: <span class="mono">{keyHint ?? '••••••••'}</span>. Paste a new one to replace it.
            </>
          ) : (
            'The key stays in the extension’s background and is never shown again in full.'
          )}
        </p>
        {hasKey ? (
          <button type="button" class="secondary small" onClick={removeKey}>
            Remove key
          </button>
        ) : null}
        <ErrorMessage id="setup-api-key-error">{errors.apiKey}</ErrorMessage>
      </div>

      <div class="field switch-field">
        <input
          id="setup-remember"
          type="checkbox"
          role="switch"
          checked={rememberKey}
          aria-describedby="setup-remember-hint"
          onChange={(e) => edit(setRememberKey)((e.currentTarget as HTMLInputElement).checked)}
        />
        <label for="setup-remember">Remember the key on this device</label>
        <p class="hint" id="setup-remember-hint">
          {rememberKey
            ? 'The key is kept in this browser profile until you remove it.'
            : 'The key is kept for this browser session only: you will paste it again after the browser restarts.'}
        </p>
      </div>

      <div class="field">
        <label for="setup-country">Default country</label>
        <select id="setup-country" value={country} aria-describedby="setup-country-hint" onChange={(e) => edit(setCountry)((e.currentTarget as HTMLSelectElement).value)}>
          <optgroup label="Common">
            {common.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name} ({c.code})
              </option>
            ))}
          </optgroup>
          <optgroup label="All countries">
            {others.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name} ({c.code})
              </option>
            ))}
          </optgroup>
        </select>
        <p class="hint" id="setup-country-hint">
          Numbers typed without a + and country code are read as numbers of this country.
        </p>
      </div>

      <ErrorMessage>{errors.form}</ErrorMessage>
      <div class="actions">
        <button type="submit" class="primary" disabled={saving}>
          Save
        </button>
        <button type="button" class="secondary" onClick={test} disabled={testing}>
          Test connection
        </button>
      </div>
      <StatusMessage>{saving ? 'Saving…' : testing ? 'Testing the connection…' : saved || (report?.ok ? reportText : '')}</StatusMessage>
      {report && !report.ok ? <ErrorMessage>{reportText}</ErrorMessage> : null}
    </form>
  );
}
