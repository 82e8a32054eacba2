import { useEffect, useState } from 'preact/hooks';
import { browser } from '../../lib/browser';
import { t } from '../../lib/i18n';
import type { ConnectionReport } from '../../lib/messages';
import { checkBaseUrl, cleanApiKey, originPattern, SANDBOX_BASE_URL } from '../../lib/settings/checks';
import { countryOptions } from '../../lib/country-names';
import { send } from '../../lib/ui/send';
import { useStore } from '../../lib/ui/store';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import { tNodes } from '../shared/Translated';

export { originPattern };

/**
 * Asks for access to the service's origin, loopback included (the manifest grants none at install).
 * Must run inside the click handler before any `await`: browsers show the prompt only during a user
 * gesture. An origin already granted answers true without a prompt.
 */
function requestOriginAccess(origin: string): Promise<boolean | Error> {
  try {
    // A refusal answers false; a browser that cannot ask at all throws: keep the two apart.
    return browser.permissions.request({ origins: [originPattern(origin)] }).catch((error: unknown) => asError(error));
  } catch (error) {
    return Promise.resolve(asError(error));
  }
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

function refusedAccess(origin: string, answer: false | Error, action: 'save' | 'test' = 'save'): string {
  if (answer instanceof Error) return t('setup_browserCouldNotAsk', origin, answer.message);
  return t(action === 'save' ? 'setup_needsAccessSave' : 'setup_needsAccessTest', origin);
}

interface FieldErrors {
  baseUrl?: string;
  apiKey?: string;
  form?: string;
}

/** A key saved for one origin, offered for another: moved only when the person confirms, naming both. */
interface KeyMove {
  from: string;
  to: string;
}

/** Where the service is and the key to use: the first thing a person sees, and the options page. */
export function SetupForm({ onSaved }: { onSaved?: () => void }) {
  const store = useStore();
  const stored = store.settings.value;
  const hasKey = store.hasKey.value;
  const keyHint = store.keyHint.value;
  // Older background builds did not publish the origin: then the key is the saved base URL's.
  const keyOrigin = hasKey ? (store.keyOrigin.value ?? originOrNull(stored.baseUrl)) : null;

  // What the person typed or chose, null until they do: the stored value shows until then. (Copying
  // stored values into state from an effect raced typing: an effect that ran after a keystroke put
  // the stored URL over the typed one, the Firefox smoke's 1-in-8 failure of issue 8.)
  const [typedBaseUrl, setBaseUrl] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState('');
  const [chosenRememberKey, setRememberKey] = useState<boolean | null>(null);
  const [chosenCountry, setCountry] = useState<string | null>(null);
  const baseUrl = typedBaseUrl ?? stored.baseUrl;
  const rememberKey = chosenRememberKey ?? stored.rememberKey;
  const country = chosenCountry ?? stored.defaultCountry;
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState('');
  const [testing, setTesting] = useState(false);
  const [report, setReport] = useState<ConnectionReport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [otherKeyOrigins, setOtherKeyOrigins] = useState<string[]>([]);
  const [move, setMove] = useState<KeyMove | null>(null);

  useEffect(() => {
    void send({ type: 'settings/get' }).then((reply) => {
      if (!reply.ok) return;
      if (reply.data.problem) setProblem(reply.data.problem);
      setOtherKeyOrigins(reply.data.otherKeyOrigins ?? []);
    });
  }, []);

  const edit = <T,>(set: (value: T) => void) => (value: T) => {
    setSaved('');
    setMove(null);
    set(value);
  };

  /** Whether a key is saved for this origin (the typed URL's may differ from the saved one's). */
  const originHasKey = (origin: string | null) => !!origin && (origin === keyOrigin || otherKeyOrigins.includes(origin));
  const typedOrigin = originOrNull(baseUrl);

  const save = (event: Event) => {
    event.preventDefault();
    setSaved('');
    setReport(null);
    setMove(null);
    const url = checkBaseUrl(baseUrl);
    const typedKey = apiKey.trim();
    // Another origin than the saved key's, with no key of its own: ask for one, or offer to move it.
    const offerMove = !typedKey && url.ok && !originHasKey(url.origin) && keyOrigin !== null;
    const key = typedKey || (url.ok && !originHasKey(url.origin) && !offerMove) ? cleanApiKey(apiKey) : null;
    const found: FieldErrors = {};
    if (!url.ok) found.baseUrl = url.error;
    if (key && !key.ok) found.apiKey = !typedKey && url.ok ? t('setup_pasteKeyFor', url.origin) : key.error;
    if (offerMove && url.ok) {
      found.apiKey = t('setup_savedKeyIsFor', keyOrigin, url.origin);
      setMove({ from: keyOrigin, to: url.origin });
    }
    setErrors(found);
    if (!url.ok || (key && !key.ok) || offerMove) return;
    submit(url, key?.ok ? key.key : undefined);
  };

  /** Saves (after asking for the origin's access); `moveKeyFrom` only from the confirmed move. */
  const submit = (url: { baseUrl: string; origin: string }, key?: string, moveKeyFrom?: string) => {
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
        ...(key ? { apiKey: key } : {}),
        ...(moveKeyFrom ? { moveKeyFrom } : {}),
      });
      setSaving(false);
      if (!reply.ok) {
        setErrors({ form: t('setup_notSaved', reply.error.message) });
        return;
      }
      setErrors({});
      setMove(null);
      setApiKey('');
      setBaseUrl(reply.data.baseUrl);
      setOtherKeyOrigins(reply.data.otherKeyOrigins ?? []);
      setSaved(reply.data.hasKey ? t('setup_savedWithKey') : t('setup_saved'));
      onSaved?.();
    });
  };

  const confirmMove = () => {
    const url = checkBaseUrl(baseUrl);
    if (!move || !url.ok || url.origin !== move.to) return setMove(null);
    submit(url, undefined, move.from);
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
    // Only a key saved for the tested origin itself may be sent there.
    const testedOrigin = url ? (url.ok ? url.origin : null) : originOrNull(stored.baseUrl);
    if (!key && !originHasKey(testedOrigin)) {
      found.apiKey = testedOrigin ? t('setup_noKeyForOrigin', testedOrigin) : t('setup_pasteKeyToTest');
    }
    setErrors(found);
    if (found.baseUrl || found.apiKey) return;
    const access = url?.ok ? requestOriginAccess(url.origin) : Promise.resolve(true);
    setTesting(true);
    void access.then(async (granted) => {
      if (granted !== true && url?.ok) {
        setTesting(false);
        setErrors({ form: refusedAccess(url.origin, granted, 'test') });
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

  const removeKey = async (origin?: string) => {
    setSaved('');
    const reply = await send(origin ? { type: 'settings/remove-key', origin } : { type: 'settings/remove-key' });
    if (!reply.ok) setErrors({ form: t('setup_keyNotRemoved', reply.error.message) });
    else {
      setOtherKeyOrigins(reply.data.otherKeyOrigins ?? []);
      setSaved(t('setup_keyRemoved', origin ?? keyOrigin ?? t('setup_thisService')));
    }
  };

  // Fields shown before the first storage read would change under the person's typing.
  if (!store.ready.value) return <p class="hint">{t('setup_loading')}</p>;

  const { common, others } = countryOptions();
  const reportText = report
    ? report.ok && report.account && !report.message.includes(report.account)
      ? t('setup_reportWithAccount', report.message, report.account)
      : report.message
    : '';

  return (
    <form class="setup" noValidate onSubmit={save} aria-labelledby="setup-title">
      <h2 id="setup-title">{t('setup_title')}</h2>
      {problem ? <p class="message message-warning">{problem}</p> : null}

      <div class="field">
        <label for="setup-base-url">{t('setup_baseUrl')}</label>
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
            {t('setup_localSandbox')}
          </button>
        </div>
        <p class="hint" id="setup-base-url-hint">
          {t('setup_baseUrlHint', SANDBOX_BASE_URL)}
        </p>
        <ErrorMessage id="setup-base-url-error">{errors.baseUrl}</ErrorMessage>
      </div>

      <div class="field">
        <label for="setup-api-key">{t('setup_apiKey')}</label>
        <input
          id="setup-api-key"
          type="password"
          value={apiKey}
          spellcheck={false}
          autocomplete="off"
          placeholder={originHasKey(typedOrigin) ? t('setup_keepSavedKey') : ''}
          aria-invalid={errors.apiKey ? 'true' : undefined}
          aria-describedby={errors.apiKey ? 'setup-api-key-error' : 'setup-api-key-hint'}
          onInput={(e) => edit(setApiKey)((e.currentTarget as HTMLInputElement).value)}
        />
        <p class="hint" id="setup-api-key-hint">
          {hasKey ? (
            tNodes('setup_savedKeyHint', <span class="mono">{keyOrigin}</span>, <span class="mono">{keyHint ?? '••••••••'}</span>)
          ) : (
            t('setup_keyHint')
          )}
        </p>
        {hasKey ? (
          <button type="button" class="secondary small" onClick={() => void removeKey()}>
            {t('setup_removeKey')}
          </button>
        ) : null}
        <ErrorMessage id="setup-api-key-error">{errors.apiKey}</ErrorMessage>
        {move ? (
          <div class="key-move" role="group" aria-label={t('setup_moveGroup')}>
            <p>{tNodes('setup_moveQuestion', <span class="mono">{move.from}</span>, <span class="mono">{move.to}</span>)}</p>
            <button type="button" class="secondary small" onClick={confirmMove} disabled={saving}>
              {t('setup_moveButton', move.to)}
            </button>{' '}
            <button type="button" class="secondary small" onClick={() => setMove(null)}>
              {t('setup_cancel')}
            </button>
          </div>
        ) : null}
        {otherKeyOrigins.length ? (
          <div class="other-keys">
            <p class="hint">{t('setup_otherKeys')}</p>
            <ul>
              {otherKeyOrigins.map((origin) => (
                <li key={origin}>
                  <span class="mono">{origin}</span>{' '}
                  <button type="button" class="secondary small" onClick={() => void removeKey(origin)} aria-label={t('setup_removeKeyFor', origin)}>
                    {t('setup_remove')}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
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
        <label for="setup-remember">{t('setup_remember')}</label>
        <p class="hint" id="setup-remember-hint">
          {rememberKey ? t('setup_rememberOn') : t('setup_rememberOff')}
        </p>
      </div>

      <div class="field">
        <label for="setup-country">{t('setup_defaultCountry')}</label>
        <select id="setup-country" value={country} aria-describedby="setup-country-hint" onChange={(e) => edit(setCountry)((e.currentTarget as HTMLSelectElement).value)}>
          <optgroup label={t('countries_common')}>
            {common.map((c) => (
              <option key={c.code} value={c.code}>
                {t('setup_countryOption', c.name, c.code)}
              </option>
            ))}
          </optgroup>
          <optgroup label={t('countries_all')}>
            {others.map((c) => (
              <option key={c.code} value={c.code}>
                {t('setup_countryOption', c.name, c.code)}
              </option>
            ))}
          </optgroup>
        </select>
        <p class="hint" id="setup-country-hint">
          {t('setup_defaultCountryHint')}
        </p>
      </div>

      <ErrorMessage>{errors.form}</ErrorMessage>
      <div class="actions">
        <button type="submit" class="primary" disabled={saving}>
          {t('setup_save')}
        </button>
        <button type="button" class="secondary" onClick={test} disabled={testing}>
          {t('setup_testConnection')}
        </button>
      </div>
      <StatusMessage>{saving ? t('setup_saving') : testing ? t('setup_testing') : saved || (report?.ok ? reportText : '')}</StatusMessage>
      {report && !report.ok ? <ErrorMessage>{reportText}</ErrorMessage> : null}
    </form>
  );
}

/** The origin of a typed or stored base URL, or null when it cannot be one. */
function originOrNull(baseUrl: string): string | null {
  const url = checkBaseUrl(baseUrl);
  return url.ok ? url.origin : null;
}
