/**
 * Answers UI requests (already sender-checked and schema-parsed by the entrypoint). Each handler
 * turns a message into calls on the stores and the service, and every failure into words.
 */
import { browser } from '../browser';
import type { AgentsView, ConnectionReport, OwnedNumber, Reply, SettingsView, TabNumbersView, UiRequest } from '../messages';
import { checkBaseUrl, cleanApiKey, maskKey } from '../settings/schema';
import { STORAGE } from '../storage-keys';
import { addAgentById, readAgentsCache, refreshAgents, removeAgent } from './agents';
import type { CallsService } from './calls-service';
import { testConnection } from './connection';
import { describeError } from './describe-error';
import { moveApiKey, readApiKey, removeApiKey, writeApiKey } from './key-store';
import { clientFor, currentClient } from './service';
import { loadSettings, storeSettings } from './settings-store';
import { LAST_AGENT_KEY, numbersInTab } from './page-service';
import { countryFor, isEnabledOn, siteCountries } from '../page/sites';
import { parsePhoneInput } from '../phone/normalize';

export interface RouterDeps {
  calls: CallsService;
  openPanel: (callId?: string) => Promise<void>;
  now?: () => number;
}

/** Mirrors what UI may know of the key into storage, so the popup can render without a round trip. */
export async function publishKeyState(): Promise<void> {
  const key = await readApiKey();
  await browser.storage.local.set({ [STORAGE.hasKey]: Boolean(key), [STORAGE.keyHint]: key ? maskKey(key) : null });
}

async function settingsView(): Promise<SettingsView> {
  const [{ settings, problem }, key] = await Promise.all([loadSettings(), readApiKey()]);
  return {
    baseUrl: settings.baseUrl,
    defaultCountry: settings.defaultCountry,
    rememberKey: settings.rememberKey,
    hasKey: Boolean(key),
    keyHint: key ? maskKey(key) : null,
    sites: { mode: settings.sites.mode, listed: settings.sites.listed, paused: settings.sites.paused, countries: settings.sites.countries },
    problem,
  };
}

async function hasHostAccess(origin: string): Promise<boolean> {
  try {
    return await browser.permissions.contains({ origins: [`${origin}/*`] });
  } catch {
    return false;
  }
}

class InputError extends Error {}

export async function handleUiRequest(request: UiRequest, deps: RouterDeps): Promise<Reply<unknown>> {
  const now = deps.now ?? Date.now;
  try {
    return { ok: true, data: await route(request, deps, now) };
  } catch (error) {
    if (error instanceof InputError) return { ok: false, error: { message: error.message, kind: 'validation' } };
    const described = describeError(error);
    return { ok: false, error: { message: described.message, status: described.status, kind: described.kind } };
  }
}

async function route(request: UiRequest, deps: RouterDeps, now: () => number): Promise<unknown> {
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
      await storeSettings({ ...settings, baseUrl: url.baseUrl, defaultCountry: request.defaultCountry, rememberKey: request.rememberKey });
      if (key) await writeApiKey(key, request.rememberKey);
      else if (settings.rememberKey !== request.rememberKey) await moveApiKey(request.rememberKey);
      await publishKeyState();
      // Fill the agent cache now, so the popup opens with agents already listed.
      void currentClient()
        .then((client) => refreshAgents(client, now()))
        .catch(() => undefined);
      return settingsView();
    }

    case 'settings/remove-key':
      await removeApiKey();
      await publishKeyState();
      return settingsView();

    case 'sites/update': {
      const { settings } = await loadSettings();
      const sites = { ...settings.sites };
      if (request.mode) sites.mode = request.mode;
      if (request.listed) sites.listed = [...new Set(request.listed.map((h) => h.trim().toLowerCase()).filter(Boolean))];
      if (request.pause) sites.paused = [...new Set([...sites.paused, request.pause.toLowerCase()])];
      if (request.resume) sites.paused = sites.paused.filter((h) => h !== request.resume!.toLowerCase());
      if (request.country) sites.countries = siteCountries(sites.countries, request.country.host, request.country.country);
      await storeSettings({ ...settings, sites });
      return settingsView();
    }

    case 'connection/test': {
      const { settings } = await loadSettings();
      const typedKey = request.apiKey ? cleanApiKey(request.apiKey) : null;
      if (typedKey && !typedKey.ok) return { ok: false, outcome: 'no-key', message: typedKey.error } satisfies ConnectionReport;
      const key = typedKey?.key ?? (await readApiKey());
      return testConnection(request.baseUrl ?? settings.baseUrl, Boolean(key), {
        client: (baseUrl) => clientFor(baseUrl, key!),
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
      const client = await currentClient();
      const { settings } = await loadSettings();
      const cache = await readAgentsCache(settings.baseUrl);
      const agentName = cache.agents.find((a) => a.id === request.agentId)?.name ?? `Agent ${request.agentId.slice(0, 8)}`;
      const call = await deps.calls.dial({
        baseUrl: client.baseUrl,
        agentId: request.agentId,
        agentName,
        toNumber: request.toNumber,
        fromNumber: request.fromNumber,
        variables: request.variables,
      });
      await browser.storage.local.set({ [LAST_AGENT_KEY]: request.agentId });
      return { callId: call.id, call };
    }

    case 'call/stop':
      return deps.calls.stop(request.callId);
    case 'call/retry':
      return deps.calls.retry(request.callId);
    case 'call/forget':
      await deps.calls.forget(request.callId);
      return null;

    case 'execution/get': {
      const execution = await (await currentClient()).getExecution(request.executionId);
      await deps.calls.refreshExecution(execution);
      return execution;
    }
    case 'execution/log':
      return (await (await currentClient()).getExecutionLog(request.executionId)).data;
    case 'agent/executions':
      return (await currentClient()).listAgentExecutions(request.agentId, {
        page_number: request.pageNumber,
        page_size: request.pageSize,
        // The live route in effect requires a window of at most 7 days.
        from: new Date(now() - 7 * 24 * 3600_000),
        to: new Date(now()),
      });

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
      return { tabId, host, numbers, total, enabled: isEnabledOn(host, settings.sites), country, siteCountry } satisfies TabNumbersView;
    }
  }
}
