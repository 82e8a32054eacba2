/**
 * User settings as stored, versioned. Reading never throws: a stored value that does not parse falls
 * back to defaults (field by field where possible) and the problem is reported, not hidden.
 */
import { z } from '../api/zod';

export const SETTINGS_VERSION = 1;
export const SANDBOX_BASE_URL = 'http://127.0.0.1:8787';

export const siteMode = z.enum(['everywhere', 'only-listed', 'except-listed']);
export type SiteMode = z.infer<typeof siteMode>;

const country = z.string().regex(/^[A-Z]{2}$/);

export const settings = z.object({
  version: z.literal(SETTINGS_VERSION),
  baseUrl: z.string().url(),
  defaultCountry: country,
  rememberKey: z.boolean(),
  sites: z.object({
    mode: siteMode,
    /** Host names for the only-listed / except-listed modes. */
    listed: z.array(z.string()),
    /** Hosts paused from the popup ("Pause on this site"). */
    paused: z.array(z.string()),
    /** Per-host default country overrides. */
    countries: z.record(z.string(), country),
  }),
});
export type Settings = z.infer<typeof settings>;

export const DEFAULT_SETTINGS: Settings = {
  version: SETTINGS_VERSION,
  baseUrl: SANDBOX_BASE_URL,
  defaultCountry: 'US',
  rememberKey: true,
  sites: { mode: 'everywhere', listed: [], paused: [], countries: {} },
};

export interface SettingsRead {
  settings: Settings;
  /** Why stored settings were (partly) replaced by defaults, if they were. */
  problem: string | null;
}

/** Older shapes → current. Version 0 is the unversioned first draft (`apiBaseUrl`, `country`). */
function migrate(raw: Record<string, unknown>): Record<string, unknown> {
  if (raw.version === undefined) {
    const { apiBaseUrl, country: c, ...rest } = raw;
    return { ...rest, version: 1, baseUrl: rest.baseUrl ?? apiBaseUrl, defaultCountry: rest.defaultCountry ?? c };
  }
  return raw;
}

export function readSettings(stored: unknown): SettingsRead {
  if (stored === undefined || stored === null) return { settings: DEFAULT_SETTINGS, problem: null };
  if (typeof stored !== 'object' || Array.isArray(stored)) {
    return { settings: DEFAULT_SETTINGS, problem: 'Stored settings were not an object; defaults are in use.' };
  }
  const migrated = migrate(stored as Record<string, unknown>);
  const whole = settings.safeParse(migrated);
  if (whole.success) return { settings: whole.data, problem: null };
  // Keep every field that is still valid; replace only the broken ones.
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const key of Object.keys(settings.shape) as (keyof Settings)[]) {
    const field = settings.shape[key].safeParse(migrated[key]);
    if (field.success) merged[key] = field.data;
  }
  merged.version = SETTINGS_VERSION;
  const issue = whole.error.issues[0];
  return {
    settings: settings.parse(merged),
    problem: `Some stored settings were invalid (${issue?.path.join('.') || 'settings'}: ${issue?.message}); defaults are used for them.`,
  };
}

/** Loopback hosts may use plain HTTP (the local sandbox); everything else must be HTTPS. */
export function isLoopbackUrl(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]' || url.hostname.startsWith('127.');
}

export type BaseUrlCheck = { ok: true; baseUrl: string; origin: string } | { ok: false; error: string };

/** Normalises a typed base URL (no trailing slash) and refuses what the extension will not talk to. */
export function checkBaseUrl(text: string): BaseUrlCheck {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, error: 'Enter the API base URL, for example https://api.example.com.' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, error: `"${trimmed}" is not a URL. It should look like https://api.example.com.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, error: 'The API base URL must start with https://.' };
  }
  if (url.protocol === 'http:' && !isLoopbackUrl(url)) {
    return { ok: false, error: 'The API base URL must use HTTPS. Plain HTTP is allowed only for the local sandbox (127.0.0.1 or localhost).' };
  }
  if (url.username || url.password) return { ok: false, error: 'Put the API key in the API key field, not in the URL.' };
  const path = url.pathname.replace(/\/+$/, '');
  return { ok: true, baseUrl: `${url.origin}${path}`, origin: url.origin };
}

/** Masked key for display: never more than the last four characters. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '••••••••' : `••••••••${key.slice(-4)}`;
}

/** Pasted keys often carry spaces, quotes or a "Bearer " prefix: strip them, and refuse what cannot be a key. */
export function cleanApiKey(text: string): { ok: true; key: string } | { ok: false; error: string } {
  const key = text.trim().replace(/^Bearer\s+/i, '').replace(/^["']|["']$/g, '').trim();
  if (!key) return { ok: false, error: 'Paste your API key.' };
  if (/\s/.test(key)) return { ok: false, error: 'The API key cannot contain spaces or line breaks; check what was pasted.' };
  if (key.length < 8 || key.length > 512) return { ok: false, error: 'That does not look like an API key (it should be 8 to 512 characters).' };
  if (!/^[\x21-\x7e]+$/.test(key)) return { ok: false, error: 'The API key has characters that cannot be sent in a header; check what was pasted.' };
  return { ok: true, key };
}
