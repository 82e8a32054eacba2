/**
 * What UI pages know: settings from `storage.local` (kept current with `storage.onChanged`), and
 * calls, the agent cache and the key state from the data store in the extension origin's IndexedDB
 * (lib/store/data-db.ts; kept current by its change channel, no polling). The background is the only
 * writer of both; pages read them so they render at once without a round trip. The key is never here.
 *
 * The readers below are deliberately light (shape checks, no zod): the popup must stay small, and the
 * background already validated everything it wrote. A value that does not look right is ignored
 * rather than allowed to break the page.
 */
import { signal, type Signal } from '@preact/signals';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { browser } from '../browser';
import type { CallRecord } from '../calls/call-record';
import type { AgentSummary } from '../messages';
import { DATA, STORAGE, type AgentsCache, type DataName } from '../storage-keys';
import { readData, readQuarantine, watchData, type QuarantineEntry } from '../store/data-db';

/** The part of the settings UI pages use before the background has answered anything. */
export interface UiSettings {
  baseUrl: string;
  defaultCountry: string;
  rememberKey: boolean;
  /** Calls start at once where the service offers it (the confirmation says when a call starts). */
  startCallsNow: boolean;
}

/** Mirrors DEFAULT_SETTINGS in lib/settings/schema.ts (not imported: that module builds zod schemas). */
export const UI_DEFAULT_SETTINGS: UiSettings = { baseUrl: 'http://127.0.0.1:8787', defaultCountry: 'US', rememberKey: true, startCallsNow: false };

export interface UiStore {
  /** The first read of storage has finished. */
  ready: Signal<boolean>;
  calls: Signal<CallRecord[]>;
  settings: Signal<UiSettings>;
  hasKey: Signal<boolean>;
  keyHint: Signal<string | null>;
  /** The origin the saved key is for (the base URL's), null when there is none. */
  keyOrigin: Signal<string | null>;
  agentsCache: Signal<AgentsCache | null>;
  /** What was kept aside because it could not be read (history, settings): said plainly, never lost. */
  keptAside: Signal<KeptAsideNotice[]>;
  dispose(): void;
}

/** A quarantine entry without its value (the page only says what and when). */
export interface KeptAsideNotice {
  source: string;
  reason: string;
  at: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function looksLikeCall(value: unknown): value is CallRecord {
  if (!isObject(value)) return false;
  return (
    typeof value.id === 'string' &&
    typeof value.agentId === 'string' &&
    typeof value.toNumber === 'string' &&
    typeof value.step === 'string' &&
    typeof value.createdAt === 'number' &&
    Array.isArray(value.observed)
  );
}

/** `{version, calls}` (or the older bare array) → the records that look like calls, newest first as stored. */
export function readStoredCalls(raw: unknown): CallRecord[] {
  const list = Array.isArray(raw) ? raw : isObject(raw) ? raw.calls : undefined;
  if (!Array.isArray(list)) return [];
  return list.filter(looksLikeCall).map((c) => ({
    ...c,
    variables: isObject(c.variables) ? c.variables : {},
    observed: c.observed.filter((o) => isObject(o) && typeof o.status === 'string' && typeof o.at === 'number'),
  }));
}

export function readStoredSettings(raw: unknown): UiSettings {
  if (!isObject(raw)) return UI_DEFAULT_SETTINGS;
  const baseUrl = typeof raw.baseUrl === 'string' ? raw.baseUrl : typeof raw.apiBaseUrl === 'string' ? raw.apiBaseUrl : UI_DEFAULT_SETTINGS.baseUrl;
  const country = typeof raw.defaultCountry === 'string' ? raw.defaultCountry : raw.country;
  return {
    baseUrl,
    defaultCountry: typeof country === 'string' && /^[A-Z]{2}$/.test(country) ? country : UI_DEFAULT_SETTINGS.defaultCountry,
    rememberKey: typeof raw.rememberKey === 'boolean' ? raw.rememberKey : UI_DEFAULT_SETTINGS.rememberKey,
    startCallsNow: raw.startCallsNow === true,
  };
}

function looksLikeAgent(value: unknown): value is AgentSummary {
  return isObject(value) && typeof value.id === 'string' && typeof value.name === 'string';
}

export function readStoredAgents(raw: unknown): AgentsCache | null {
  if (!isObject(raw) || !Array.isArray(raw.agents)) return null;
  return {
    baseUrl: typeof raw.baseUrl === 'string' ? raw.baseUrl : '',
    agents: raw.agents.filter(looksLikeAgent).map((a) => ({
      id: a.id,
      name: a.name,
      status: typeof a.status === 'string' ? a.status : null,
      manual: a.manual === true,
    })),
    fetchedAt: typeof raw.fetchedAt === 'number' ? raw.fetchedAt : null,
    listRouteMissing: raw.listRouteMissing === true,
  };
}

export function readKeyState(raw: unknown): { hasKey: boolean; keyHint: string | null; keyOrigin: string | null } {
  if (!isObject(raw)) return { hasKey: false, keyHint: null, keyOrigin: null };
  return {
    hasKey: raw.hasKey === true,
    keyHint: typeof raw.keyHint === 'string' ? raw.keyHint : null,
    keyOrigin: typeof raw.keyOrigin === 'string' ? raw.keyOrigin : null,
  };
}

export function readKeptAside(entries: QuarantineEntry[]): KeptAsideNotice[] {
  return entries
    .filter((e) => isObject(e) && typeof e.source === 'string' && typeof e.reason === 'string' && typeof e.at === 'number')
    .map((e) => ({ source: e.source, reason: e.reason, at: e.at }));
}

const RECORDS = [DATA.calls, DATA.keyState, DATA.agentsCache] as const;

export function createUiStore(): UiStore {
  const store = {
    ready: signal(false),
    calls: signal<CallRecord[]>([]),
    settings: signal<UiSettings>(UI_DEFAULT_SETTINGS),
    hasKey: signal(false),
    keyHint: signal<string | null>(null),
    keyOrigin: signal<string | null>(null),
    agentsCache: signal<AgentsCache | null>(null),
    keptAside: signal<KeptAsideNotice[]>([]),
  };

  const apply = (name: DataName, value: unknown) => {
    switch (name) {
      case DATA.calls:
        store.calls.value = readStoredCalls(value);
        break;
      case DATA.keyState: {
        const state = readKeyState(value);
        store.hasKey.value = state.hasKey;
        store.keyHint.value = state.keyHint;
        store.keyOrigin.value = state.keyOrigin;
        break;
      }
      case DATA.agentsCache:
        store.agentsCache.value = readStoredAgents(value);
        break;
    }
  };
  const loadKeptAside = () =>
    readQuarantine()
      .then((entries) => void (store.keptAside.value = readKeptAside(entries)))
      .catch(() => undefined);

  // Changes that arrive before the first read win over that read's (older) values.
  const changedEarly = new Set<string>();
  const onChanged = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local' || !(STORAGE.settings in changes)) return;
    changedEarly.add(STORAGE.settings);
    store.settings.value = readStoredSettings(changes[STORAGE.settings]!.newValue);
  };
  browser.storage.onChanged.addListener(onChanged);
  const unwatch = watchData((change) => {
    if (change.name === DATA.quarantine) return void loadKeptAside();
    changedEarly.add(change.name);
    apply(change.name, change.value);
  });

  let disposed = false;
  const settingsRead = browser.storage.local.get(STORAGE.settings).then((stored) => {
    if (!disposed && !changedEarly.has(STORAGE.settings)) store.settings.value = readStoredSettings(stored[STORAGE.settings]);
  });
  const dataRead = readData(RECORDS).then((found) => {
    if (disposed) return;
    for (const name of RECORDS) if (!changedEarly.has(name)) apply(name, found[name]);
  });
  // Storage unreadable: keep the defaults; the background's replies still work.
  void Promise.allSettled([settingsRead, dataRead]).then(() => {
    if (!disposed) store.ready.value = true;
  });
  void loadKeptAside();

  return {
    ...store,
    dispose() {
      disposed = true;
      browser.storage.onChanged.removeListener(onChanged);
      unwatch();
    },
  };
}

export const StoreContext = createContext<UiStore | null>(null);

export function useStore(): UiStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore() needs a <StoreContext.Provider> around the app.');
  return store;
}
