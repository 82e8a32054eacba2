/**
 * What UI pages know, fed from `browser.storage.local` and kept current with `storage.onChanged`.
 * The background is the only writer of these keys; pages read them so they render at once without a
 * round trip. Keys under `secret.` are never read here.
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
import { STORAGE, type AgentsCache } from '../storage-keys';

/** The part of the settings UI pages use before the background has answered anything. */
export interface UiSettings {
  baseUrl: string;
  defaultCountry: string;
  rememberKey: boolean;
}

/** Mirrors DEFAULT_SETTINGS in lib/settings/schema.ts (not imported: that module builds zod schemas). */
export const UI_DEFAULT_SETTINGS: UiSettings = { baseUrl: 'http://127.0.0.1:8787', defaultCountry: 'US', rememberKey: true };

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
  dispose(): void;
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

const WATCHED = [STORAGE.calls, STORAGE.settings, STORAGE.hasKey, STORAGE.keyHint, STORAGE.keyOrigin, STORAGE.agentsCache] as const;
type Watched = (typeof WATCHED)[number];

export function createUiStore(): UiStore {
  const store = {
    ready: signal(false),
    calls: signal<CallRecord[]>([]),
    settings: signal<UiSettings>(UI_DEFAULT_SETTINGS),
    hasKey: signal(false),
    keyHint: signal<string | null>(null),
    keyOrigin: signal<string | null>(null),
    agentsCache: signal<AgentsCache | null>(null),
  };

  const apply = (key: Watched, value: unknown) => {
    switch (key) {
      case STORAGE.calls:
        store.calls.value = readStoredCalls(value);
        break;
      case STORAGE.settings:
        store.settings.value = readStoredSettings(value);
        break;
      case STORAGE.hasKey:
        store.hasKey.value = value === true;
        break;
      case STORAGE.keyHint:
        store.keyHint.value = typeof value === 'string' ? value : null;
        break;
      case STORAGE.keyOrigin:
        store.keyOrigin.value = typeof value === 'string' ? value : null;
        break;
      case STORAGE.agentsCache:
        store.agentsCache.value = readStoredAgents(value);
        break;
    }
  };

  // Changes that arrive before the first read wins over that read's (older) values.
  const changedEarly = new Set<string>();
  const onChanged = (changes: Record<string, { newValue?: unknown }>, area: string) => {
    if (area !== 'local') return;
    for (const key of WATCHED) {
      if (key in changes) {
        changedEarly.add(key);
        apply(key, changes[key]!.newValue);
      }
    }
  };
  browser.storage.onChanged.addListener(onChanged);

  let disposed = false;
  browser.storage.local
    .get([...WATCHED])
    .then((stored) => {
      if (disposed) return;
      for (const key of WATCHED) if (!changedEarly.has(key)) apply(key, stored[key]);
    })
    .catch(() => {
      // Storage unreadable: keep the defaults; the background's replies still work.
    })
    .finally(() => {
      if (!disposed) store.ready.value = true;
    });

  return {
    ...store,
    dispose() {
      disposed = true;
      browser.storage.onChanged.removeListener(onChanged);
    },
  };
}

export const StoreContext = createContext<UiStore | null>(null);

export function useStore(): UiStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore() needs a <StoreContext.Provider> around the app.');
  return store;
}
