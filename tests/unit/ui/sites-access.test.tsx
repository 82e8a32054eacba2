// @vitest-environment happy-dom
/**
 * Options → Sites, click-to-call on pages: access to pages is asked for from the click that turns it
 * on (every site, or just the listed sites), saved on only once granted, given back when it is turned
 * off or a site is removed; a refusal leaves it off and says why (docs/security.md).
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { SitesSettings } from '../../../components/settings/SitesSettings';
import type { SettingsView, UiRequest } from '../../../lib/messages';
import { covers } from '../../../lib/page/access';
import { fakeBackground, ok, settingsView } from './helpers';

const ALL = '*://*/*';
const CRM = ['*://crm.example.com/*', '*://*.crm.example.com/*'];
const MAIL = ['*://mail.example.org/*', '*://*.mail.example.org/*'];
const SERVICE = 'http://127.0.0.1/*';

/** The browser's grants, as Chrome keeps them: contains by coverage; remove takes covered grants along. */
function fakePermissions(initial: string[], answer: () => boolean | Promise<boolean> | Error = () => true) {
  const held = new Set(initial);
  const calls: ['request' | 'remove', string[]][] = [];
  fakeBrowser.permissions.contains = (async ({ origins }: { origins: string[] }) => origins.every((o) => [...held].some((h) => covers(h, o)))) as never;
  fakeBrowser.permissions.request = vi.fn(({ origins }: { origins: string[] }) => {
    calls.push(['request', origins]);
    const a = answer();
    if (a instanceof Error) throw a;
    return Promise.resolve(a).then((yes) => {
      if (yes) origins.forEach((o) => held.add(o));
      return yes;
    });
  }) as never;
  fakeBrowser.permissions.remove = vi.fn(async ({ origins }: { origins: string[] }) => {
    calls.push(['remove', origins]);
    for (const h of [...held]) if (origins.some((o) => covers(o, h))) held.delete(h);
    return true;
  }) as never;
  return { held, calls };
}

/** A background that keeps the sites rules as `sites/update` sets them. */
function background(sites: Partial<SettingsView['sites']>) {
  let current = settingsView({ sites: { ...settingsView().sites, ...sites } });
  const { requests } = fakeBackground((r: UiRequest) => {
    if (r.type === 'settings/get') return ok(current);
    if (r.type === 'sites/update') {
      const { type: _t, ...change } = r;
      current = { ...current, sites: { ...current.sites, ...(change as Partial<SettingsView['sites']>) } };
      return ok(current);
    }
    return undefined;
  });
  return { requests: requests as UiRequest[], current: () => current };
}

const onSwitch = () => screen.getByRole('switch', { name: 'Click-to-call on pages' }) as HTMLInputElement;
const updates = (requests: UiRequest[]) => requests.filter((r) => r.type === 'sites/update');

async function rendered() {
  render(<SitesSettings />);
  await waitFor(() => expect(onSwitch().disabled).toBe(false));
}

beforeEach(() => fakeBrowser.reset());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('turning click-to-call on', () => {
  it('for all sites: asks the browser for every page from the click, and saves it on once granted', async () => {
    const { held, calls } = fakePermissions([SERVICE]);
    const { requests, current } = background({ on: false, mode: 'everywhere' });
    await rendered();
    expect(onSwitch().checked).toBe(false);
    fireEvent.click(onSwitch());
    await screen.findByText('Click-to-call on pages is on. The browser gave access to every site.');
    expect(calls).toEqual([['request', [ALL]]]);
    expect(held.has(ALL)).toBe(true);
    expect(updates(requests)).toEqual([{ type: 'sites/update', mode: 'everywhere', listed: [], on: true }]);
    expect(current().sites.on).toBe(true);
    expect(onSwitch().checked).toBe(true);
  });

  it('for the listed sites only: asks for just those sites, never every page', async () => {
    const { calls } = fakePermissions([SERVICE]);
    const { requests } = background({ on: false, mode: 'only-listed', listed: ['crm.example.com', 'mail.example.org'] });
    await rendered();
    fireEvent.click(onSwitch());
    await screen.findByText('Click-to-call on pages is on. The browser gave access to crm.example.com, mail.example.org.');
    expect(calls).toEqual([['request', [...CRM, ...MAIL]]]);
    expect(updates(requests)).toEqual([{ type: 'sites/update', mode: 'only-listed', listed: ['crm.example.com', 'mail.example.org'], on: true }]);
  });

  it('refused: the setting stays off and the page says why', async () => {
    const { held } = fakePermissions([SERVICE], () => false);
    const { requests, current } = background({ on: false, mode: 'everywhere' });
    await rendered();
    fireEvent.click(onSwitch());
    const alert = await screen.findByText(/did not give access to every site, so click-to-call on pages stays off/);
    expect(alert.closest('[role="alert"]')).not.toBeNull();
    expect(held.has(ALL)).toBe(false);
    expect(updates(requests).every((r) => r.type === 'sites/update' && r.on === false)).toBe(true);
    expect(current().sites.on).toBe(false);
    expect(onSwitch().checked).toBe(false);
  });

  it('a browser that cannot ask: stays off, with the browser’s reason', async () => {
    fakePermissions([SERVICE], () => new Error('permissions.request may only be called from a user input handler'));
    const { current } = background({ on: false, mode: 'everywhere' });
    await rendered();
    fireEvent.click(onSwitch());
    await screen.findByText(/could not ask for access to pages \(permissions.request may only be called from a user input handler\)/);
    expect(current().sites.on).toBe(false);
  });
});

describe('turning click-to-call off', () => {
  it('gives every page origin back and saves it off', async () => {
    const { held, calls } = fakePermissions(['https://api.example.com/*', ALL]);
    const { requests } = background({ on: true, mode: 'everywhere' });
    await rendered();
    fireEvent.click(onSwitch());
    await screen.findByText('Click-to-call on pages is off, and the access to pages was given back.');
    expect(calls[0]).toEqual(['remove', [ALL]]);
    expect(held.has(ALL)).toBe(false);
    expect(updates(requests)).toEqual([{ type: 'sites/update', on: false }]);
    expect(onSwitch().checked).toBe(false);
  });

  it('asks again, in the same click, for the service’s origin when the browser took it back with every page', async () => {
    let answerService: (yes: boolean) => void = () => undefined;
    const { calls } = fakePermissions([SERVICE, ALL], () => new Promise<boolean>((resolve) => (answerService = resolve)));
    background({ on: true, mode: 'everywhere' });
    await rendered();
    fireEvent.click(onSwitch());
    await screen.findByText('Click-to-call on pages is off, and the access to pages was given back.');
    expect(calls).toEqual([['remove', [ALL]], ['request', [SERVICE]]]);
    // While the browser asks: the page says why.
    expect(screen.getByText(/gives back access to http:\/\/127.0.0.1:8787 together with access to pages/)).toBeTruthy();
    answerService(false);
    // Refused: calls need it, and a button asks again.
    await screen.findByText('Calls need access to http://127.0.0.1:8787, which the browser does not give now.');
    expect(screen.getByRole('button', { name: 'Allow http://127.0.0.1:8787' })).toBeTruthy();
  });
});

describe('changing the rules while on', () => {
  it('removing a listed site gives its access back; the others stay', async () => {
    const { held, calls } = fakePermissions([SERVICE, ...CRM, ...MAIL]);
    const { requests } = background({ on: true, mode: 'only-listed', listed: ['crm.example.com', 'mail.example.org'] });
    await rendered();
    fireEvent.input(screen.getByLabelText('Listed sites'), { target: { value: 'mail.example.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply site settings' }));
    await screen.findByText('Click-to-call on pages is on. The browser gave access to mail.example.org.');
    expect(calls).toEqual([['remove', CRM], ['request', MAIL]]);
    expect([...held].sort()).toEqual([SERVICE, ...MAIL].sort());
    expect(updates(requests)).toEqual([{ type: 'sites/update', mode: 'only-listed', listed: ['mail.example.org'], on: true }]);
  });

  it('on, but the browser does not give the access (an update that kept none, or taken back in its settings): says so, and asks on a click', async () => {
    const { held } = fakePermissions([SERVICE]);
    background({ on: true, mode: 'everywhere' });
    await rendered();
    await screen.findByText('Click-to-call on pages is on, but the browser does not give access to every site: it does not run there.');
    fireEvent.click(screen.getByRole('button', { name: 'Allow access' }));
    await waitFor(() => expect(screen.queryByText(/does not give access to every site/)).toBeNull());
    expect(held.has(ALL)).toBe(true);
  });
});
