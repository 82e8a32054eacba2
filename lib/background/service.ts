/**
 * Builds the API client from the stored settings and key. The one place, with key-store.ts, where the
 * key is handled. A response header `x-sandbox-speed` (sent only by the local sandbox, whose clock can
 * run faster than ours) is remembered so the tracker can place its countdown on our clock, and the
 * `Date` header so a call is scheduled on the service's clock.
 */
import { clockReadingFetch } from '../api/clock';
import { createClient, type VoiceAgentClient } from '../api/client';
import type { RouteForms } from '../api/routes';
import { t } from '../i18n';
import { records } from '../store/records';
import { originOf, readKeyFor } from './key-store';
import { loadSettings } from './settings-store';
import type { Settings } from '../settings/schema';

export class NoKeyError extends Error {
  override name = 'NoKeyError';
  constructor(message = t('keys_noKey')) {
    super(message);
  }
}

/** `api.example.com` (with the port when there is one): how a person names a service. */
export const hostOf = (origin: string): string => new URL(origin).host;

/**
 * A call is followed only with the key of the service it was placed at. When that service has no key
 * (the settings moved on, or a session key is gone), no other key stands in for it.
 */
export class NeedsKeyError extends NoKeyError {
  override name = 'NeedsKeyError';
  constructor(baseUrl: string) {
    const origin = originOf(baseUrl);
    super(t('keys_needsKey', hostOf(origin), origin));
  }
}

export interface ServiceClient extends VoiceAgentClient {
  baseUrl: string;
  timeScale(): number;
  /** The service clock minus ours (ms), from the last answer's `Date` header; undefined before any answer. */
  clockOffset(): number | undefined;
}

const routeMemory = {
  async get(baseUrl: string): Promise<RouteForms | undefined> {
    return (await records.routeMemory.read())[baseUrl];
  },
  async set(baseUrl: string, forms: RouteForms): Promise<void> {
    const all = await records.routeMemory.read();
    await records.routeMemory.write({ ...all, [baseUrl]: forms });
  },
};

export function clientFor(baseUrl: string, apiKey: string): ServiceClient {
  const { fetch: reading, clock } = clockReadingFetch();
  const client = createClient({ baseUrl, apiKey, fetch: reading, routeMemory });
  return Object.assign(client, { baseUrl }, clock);
}

/** The client for the saved settings, with the key saved for their origin; throws NoKeyError when there is none. */
export async function currentClient(): Promise<ServiceClient> {
  return clientForSettings((await loadSettings()).settings);
}

/** The same, for settings already read (a request that also needs them reads them once). */
export async function clientForSettings(settings: Settings): Promise<ServiceClient> {
  const record = await readKeyFor(originOf(settings.baseUrl));
  if (!record) throw new NoKeyError(t('keys_noKeyFor', hostOf(settings.baseUrl)));
  return clientFor(settings.baseUrl, record.key);
}
