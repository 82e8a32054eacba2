/**
 * User settings as stored (storage.local: content scripts need the site and country rules), versioned.
 * Reading never throws: a stored value that does not parse falls back to defaults (field by field
 * where possible), the problem is reported, and the value as found is handed back as `keepAside` for
 * the settings store to quarantine before any save replaces it. A value from a newer version is not
 * guessed at: defaults are used and the value is kept aside whole.
 */
import { z } from '../zod';
import { t } from '../i18n';
import { SANDBOX_BASE_URL } from './checks';

export * from './checks';

export const SETTINGS_VERSION = 3;

export const siteMode = z.enum(['everywhere', 'only-listed', 'except-listed']);
export type SiteMode = z.infer<typeof siteMode>;

const country = z.string().regex(/^[A-Z]{2}$/);

export const settings = z.object({
  version: z.literal(SETTINGS_VERSION),
  baseUrl: z.string().url(),
  defaultCountry: country,
  rememberKey: z.boolean(),
  /** Start calls at once with `POST /call` where the service offers it (else the single-call batch). Version 2. */
  startCallsNow: z.boolean(),
  sites: z.object({
    /**
     * Click-to-call on pages, on or off (version 3). On only once the browser granted the pages'
     * origins (Options asks); the content script runs only where they are granted.
     */
    on: z.boolean(),
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
  startCallsNow: false,
  // Off at install: no page is granted until the user turns click-to-call on (docs/security.md).
  sites: { on: false, mode: 'everywhere', listed: [], paused: [], countries: {} },
};

export interface SettingsRead {
  settings: Settings;
  /** Why stored settings were (partly) replaced by defaults, if they were. */
  problem: string | null;
  /** The stored value as found, when it could not be used as it is: to be kept aside untouched. */
  keepAside?: { reason: string; value: unknown };
}

/**
 * Older shapes → current, one version at a time. Version 0 is the unversioned first draft (`apiBaseUrl`,
 * `country`); version 2 added `startCallsNow` (off: calls go out as single-call batches, as before);
 * version 3 added `sites.on`: on for settings saved before it, as click-to-call on pages was (the
 * browser keeps access it granted at install across the update; where it did not, the content script
 * runs nowhere and Options shows what to allow).
 */
function migrate(raw: Record<string, unknown>): Record<string, unknown> {
  let value = raw;
  if (value.version === undefined) {
    const { apiBaseUrl, country: c, ...rest } = value;
    value = { ...rest, version: 1, baseUrl: rest.baseUrl ?? apiBaseUrl, defaultCountry: rest.defaultCountry ?? c };
  }
  if (value.version === 1) value = { ...value, version: 2, startCallsNow: value.startCallsNow ?? false };
  if (value.version === 2) {
    const sites = value.sites;
    value = { ...value, version: 3, sites: sites && typeof sites === 'object' && !Array.isArray(sites) ? { on: true, ...sites } : sites };
  }
  return value;
}

export function readSettings(stored: unknown): SettingsRead {
  if (stored === undefined || stored === null) return { settings: DEFAULT_SETTINGS, problem: null };
  if (typeof stored !== 'object' || Array.isArray(stored)) {
    const problem = t('settings_storedNotObject');
    return { settings: DEFAULT_SETTINGS, problem, keepAside: { reason: problem, value: stored } };
  }
  const version = (stored as Record<string, unknown>).version;
  if (typeof version === 'number' && version > SETTINGS_VERSION) {
    const problem = t('settings_storedNewer', version);
    return { settings: DEFAULT_SETTINGS, problem, keepAside: { reason: problem, value: stored } };
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
  const problem = t('settings_storedInvalid', issue?.path.join('.') || 'settings', String(issue?.message));
  return { settings: settings.parse(merged), problem, keepAside: { reason: problem, value: stored } };
}
