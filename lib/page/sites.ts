/** Per-site rules: is click-to-call on for this host? Pure. */
import type { Settings } from '../settings/schema';

/** `crm.example.com` matches listed `example.com` and `*.example.com`. */
export function hostMatches(host: string, pattern: string): boolean {
  const h = host.toLowerCase();
  const p = pattern.trim().toLowerCase().replace(/^\*\./, '');
  if (!p) return false;
  return h === p || h.endsWith(`.${p}`);
}

export function isEnabledOn(host: string, sites: Settings['sites']): boolean {
  if (!host || !sites.on) return false;
  if (sites.paused.some((p) => hostMatches(host, p))) return false;
  const listed = sites.listed.some((p) => hostMatches(host, p));
  if (sites.mode === 'only-listed') return listed;
  if (sites.mode === 'except-listed') return !listed;
  return true;
}

/** The per-site countries with `host`'s set to `country` ('' removes it). Hosts are kept lowercase. */
export function siteCountries(countries: Record<string, string>, host: string, country: string): Record<string, string> {
  const key = host.trim().toLowerCase();
  const next = { ...countries };
  if (country) next[key] = country;
  else delete next[key];
  return next;
}

export function countryFor(host: string, settings: Pick<Settings, 'defaultCountry' | 'sites'>): string {
  const override = Object.entries(settings.sites.countries).find(([pattern]) => hostMatches(host, pattern));
  return override?.[1] ?? settings.defaultCountry;
}
