// @vitest-environment happy-dom
/**
 * No page origin is granted at install: click-to-call on pages runs only where the user allowed it,
 * and the options page asks for exactly the origins the site rules need.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PageAccess } from '../../../components/PageAccess';
import { ALL_SITES, pageOrigins } from '../../../lib/page/access';
import type { SettingsView } from '../../../lib/messages';
import { fakeBackground, ok, settingsView } from './helpers';

const sites = (over: Partial<SettingsView['sites']> & { countries?: Record<string, string> }) => ({
  mode: 'everywhere' as const,
  listed: [],
  paused: [],
  countries: {},
  ...over,
});

describe('pageOrigins: the origins the site rules need', () => {
  it('everywhere, and everywhere but some sites, need every site', () => {
    expect(pageOrigins(sites({}))).toEqual([ALL_SITES]);
    expect(pageOrigins(sites({ mode: 'except-listed', listed: ['bank.example'] }))).toEqual([ALL_SITES]);
  });

  it('only listed sites need those hosts and their subdomains, nothing else; none listed needs none', () => {
    expect(pageOrigins(sites({ mode: 'only-listed', listed: ['crm.example.com', '10.0.0.7'] }))).toEqual([
      '*://crm.example.com/*',
      '*://*.crm.example.com/*',
      '*://10.0.0.7/*',
    ]);
    expect(pageOrigins(sites({ mode: 'only-listed', listed: [] }))).toEqual([]);
    expect(pageOrigins(sites({ mode: 'only-listed', listed: ['not a host!'] }))).toEqual([]);
  });
});

describe('PageAccess (options)', () => {
  let granted: Set<string>;
  let request: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    fakeBrowser.reset();
    granted = new Set();
    fakeBrowser.permissions.contains = (async ({ origins = [] }: { origins?: string[] }) => origins.every((o) => granted.has(o))) as never;
    request = vi.fn(async ({ origins = [] }: { origins?: string[] }) => {
      origins.forEach((o) => granted.add(o));
      return true;
    });
    fakeBrowser.permissions.request = request as never;
  });
  afterEach(() => cleanup());

  it('asks for exactly the listed sites, from the button, and then says they are allowed', async () => {
    fakeBackground(() => ok(settingsView({ sites: { mode: 'only-listed', listed: ['crm.example.com'], paused: [] } })));
    render(<PageAccess />);
    expect(await screen.findByText(/needs your permission to read crm\.example\.com/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Allow access' }));
    expect(await screen.findByText('Click-to-call may run on crm.example.com.')).toBeTruthy();
    expect(request).toHaveBeenCalledWith({ origins: ['*://crm.example.com/*', '*://*.crm.example.com/*'] });
  });

  it('a refusal is said plainly and the button stays', async () => {
    request.mockResolvedValueOnce(false);
    fakeBackground(() => ok(settingsView()));
    render(<PageAccess />);
    fireEvent.click(await screen.findByRole('button', { name: 'Allow access' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Access was not granted: click-to-call stays off on pages until you allow it.');
    expect(screen.getByRole('button', { name: 'Allow access' })).toBeTruthy();
    expect(request).toHaveBeenCalledWith({ origins: [ALL_SITES] });
  });

  it('already granted: no button, says where it runs', async () => {
    granted.add(ALL_SITES);
    fakeBackground(() => ok(settingsView()));
    render(<PageAccess />);
    expect(await screen.findByText('Click-to-call may run on every site.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow access' })).toBeNull();
  });
});
