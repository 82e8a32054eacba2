// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '../../../entrypoints/options/App';
import { SidePanelApp } from '../../../entrypoints/sidepanel/App';
import { callStore } from '../../../lib/background/call-store';
import { loadSettings } from '../../../lib/background/settings-store';
import { SETTINGS_VERSION } from '../../../lib/settings/schema';
import { agentsCache, callRecord, fakeBackground, keyState, ok, renderWithStore, seedData, settingsView } from './helpers';

beforeEach(async () => {
  fakeBrowser.reset();
  await seedData({ 'ui.keyState': keyState(true), 'agents.cache': agentsCache() });
  fakeBackground((r) => (r.type === 'settings/get' ? ok(settingsView()) : r.type === 'agents/list' ? ok({ ...agentsCache(), refreshError: null }) : ok(null)));
});
afterEach(cleanup);

describe('kept-aside data is said plainly, not lost', () => {
  it('side panel history: a call that could not be read is reported (also while the panel is open); the readable ones are listed', async () => {
    const broken = { ...callRecord({ id: 'broken' }), step: 'teleporting' };
    await seedData({ calls: { version: 2, calls: [callRecord({ id: 'good', toNumber: '+14155550199', step: 'finished', status: 'completed' }), broken] } });
    await renderWithStore(<SidePanelApp search="" />);
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    expect(screen.queryByRole('region', { name: 'Stored call history kept aside' })).toBeNull();

    // The background reads the history (as on every poll): the broken record goes to the quarantine.
    await act(async () => void (await callStore.list()));
    const notice = await screen.findByRole('region', { name: 'Stored call history kept aside' });
    expect(notice.textContent).toMatch(/Some stored call history could not be read. It is kept aside, untouched: nothing was deleted./);
    expect(notice.textContent).toMatch(/A stored call could not be read \(step:/);
    expect(screen.getByText('+14155550199')).toBeTruthy();
  });

  it('side panel history: a history from a newer version is reported, and a copy can be saved', async () => {
    const future = { version: 7, calls: [{ id: 'from-the-future' }] };
    await seedData({ calls: future });
    await callStore.list();
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => (blobs.push(blob as Blob), 'blob:kept'));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await renderWithStore(<SidePanelApp search="" />);
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    const notice = await screen.findByRole('region', { name: 'Stored call history kept aside' });
    expect(notice.textContent).toMatch(/newer version \(7\)/);
    fireEvent.click(within(notice).getByRole('button', { name: 'Save a copy' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(JSON.parse(await blobs[0]!.text())).toEqual([expect.objectContaining({ source: 'calls', value: future })]);
    vi.restoreAllMocks();
  });

  it('options page: settings that could not be read are reported', async () => {
    await fakeBrowser.storage.local.set({ settings: { version: SETTINGS_VERSION + 1, baseUrl: 'https://api.example.com' } });
    await loadSettings();
    await renderWithStore(<OptionsApp />);
    const notice = await screen.findByRole('region', { name: 'Stored settings kept aside' });
    expect(notice.textContent).toMatch(/Some stored settings could not be read. It is kept aside/);
    expect(notice.textContent).toMatch(/newer version of the extension/);
  });
});
