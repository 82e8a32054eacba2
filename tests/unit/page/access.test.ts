/**
 * Which page origins the browser is asked for and given back (lib/page/access.ts), and where the
 * content script may run: only where the user granted access (docs/security.md).
 */
import { describe, expect, it } from 'vitest';
import { accessChange, ALL_SITES, covers, grantedPlan, neededOrigins, scriptPlan } from '../../../lib/page/access';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/settings/schema';

const sites = (s: Partial<Settings['sites']>): Settings['sites'] => ({ ...DEFAULT_SETTINGS.sites, ...s });
const CRM = ['*://crm.example.com/*', '*://*.crm.example.com/*'];
const MAIL = ['*://mail.example.org/*', '*://*.mail.example.org/*'];

describe('click-to-call off', () => {
  it('needs no page and runs nowhere, whatever the rules', () => {
    for (const mode of ['everywhere', 'only-listed', 'except-listed'] as const) {
      const off = sites({ on: false, mode, listed: ['crm.example.com'] });
      expect(neededOrigins(off)).toEqual([]);
      expect(scriptPlan(off)).toBeNull();
    }
  });
});

describe('accessChange', () => {
  it('turning on for all sites asks for every page, and gives nothing back', () => {
    expect(accessChange(sites({ on: false }), sites({ on: true, mode: 'everywhere' }))).toEqual({ request: [ALL_SITES], remove: [] });
    expect(accessChange(sites({ on: false }), sites({ on: true, mode: 'except-listed', listed: ['bank.example'] }))).toEqual({ request: [ALL_SITES], remove: [] });
  });

  it('turning on for the listed sites asks for just those sites (and their subdomains)', () => {
    const change = accessChange(sites({ on: false }), sites({ on: true, mode: 'only-listed', listed: ['crm.example.com', 'mail.example.org'] }));
    expect(change).toEqual({ request: [...CRM, ...MAIL], remove: [] });
    expect(change.request).not.toContain(ALL_SITES);
  });

  it('removing a listed site gives its access back; adding one asks for it', () => {
    const before = sites({ on: true, mode: 'only-listed', listed: ['crm.example.com', 'mail.example.org'] });
    expect(accessChange(before, { ...before, listed: ['mail.example.org'] })).toEqual({ request: MAIL, remove: CRM });
    expect(accessChange({ ...before, listed: ['mail.example.org'] }, before)).toEqual({ request: [...CRM, ...MAIL], remove: [] });
  });

  it('all sites to listed sites gives every page back; listed to all sites gives the listed ones back', () => {
    const all = sites({ on: true, mode: 'everywhere', listed: ['crm.example.com'] });
    const listed = { ...all, mode: 'only-listed' as const };
    expect(accessChange(all, listed)).toEqual({ request: CRM, remove: [ALL_SITES] });
    expect(accessChange(listed, all)).toEqual({ request: [ALL_SITES], remove: CRM });
  });

  it('turning off gives back every page origin the extension could hold, and asks for none', () => {
    expect(accessChange(sites({ on: true, mode: 'only-listed', listed: ['crm.example.com'] }), sites({ on: false, mode: 'only-listed', listed: ['crm.example.com'] }))).toEqual({
      request: [],
      remove: [ALL_SITES, ...CRM],
    });
    // Off already (an upgrade that kept every page granted): off still gives it back.
    expect(accessChange(sites({ on: false }), sites({ on: false }))).toEqual({ request: [], remove: [ALL_SITES] });
  });

  it('pausing a site changes no access (its pages are excluded, and Resume needs no prompt)', () => {
    const before = sites({ on: true, mode: 'everywhere' });
    expect(accessChange(before, { ...before, paused: ['news.example'] })).toEqual({ request: [ALL_SITES], remove: [] });
  });
});

describe('grantedPlan', () => {
  it('registers the script only for origins the browser granted', () => {
    const plan = scriptPlan(sites({ on: true, mode: 'only-listed', listed: ['crm.example.com', 'mail.example.org'], paused: ['x.mail.example.org'] }));
    expect(grantedPlan(plan, (p) => MAIL.includes(p))).toEqual({ matches: MAIL, excludeMatches: ['*://x.mail.example.org/*', '*://*.x.mail.example.org/*'] });
    expect(grantedPlan(plan, () => false)).toBeNull();
    expect(grantedPlan(null, () => true)).toBeNull();
  });
});

describe('covers', () => {
  it('tells which grants a wider pattern takes along (the service origin given back with every page)', () => {
    expect(covers(ALL_SITES, 'https://api.example.com/*')).toBe(true);
    expect(covers(ALL_SITES, 'http://127.0.0.1/*')).toBe(true);
    expect(covers('*://*.example.com/*', 'https://api.example.com/*')).toBe(true);
    expect(covers('*://example.com/*', 'https://example.com/*')).toBe(true);
    expect(covers('*://crm.example.com/*', 'https://api.example.com/*')).toBe(false);
    expect(covers('*://*.crm.example.com/*', 'https://example.com/*')).toBe(false);
    expect(covers('https://*/*', 'http://127.0.0.1/*')).toBe(false);
    expect(covers('*://crm.example.com/*', ALL_SITES)).toBe(false);
  });
});
