// @vitest-environment happy-dom
/**
 * A confirmation opened from outside the popup (popup.html?dial=…, from a page, the context menu or
 * the shortcut) cannot be confirmed by a keystroke or click aimed at the page: focus starts on the
 * dialog, Confirm is disabled until the window has been shown a moment, and it names the site that
 * asked, as the background read it from the browser (the `site` parameter), never page text.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { CONFIRM_ARM_MS } from '../../../components/calls/DialConfirmation';
import { DialForm } from '../../../components/calls/DialForm';
import { PopupApp, requestOrigin } from '../../../entrypoints/popup/App';
import type { UiRequest } from '../../../lib/messages';
import { createUiStore, StoreContext } from '../../../lib/ui/store';
import { AGENT_ID, agentsCache, fakeBackground, keyState, ok, renderWithStore, seedData } from './helpers';

function background() {
  const { requests } = fakeBackground((request) => {
    switch (request.type) {
      case 'agents/list':
        return ok({ ...agentsCache(), refreshError: null });
      case 'phone-numbers/list':
        return ok([]);
      case 'call/dial':
        return ok({ callId: 'call-1' });
      default:
        return ok(null);
    }
  });
  return { dials: () => requests.filter((r: UiRequest) => r.type === 'call/dial') };
}

/**
 * With the clock faked, waits for `find` to succeed by stepping the fake clock 10 ms at a time (the
 * store, the number check and the agent list settle on timers), so the arming timer has run at
 * most 10 ms when the dialog is found.
 */
async function stepUntil<T>(find: () => T): Promise<T> {
  for (let i = 0; i < 500; i++) {
    try {
      return find();
    } catch {
      await act(async () => void (await vi.advanceTimersByTimeAsync(10)));
    }
  }
  return find();
}

function renderFaked(ui: preact.ComponentChildren) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  const store = createUiStore();
  render(<StoreContext.Provider value={store}>{ui}</StoreContext.Provider>);
}

const confirmButton = () => screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
const search = (extra = '') => `?dial=%2B14155550132&agent=${AGENT_ID}&country=US${extra}`;

beforeEach(async () => {
  fakeBrowser.reset();
  await seedData({ 'ui.keyState': keyState(true), 'agents.cache': agentsCache() });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('a confirmation a page asked for', () => {
  it('starts with focus on the dialog and Confirm disabled: Enter and clicks at once dial nothing', async () => {
    const { dials } = background();
    renderFaked(<PopupApp search={search('&site=crm.example.com&source=tel-link')} />);
    const dialog = await stepUntil(() => screen.getByRole('dialog', { name: 'Place this call?' }));
    expect(document.activeElement).toBe(dialog);
    expect(confirmButton().disabled).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Enter' });
    fireEvent.click(confirmButton());
    await act(async () => void vi.advanceTimersByTime(CONFIRM_ARM_MS - 100));
    expect(confirmButton().disabled).toBe(true);
    fireEvent.click(confirmButton());
    expect(dials()).toEqual([]);

    await act(async () => void vi.advanceTimersByTime(150));
    expect(confirmButton().disabled).toBe(false);
    // Armed, but still not focused: only a deliberate click or Tab reaches it.
    expect(document.activeElement).toBe(dialog);
    vi.useRealTimers();
    fireEvent.click(confirmButton());
    await waitFor(() => expect(dials()).toHaveLength(1));
  });

  it('time the window spends hidden does not count towards arming', async () => {
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    try {
      background();
      renderFaked(<PopupApp search={search('&site=crm.example.com&source=overlay')} />);
      await stepUntil(() => screen.getByRole('dialog'));
      await act(async () => void vi.advanceTimersByTime(CONFIRM_ARM_MS * 5));
      expect(confirmButton().disabled).toBe(true);
      visibility.mockReturnValue('visible');
      document.dispatchEvent(new Event('visibilitychange'));
      await act(async () => void vi.advanceTimersByTime(CONFIRM_ARM_MS / 2));
      expect(confirmButton().disabled).toBe(true);
      await act(async () => void vi.advanceTimersByTime(CONFIRM_ARM_MS));
      expect(confirmButton().disabled).toBe(false);
    } finally {
      visibility.mockRestore();
    }
  });

  it('names the site that asked, and the top page when a frame on another host asked', async () => {
    background();
    await renderWithStore(<PopupApp search={search('&site=widgets.example.net&top=crm.example.com&source=overlay')} />);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.querySelector('.asked-by')?.textContent).toBe('Asked by widgets.example.net (a frame on crm.example.com) through its call button.');
  });

  it('a frame with no site of its own is "a frame inside" the top page', async () => {
    background();
    await renderWithStore(<PopupApp search={search('&inside=crm.example.com&source=tel-link')} />);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.querySelector('.asked-by')?.textContent).toBe('Asked by a frame inside crm.example.com through a phone link.');
    expect(requestOrigin('?inside=crm.example.com&source=overlay')).toEqual({ site: '', topSite: 'crm.example.com', opaqueFrame: true, source: 'overlay' });
    // Not a host name: the frame is still not named after anything the URL says.
    expect(requestOrigin('?inside=%3Cb%3Ebank%3C%2Fb%3E&site=bank.example&source=overlay')).toEqual({ site: '', topSite: null, opaqueFrame: true, source: 'overlay' });
  });

  it('shows the number as the page wrote it (Arabic-Indic digits) beside the number it dials, as text', async () => {
    background();
    const written = encodeURIComponent('\u0660\u0665\u0660 \u0661\u0662\u0663 \u0664\u0665\u0666\u0667');
    await renderWithStore(<PopupApp search={`?dial=%2B966501234567&agent=${AGENT_ID}&country=US&site=crm.example.sa&source=overlay&written=${written}`} />);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.querySelector('.as-written')?.textContent).toBe('As written on the page: \u0660\u0665\u0660 \u0661\u0662\u0663 \u0664\u0665\u0666\u0667');
    expect(dialog.textContent).toContain('+966 50 123 4567');
    expect(requestOrigin(`?site=a.example&source=overlay&written=${encodeURIComponent('<b>x</b>')}`)?.written).toBe('<b>x</b>');
    expect(dialog.querySelector('b')).toBeNull();
  });

  it('shows only a host name: anything else in `site` is not shown', () => {
    expect(requestOrigin('?site=crm.example.com&source=shortcut')).toEqual({ site: 'crm.example.com', topSite: null, opaqueFrame: false, source: 'shortcut' });
    expect(requestOrigin(`?site=${encodeURIComponent('Your bank <b>says</b> confirm')}&source=tel-link`)).toEqual({ site: '', topSite: null, opaqueFrame: false, source: 'tel-link' });
    expect(requestOrigin('?site=crm.example.com&top=a%20b&source=evil')).toEqual({ site: 'crm.example.com', topSite: null, opaqueFrame: false, source: null });
    expect(requestOrigin('?dial=1')).toBeNull();
  });
});

describe('a confirmation the user opened with Call in the form', () => {
  it('is armed at once, with focus on Confirm, and names no site', async () => {
    background();
    await renderWithStore(<DialForm prefill={{ agentId: AGENT_ID, toNumber: '+14155550132' }} requestedBy={{ site: 'x.example', topSite: null, opaqueFrame: false, source: 'overlay' }} onDialled={() => {}} />);
    const call = screen.getByRole('button', { name: 'Call' }) as HTMLButtonElement;
    await waitFor(() => expect(call.disabled).toBe(false));
    fireEvent.click(call);
    const dialog = await screen.findByRole('dialog');
    expect(confirmButton().disabled).toBe(false);
    expect(document.activeElement).toBe(confirmButton());
    expect(dialog.querySelector('.asked-by')).toBeNull();
  });
});
