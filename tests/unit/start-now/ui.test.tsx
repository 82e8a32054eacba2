// @vitest-environment happy-dom
// The "Start calls now" setting on the options page, and how the call view names the way a call went out.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { CallStatusTimeline } from '../../../components/calls/CallStatusTimeline';
import { CompactCallView, FullCallView } from '../../../components/calls/CallView';
import { DialConfirmation } from '../../../components/calls/DialConfirmation';
import type { ParsedPhone } from '../../../lib/ui/phone';
import { CallRouteSettings } from '../../../components/settings/CallRouteSettings';
import { callRecord, fail, fakeBackground, ok, renderWithStore, settingsView } from '../ui/helpers';

beforeEach(() => fakeBrowser.reset());
afterEach(() => cleanup());

const T0 = Date.parse('2026-11-21T12:00:00Z');
const LABEL = 'Start calls now where the service offers it';

describe('CallRouteSettings', () => {
  it('shows the saved value (off by default) and saves a change at once, saying what it means', async () => {
    let saved = false;
    const { requests } = fakeBackground((request) => {
      if (request.type === 'settings/get') return ok(settingsView({ startCallsNow: saved }));
      if (request.type === 'settings/call-route') {
        saved = request.startCallsNow;
        return ok(settingsView({ startCallsNow: saved }));
      }
      return undefined;
    });
    render(<CallRouteSettings />);
    const box = (await screen.findByRole('checkbox', { name: LABEL })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await screen.findByText('Calls will start at once where the service offers it.');
    expect(box.checked).toBe(true);
    expect(requests.filter((r) => r.type === 'settings/call-route')).toEqual([{ type: 'settings/call-route', startCallsNow: true }]);
    fireEvent.click(box);
    await screen.findByText('Calls will go out as single-call batches.');
    expect(box.checked).toBe(false);
  });

  it('a refused save shows the reason and the box keeps showing what is really saved', async () => {
    fakeBackground((request) => {
      if (request.type === 'settings/get') return ok(settingsView({ startCallsNow: false }));
      if (request.type === 'settings/call-route') return fail('Storage is full.');
      return undefined;
    });
    render(<CallRouteSettings />);
    const box = (await screen.findByRole('checkbox', { name: LABEL })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    fireEvent.click(box);
    expect((await screen.findByRole('alert')).textContent).toBe('The setting was not saved: Storage is full.');
    await waitFor(() => expect(box.checked).toBe(false));
  });
});

describe('the call view names the way', () => {
  it.each([
    ['call', 'Started now'],
    ['batch', 'Single-call batch'],
  ] as const)('via %s → "%s", in the popup and the side panel', async (via, word) => {
    fakeBackground(() => undefined);
    await renderWithStore(<CompactCallView call={callRecord({ via })} />);
    expect(screen.getByText(word)).toBeTruthy();
    cleanup();
    await renderWithStore(<FullCallView call={callRecord({ via })} />);
    const row = screen.getByText('Placed as').closest('.details-row') as HTMLElement;
    expect(within(row).getByText(word)).toBeTruthy();
  });

  it('a stop the service refused says why, instead of "Stopping…" forever', async () => {
    fakeBackground(() => undefined);
    const reason = 'Call is in-progress: only a queued or scheduled call can be stopped';
    await renderWithStore(<CompactCallView call={callRecord({ via: 'call', status: 'in-progress', stopRequested: true, stopSent: true, stopRefused: reason })} />);
    expect(screen.getByText(`The service did not stop the call: ${reason}`)).toBeTruthy();
    expect(document.querySelector('.call-status')?.textContent).toBe('In progress');
  });

  it('a started-now call’s timeline begins at queued (it is never scheduled)', () => {
    render(<CallStatusTimeline call={{ via: 'call', status: 'ringing', observed: [{ status: 'queued', at: T0 }, { status: 'ringing', at: T0 + 4000 }] }} />);
    const items = within(screen.getByRole('list', { name: 'Call status timeline' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).not.toContain('Scheduled not observed');
    expect(items[0]!.textContent).toContain('Queued');
  });
});

describe('the confirmation says when the call starts', () => {
  const number = { ok: true, e164: '+14155550132', international: '+1 415 555 0132', country: 'US' } as unknown as ParsedPhone;
  const confirmation = (startNow?: boolean) =>
    render(<DialConfirmation agentName="Sales" number={number} fromNumber={null} variables={{}} busy={false} startNow={startNow} onConfirm={() => {}} onCancel={() => {}} />);

  it('with "Start calls now" on: at once where offered, else the batch’s earliest start', () => {
    confirmation(true);
    const text = screen.getByRole('dialog').textContent ?? '';
    expect(text).toContain('Starts at once where the service offers immediate calls.');
    expect(text).toContain('Where it does not, the call goes out through a batch: earliest start');
    expect(text).not.toContain('The hosted service starts batches at the next 10-minute mark');
  });

  it('off (the default): the batch’s start, as before', () => {
    confirmation();
    const text = screen.getByRole('dialog').textContent ?? '';
    expect(text).not.toContain('Starts at once');
    expect(text).toContain('Calls go out through a batch scheduled at least 2 minutes ahead.');
  });
});
