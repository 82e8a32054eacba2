/**
 * Answers UI requests (already sender-checked and schema-parsed by the entrypoint). Each handler
 * turns a message into calls on the stores and the service, and every failure into words.
 */
import { browser } from '../browser';
import { t } from '../i18n';
import type { AgentsView, ConnectionReport, OwnedNumber, Reply, SettingsView, TabNumbersView, UiRequest } from '../messages';
import { checkBaseUrl, cleanApiKey, maskKey } from '../settings/schema';
import { records } from '../store/records';
import { addAgentById, readAgentsCache, refreshAgents, removeAgent } from './agents';
import type { CallsService } from './calls-service';
import { testConnection } from './connection';
import { describeError } from './describe-error';
import { featureHandlers } from './handlers';
import { InputError } from './input-error';
import { chooseKey } from './key-choice';
import { moveKey, originOf, readKeyFor, readKeys, removeKey, setKeyRemembered, writeKey, type KeyRecord } from './key-store';
import { clientFor, clientForSettings, currentClient, NeedsKeyError, type ServiceClient } from './service';
import { loadSettings, storeSettings } from './settings-store';
import { numbersInTab } from './page-service';
import { countryFor, isEnabledOn, siteCountries } from '../page/sites';
import { parsePhoneInput } from '../phone/normalize';

export interface RouterDeps {
  calls: CallsService;
  openPanel: (callId?: string) => Promise<void>;
  now?: () => number;
}

/** The key of the saved base URL's origin: the only one UI speaks of. */
async function currentKey(): Promise<KeyRecord | null> {
  const { settings } = await loadSettings();
  return readKeyFor(originOf(settings.baseUrl));
}

/** Mirrors what UI may know of the key into the data store (not storage.local: content scripts read that), so the popup can render without a round trip. */
export async function publishKeyState(): Promise<void> {
  const record = await currentKey();
  await records.keyState.write({ hasKey: Boolean(record), keyHint: record ? maskKey(record.key) : null, keyOrigin: record?.origin ?? null });
}

async function settingsView(): Promise<SettingsView> {
  const [{ settings, problem }, keys] = await Promise.all([loadSettings(), readKeys()]);
  const origin = originOf(settings.baseUrl);
  const record = keys.find((k) => k.origin === origin);
  return {
    baseUrl: settings.baseUrl,
    defaultCountry: settings.defaultCountry,
    rememberKey: settings.rememberKey,
    hasKey: Boolean(record),
    keyHint: record ? maskKey(record.key) : null,
    keyOrigin: record?.origin ?? null,
    otherKeyOrigins: keys.filter((k) => k.origin !== origin).map((k) => k.origin),
    sites: { on: settings.sites.on, mode: settings.sites.mode, listed: settings.sites.listed, paused: settings.sites.paused, countries: settings.sites.countries },
    startCallsNow: settings.startCallsNow,
    problem,
  };
}

/**
 * An execution of a call in history is read at the service the call was placed at, with that
 * service's key only; any other execution (e.g. listed for an agent) at the saved service.
 */
async function clientForExecution(executionId: string, calls: CallsService): Promise<ServiceClient> {
  const call = (await calls.list()).find((c) => c.executionId === executionId);
  if (!call) return currentClient();
  const record = await readKeyFor(originOf(call.baseUrl));
  if (!record) throw new NeedsKeyError(call.baseUrl);
  return clientFor(call.baseUrl, record.key);
}

async function hasHostAccess(origin: string): Promise<boolean> {
  try {
    return await browser.permissions.contains({ origins: [`${origin}/*`] });
  } catch {
    return false;
  }
}

export async function handleUiRequest(request: UiRequest, deps: RouterDeps): Promise<Reply<unknown>> {
  const now = deps.now ?? Date.now;
  try {
    return { ok: true, data: await route(request, deps, now) };
  } catch (error) {
    if (error instanceof InputError) return { ok: false, error: { message: error.message, kind: error.kind } };
    const described = describeError(error);
    return { ok: false, error: { message: described.message, status: described.status, kind: described.kind } };
  }
}

async function route(request: UiRequest, deps: RouterDeps, now: () => number): Promise<unknown> {
  const feature = featureHandlers[request.type];
  if (feature) return feature(request as never, { calls: deps.calls, openPanel: deps.openPanel, now });
  switch (request.type) {
    case 'settings/get':
      return settingsView();

    case 'settings/save': {
      const url = checkBaseUrl(request.baseUrl);
      if (!url.ok) throw new InputError(url.error);
      let key: string | undefined;
      if (request.apiKey !== undefined && request.apiKey !== '') {
        const cleaned = cleanApiKey(request.apiKey);
        if (!cleaned.ok) throw new InputError(cleaned.error);
        key = cleaned.key;
      }
      const { settings } = await loadSettings();
      // The base URL is saved with its own key; another origin's key is never carried along silently.
      const choice = chooseKey({
        origin: url.origin,
        previousOrigin: originOf(settings.baseUrl),
        typedKey: key ?? null,
        moveKeyFrom: request.moveKeyFrom ?? null,
        keyOrigins: (await readKeys()).map((k) => k.origin),
      });
      if (choice.action === 'refuse') throw new InputError(choice.message, 'key-origin');
      await storeSettings({ ...settings, baseUrl: url.baseUrl, defaultCountry: request.defaultCountry, rememberKey: request.rememberKey });
      if (choice.action === 'write') await writeKey(url.origin, choice.key, request.rememberKey);
      else if (choice.action === 'move') await moveKey(choice.from, url.origin, request.rememberKey);
      else await setKeyRemembered(url.origin, request.rememberKey);
      await publishKeyState();
      // Fill the agent cache now, so the popup opens with agents already listed.
      void currentClient()
        .then((client) => refreshAgents(client, now()))
        .catch(() => undefined);
      return settingsView();
    }

    case 'settings/remove-key': {
      const { settings } = await loadSettings();
      const origin = request.origin ?? originOf(settings.baseUrl);
      if (!(await readKeys()).some((k) => k.origin === origin)) throw new InputError(t('keys_noneSavedFor', origin));
      await removeKey(origin);
      await publishKeyState();
      return settingsView();
    }

    case 'sites/update': {
      const { settings } = await loadSettings();
      const sites = { ...settings.sites };
      if (request.on !== undefined) sites.on = request.on;
      if (request.mode) sites.mode = request.mode;
      if (request.listed) sites.listed = [...new Set(request.listed.map((h) => h.trim().toLowerCase()).filter(Boolean))];
      if (request.pause) sites.paused = [...new Set([...sites.paused, request.pause.toLowerCase()])];
      if (request.resume) sites.paused = sites.paused.filter((h) => h !== request.resume!.toLowerCase());
      if (request.country) sites.countries = siteCountries(sites.countries, request.country.host, request.country.country);
      await storeSettings({ ...settings, sites });
      return settingsView();
    }

    case 'settings/call-route': {
      const { settings } = await loadSettings();
      await storeSettings({ ...settings, startCallsNow: request.startCallsNow });
      return settingsView();
    }

    case 'connection/test': {
      const { settings } = await loadSettings();
      const typedKey = request.apiKey ? cleanApiKey(request.apiKey) : null;
      if (typedKey && !typedKey.ok) return { ok: false, outcome: 'no-key', message: typedKey.error } satisfies ConnectionReport;
      const baseUrl = request.baseUrl ?? settings.baseUrl;
      const url = checkBaseUrl(baseUrl);
      // A typed key is tried where it was typed for; otherwise only the key saved for this very origin.
      const key = typedKey?.key ?? (url.ok ? (await readKeyFor(url.origin))?.key : undefined);
      return testConnection(baseUrl, Boolean(key), {
        client: (testedUrl) => {
          if (!url.ok || originOf(testedUrl) !== url.origin) throw new Error('The connection test lost track of its origin.');
          return clientFor(testedUrl, key!);
        },
        hasHostAccess,
      });
    }

    case 'agents/list': {
      const { settings } = await loadSettings();
      const cache = await readAgentsCache(settings.baseUrl);
      if (!request.refresh && cache.fetchedAt) return { ...cache, refreshError: null } satisfies AgentsView;
      try {
        return await refreshAgents(await currentClient(), now());
      } catch (error) {
        // Keep showing what we had; say why it could not be refreshed.
        return { ...cache, refreshError: describeError(error).message } satisfies AgentsView;
      }
    }

    case 'agents/add-by-id':
      return addAgentById(await currentClient(), request.agentId);

    case 'agents/remove': {
      const { settings } = await loadSettings();
      return removeAgent(settings.baseUrl, request.agentId);
    }

    case 'phone-numbers/list': {
      const numbers = await (await currentClient()).listPhoneNumbers();
      return numbers.map((n): OwnedNumber => ({ id: n.id, phoneNumber: n.phone_number, agentId: n.agent_id ?? null }));
    }

    case 'call/dial': {
      // Reads side by side: on a busy worker each await waits its turn behind the pages' work (bench/flood.ts).
      const { settings } = await loadSettings();
      const [client, cache] = await Promise.all([clientForSettings(settings), readAgentsCache(settings.baseUrl)]);
      const agentName = cache.agents.find((a) => a.id === request.agentId)?.name ?? `Agent ${request.agentId.slice(0, 8)}`;
      const call = await deps.calls.dial({
        id: request.dialId,
        baseUrl: client.baseUrl,
        agentId: request.agentId,
        agentName,
        toNumber: request.toNumber,
        fromNumber: request.fromNumber,
        variables: request.variables,
        via: settings.startCallsNow ? 'call' : 'batch',
      }, { again: request.again });
      await records.lastAgentId.write(request.agentId);
      return { callId: call.id, call };
    }

    case 'call/stop':
      return deps.calls.pressStop(request.callId);
    case 'call/retry':
      return deps.calls.retry(request.callId);
    case 'call/forget':
      await deps.calls.forget(request.callId);
      return null;

    case 'execution/get': {
      const execution = await (await clientForExecution(request.executionId, deps.calls)).getExecution(request.executionId);
      await deps.calls.refreshExecution(execution);
      return execution;
    }
    case 'execution/log':
      return (await (await clientForExecution(request.executionId, deps.calls)).getExecutionLog(request.executionId)).data;
    case 'panel/open':
      await deps.openPanel(request.callId);
      return null;

    case 'phone/parse':
      return parsePhoneInput(request.text, request.country);

    case 'page/numbers-for-tab': {
      const tabId = request.tabId ?? (await browser.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id ?? null;
      if (tabId === null) return { tabId, host: '', numbers: [], total: 0, enabled: false, country: '', siteCountry: null } satisfies TabNumbersView;
      const { host, numbers, total } = await numbersInTab(tabId);
      const { settings } = await loadSettings();
      const country = countryFor(host, settings);
      const siteCountry = settings.sites.countries[host] ?? null;
      return { tabId, host, numbers, total, enabled: isEnabledOn(host, settings.sites), pagesOn: settings.sites.on, country, siteCountry } satisfies TabNumbersView;
    }
  }
}
