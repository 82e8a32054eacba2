/**
 * Where click-to-call on pages runs, as match patterns, from the site rules: the content script is
 * registered for these (lib/background/page-scripts.ts). Pure; no browser globals.
 */
import type { Settings } from '../settings/schema';

/** Every http(s) page; the host permission the manifest asks for. */
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

/** Where the content script should run under the site rules; null: nowhere. Pure. */
export function scriptPlan(sites: Settings['sites']): ScriptPlan | null {
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
