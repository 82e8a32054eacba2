/**
 * Where click-to-call on pages runs, as match patterns, from the site rules: the content script is
 * registered for these (lib/background/page-scripts.ts) where the user granted them, and the same
 * patterns are what Options asks the browser for when click-to-call is turned on and gives back when
 * it is turned off (docs/security.md). Pure; no browser globals, so UI pages import it too.
 */
import type { Settings } from '../settings/schema';

/** Every http(s) page: an optional host permission, asked for when click-to-call is on for all sites. */
export const ALL_SITES = '*://*/*';

export interface ScriptPlan {
  matches: string[];
  excludeMatches: string[];
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Match patterns for a listed host and its subdomains (as `hostMatches` reads the list), or none
 * for an entry that is not a host name: one bad pattern would make the browser refuse them all.
 */
export function hostPatterns(entry: string): string[] {
  const host = entry.trim().toLowerCase().replace(/^\*\./, '');
  if (!host || host.length > 253 || !host.split('.').every((label) => LABEL.test(label))) return [];
  if (IPV4.test(host)) return [`*://${host}/*`];
  return [`*://${host}/*`, `*://*.${host}/*`];
}

const patternsOf = (hosts: string[]) => [...new Set(hosts.flatMap(hostPatterns))];

/** Where the content script should run under the site rules; null: nowhere (click-to-call off). Pure. */
export function scriptPlan(sites: Settings['sites']): ScriptPlan | null {
  if (!sites.on) return null;
  const paused = patternsOf(sites.paused);
  switch (sites.mode) {
    case 'only-listed': {
      const matches = patternsOf(sites.listed);
      return matches.length ? { matches, excludeMatches: paused } : null;
    }
    case 'except-listed':
      return { matches: [ALL_SITES], excludeMatches: patternsOf([...sites.listed, ...sites.paused]) };
    case 'everywhere':
      return { matches: [ALL_SITES], excludeMatches: paused };
  }
}

/** The origins these rules need the browser to grant: none while click-to-call is off. */
export function neededOrigins(sites: Settings['sites']): string[] {
  return scriptPlan(sites)?.matches ?? [];
}

/** The plan narrowed to the origins the browser granted (`held(pattern)`); null when none is. */
export function grantedPlan(plan: ScriptPlan | null, held: (pattern: string) => boolean): ScriptPlan | null {
  const matches = plan?.matches.filter(held) ?? [];
  return plan && matches.length ? { matches, excludeMatches: plan.excludeMatches } : null;
}

export interface AccessChange {
  /** Page origins to give back, before asking (a browser may drop narrower grants with a wider one). */
  remove: string[];
  /** Page origins to ask for; empty when the rules need none. */
  request: string[];
}

/**
 * What the browser is asked for and given back when the rules change from `before` to `after`:
 * turning on asks for the rules' origins (every page, or just the listed sites'); a change while on
 * gives back what the new rules no longer need; turning off gives back every page origin the
 * extension could hold (every page, and each listed site's), so none is kept by mistake.
 */
export function accessChange(before: Settings['sites'], after: Settings['sites']): AccessChange {
  const request = neededOrigins(after);
  const had = after.on ? neededOrigins(before) : [ALL_SITES, ...neededOrigins(before), ...patternsOf([...before.listed, ...after.listed])];
  return { remove: [...new Set(had)].filter((p) => !request.includes(p)), request };
}

const PATTERN = /^(\*|https?):\/\/(\*|(?:\*\.)?[^/*]+)\/\*$/;

/**
 * Whether granting `broad` grants `narrow` too (both `scheme://host/*` patterns). Chrome gives back
 * every grant a removed pattern covers, the service's origin included: see docs/security.md.
 */
export function covers(broad: string, narrow: string): boolean {
  const b = PATTERN.exec(broad);
  const n = PATTERN.exec(narrow);
  if (!b || !n) return false;
  const [, bScheme, bHost] = b as unknown as [string, string, string];
  const [, nScheme, nHost] = n as unknown as [string, string, string];
  if (bScheme !== '*' && bScheme !== nScheme) return false;
  if (bHost === '*') return true;
  if (nHost === '*') return false;
  if (bHost.startsWith('*.')) {
    const base = bHost.slice(2);
    const host = nHost.replace(/^\*\./, '');
    return host === base || host.endsWith(`.${base}`);
  }
  return bHost === nHost;
}
