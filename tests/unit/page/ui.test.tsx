// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { dialSearch, OnThisPage, tabFromSearch } from '../../../components/page/OnThisPage';
import { parseHostList, SitesSettings } from '../../../components/settings/SitesSettings';
import type { SettingsView, TabNumbersView } from '../../../lib/messages';

type Request = { type: string; [k: string]: unknown };

function background(answer: (r: Request) => unknown) {
  const requests: Request[] = [];
  fakeBrowser.runtime.onMessage.addListener(((message: Request, _s: unknown, sendResponse: (r: unknown) => void) => {
    requests.push(message);
    const data = answer(message);
    if (data === undefined) return undefined;
    sendResponse({ ok: true, data });
    return true;
  }) as never);
  return requests;
}

function settingsView(sites: Partial<SettingsView['sites']> = {}): SettingsView {
  return {
    baseUrl: 'http://127.0.0.1:8787',
    defaultCountry: 'US',
    rememberKey: true,
    hasKey: true,
    keyHint: '••••wner',
    keyOrigin: 'http://127.0.0.1:8787',
    otherKeyOrigins: [],
    sites: { on: true, mode: 'everywhere', listed: [], paused: [], countries: {}, ...sites },
    startCallsNow: false,
    problem: null,
  };
}

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

describe('On this page', () => {
  const view = (over: Partial<TabNumbersView> = {}): TabNumbersView => ({
    tabId: 7,
    host: 'crm.example.com',
    numbers: [
      { raw: '(415) 555-0132', e164: '+14155550132' },
      { raw: '+44 20 7946 0958', e164: '+442079460958' },
    ],
    total: 2,
    enabled: true,
    country: 'US',
    siteCountry: null,
    ...over,
  });

  it('lists the tab’s numbers as written and as E.164, for the tab in ?tab=', async () => {
    const requests = background((r) => (r.type === 'page/numbers-for-tab' ? view() : undefined));
    render(<OnThisPage search="?tab=7" />);
    expect(await screen.findByRole('heading', { name: 'On this page' })).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Phone numbers on crm.example.com' });
    expect(list.textContent).toContain('(415) 555-0132');
    expect(list.textContent).toContain('+14155550132');
    expect(screen.getAllByRole('button', { name: /^Call / })).toHaveLength(2);
    expect(requests[0]).toEqual({ type: 'page/numbers-for-tab', tabId: 7 });
  });

  it('asks for the active tab without ?tab=, and renders nothing for pages it cannot read', async () => {
    const requests = background(() => ({ tabId: 3, host: '', numbers: [], enabled: false }));
    const { container } = render(<OnThisPage search="" />);
    await waitFor(() => expect(requests).toEqual([{ type: 'page/numbers-for-tab' }]));
    expect(container.textContent).toBe('');
  });

  it('pauses and resumes the site', async () => {
    let enabled = true;
    const requests = background((r) => {
      if (r.type === 'page/numbers-for-tab') return view({ enabled });
      if (r.type === 'sites/update') {
        enabled = !r.pause;
        return settingsView({ paused: r.pause ? ['crm.example.com'] : [] });
      }
      return undefined;
    });
    render(<OnThisPage search="?tab=7" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Pause on this site' }));
    expect(await screen.findByRole('button', { name: 'Resume on this site' })).toBeTruthy();
    expect(screen.getByText('Click-to-call is off on crm.example.com.')).toBeTruthy();
    expect(requests).toContainEqual({ type: 'sites/update', pause: 'crm.example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Resume on this site' }));
    expect(await screen.findByRole('button', { name: 'Pause on this site' })).toBeTruthy();
    expect(requests).toContainEqual({ type: 'sites/update', resume: 'crm.example.com' });
  });

  it('click-to-call on pages switched off: says where to turn it on, and offers no pause or resume', async () => {
    background((r) => (r.type === 'page/numbers-for-tab' ? view({ enabled: false, pagesOn: false, numbers: [] }) : undefined));
    render(<OnThisPage search="?tab=7" />);
    expect(await screen.findByText('Click-to-call on pages is off: turn it on in the options, under Sites.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /on this site/ })).toBeNull();
  });

  it('says how many the page holds when the list is capped, and narrows the list by digits or text', async () => {
    const numbers = Array.from({ length: 500 }, (_, i) => ({ raw: `(415) 555-${String(i).padStart(4, '0')}`, e164: `+1415555${String(i).padStart(4, '0')}` }));
    numbers[3] = { raw: '+44 20 7946 0958', e164: '+442079460958' };
    background((r) => (r.type === 'page/numbers-for-tab' ? view({ numbers, total: 5000 }) : undefined));
    render(<OnThisPage search="?tab=7" />);
    expect(await screen.findByText('Showing 500 of 5,000 numbers')).toBeTruthy();
    const filter = screen.getByRole('searchbox', { name: 'Filter numbers' });
    fireEvent.input(filter, { target: { value: '7946' } });
    expect(await screen.findByText('Showing 1 of 5,000 numbers')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Call / }).map((b) => b.getAttribute('aria-label'))).toEqual(['Call +44 20 7946 0958']);
    fireEvent.input(filter, { target: { value: '(415) 555-001' } });
    expect(screen.getAllByRole('button', { name: /^Call / })).toHaveLength(10);
    fireEvent.input(filter, { target: { value: '+44 20' } });
    expect(screen.getAllByRole('button', { name: /^Call / })).toHaveLength(1);
    fireEvent.input(filter, { target: { value: '' } });
    expect(screen.getAllByRole('button', { name: /^Call / })).toHaveLength(500);
  });

  it('a short uncapped list says its count and has no filter', async () => {
    background((r) => (r.type === 'page/numbers-for-tab' ? view() : undefined));
    render(<OnThisPage search="?tab=7" />);
    expect(await screen.findByText('2 numbers')).toBeTruthy();
    expect(screen.queryByRole('searchbox', { name: 'Filter numbers' })).toBeNull();
  });

  it('sets and clears the site’s own default country', async () => {
    let siteCountry: string | null = null;
    const requests = background((r) => {
      if (r.type === 'page/numbers-for-tab') return view({ siteCountry, country: siteCountry ?? 'US' });
      if (r.type === 'sites/update') {
        siteCountry = (r as { country?: { country: string } }).country?.country || null;
        return settingsView();
      }
      return undefined;
    });
    render(<OnThisPage search="?tab=7" />);
    const select = (await screen.findByRole('combobox', { name: 'Country for numbers on crm.example.com' })) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(select.options[0]!.textContent).toBe('Default (United States)');
    fireEvent.change(select, { target: { value: 'BR' } });
    await waitFor(() => expect(requests).toContainEqual({ type: 'sites/update', country: { host: 'crm.example.com', country: 'BR' } }));
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Country for numbers on crm.example.com' }) as HTMLSelectElement).value).toBe('BR'));
    fireEvent.change(screen.getByRole('combobox', { name: 'Country for numbers on crm.example.com' }), { target: { value: '' } });
    await waitFor(() => expect(requests).toContainEqual({ type: 'sites/update', country: { host: 'crm.example.com', country: '' } }));
  });

  it('builds the popup’s own confirmation URL for a number', () => {
    expect(tabFromSearch('?tab=12')).toBe(12);
    expect(tabFromSearch('?tab=x')).toBeUndefined();
    const params = new URLSearchParams(dialSearch('+14155550132', '?tab=12', 'agent-1'));
    expect(params.get('dial')).toBe('+14155550132');
    expect(params.get('tab')).toBe('12');
    expect(params.get('agent')).toBe('agent-1');
    expect(new URLSearchParams(dialSearch('+14155550132', '')).has('agent')).toBe(false);
  });
});

describe('Sites settings', () => {
  it('reads hosts from lines, URLs and wildcards, and reports what it cannot read', () => {
    expect(parseHostList('crm.example.com\nhttps://Mail.Example.com:8443/inbox?x=1, *.salesforce.com\n\n crm.example.com ')).toEqual({
      hosts: ['crm.example.com', 'mail.example.com', '*.salesforce.com'],
      invalid: [],
    });
    expect(parseHostList('not a host\nfoo..bar\nok.test').invalid).toEqual(['not a host', 'foo..bar']);
  });

  it('sets, changes and removes a site’s own country; refuses a host it cannot read', async () => {
    let current = settingsView({ countries: { 'crm.example.com': 'BR' } });
    const requests = background((r) => {
      if (r.type === 'settings/get') return current;
      if (r.type === 'sites/update') {
        const { host, country } = (r as unknown as { country: { host: string; country: string } }).country;
        const countries = { ...current.sites.countries };
        if (country) countries[host] = country;
        else delete countries[host];
        current = settingsView({ countries });
        return current;
      }
      return undefined;
    });
    render(<SitesSettings />);
    const brazil = (await screen.findByRole('combobox', { name: 'Country for crm.example.com' })) as HTMLSelectElement;
    expect(brazil.value).toBe('BR');
    fireEvent.change(brazil, { target: { value: 'MX' } });
    await screen.findByText('Numbers on crm.example.com are read as Mexico numbers.');
    expect(requests).toContainEqual({ type: 'sites/update', country: { host: 'crm.example.com', country: 'MX' } });

    fireEvent.input(screen.getByLabelText('Site'), { target: { value: 'not a host' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set country' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Write one host');
    fireEvent.input(screen.getByLabelText('Site'), { target: { value: 'https://Mail.Example.com/inbox' } });
    fireEvent.change(screen.getByLabelText('Country'), { target: { value: 'DE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set country' }));
    expect(((await screen.findByRole('combobox', { name: 'Country for mail.example.com' })) as HTMLSelectElement).value).toBe('DE');

    fireEvent.click(screen.getByRole('button', { name: 'Use the default country on crm.example.com' }));
    await screen.findByText('crm.example.com uses the default country again.');
    expect(screen.queryByRole('combobox', { name: 'Country for crm.example.com' })).toBeNull();
  });

  it('shows the stored mode, list and paused sites; applies changes; resumes a paused site', async () => {
    // Click-to-call off: rules are saved with no access asked (tests/unit/ui/sites-access.test.tsx: on).
    let current = settingsView({ on: false, mode: 'except-listed', listed: ['mail.example.com'], paused: ['crm.example.com'] });
    const requests = background((r) => {
      if (r.type === 'settings/get') return current;
      if (r.type === 'sites/update') {
        const s = current.sites;
        current = settingsView({
          on: false,
          mode: (r.mode as never) ?? s.mode,
          listed: (r.listed as string[]) ?? s.listed,
          paused: r.resume ? s.paused.filter((h) => h !== r.resume) : s.paused,
        });
        return current;
      }
      return undefined;
    });
    render(<SitesSettings />);
    expect(screen.getByRole('heading', { name: 'Sites' })).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Everywhere except the sites listed below') as HTMLInputElement).checked).toBe(true));
    expect((screen.getByLabelText('Listed sites') as HTMLTextAreaElement).value).toBe('mail.example.com');

    fireEvent.click(screen.getByLabelText('Only on the sites listed below'));
    fireEvent.input(screen.getByLabelText('Listed sites'), { target: { value: 'mail.example.com\nbad host' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply site settings' }));
    expect((await screen.findByRole('alert')).textContent).toContain('bad host');

    fireEvent.input(screen.getByLabelText('Listed sites'), { target: { value: 'mail.example.com\n*.hubspot.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply site settings' }));
    await screen.findByText(/Site settings applied/);
    expect(requests).toContainEqual({ type: 'sites/update', mode: 'only-listed', listed: ['mail.example.com', '*.hubspot.com'] });

    fireEvent.click(screen.getByRole('button', { name: 'Resume on crm.example.com' }));
    await screen.findByText('Resumed on crm.example.com.');
    expect(requests).toContainEqual({ type: 'sites/update', resume: 'crm.example.com' });
    expect(screen.queryByRole('button', { name: 'Resume on crm.example.com' })).toBeNull();
  });
});
