/**
 * The background's rules for a page's widget requests (lib/background/widget-calls.ts): one pending
 * request per tab (a newer one replaces it), answers only to the tab and frame that asked, and the
 * page sees results only when the person shared them and the host shows them.
 */
import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../lib/calls/call-record';
import { placedView, ticketFor, unplacedView, withNewTicket, PENDING_MS, type WidgetTicket } from '../../../lib/background/widget-calls';

const ticket = (over: Partial<WidgetTicket>): WidgetTicket => ({
  id: 'ticket-aaaaaaaa', tabId: 7, frameId: 0, asker: { site: 'crm.example', topSite: 'crm.example' },
  request: { agentId: 'agent-1', toNumber: '+14155550123', variables: {}, via: 'batch', transcripts: true },
  createdAt: 1_000, state: 'pending', callId: null, share: false, ...over,
});

describe('widget tickets', () => {
  it('a tab’s newer request replaces its pending one (one confirmation per tab); other tabs keep theirs', () => {
    let tickets = withNewTicket({}, ticket({ id: 'first-aaaaaaa' }));
    tickets = withNewTicket(tickets, ticket({ id: 'other-tab-aaa', tabId: 8, createdAt: 1_500 }));
    tickets = withNewTicket(tickets, ticket({ id: 'second-aaaaaa', createdAt: 2_000 }));
    expect(tickets['first-aaaaaaa']!.state).toBe('replaced');
    expect(tickets['other-tab-aaa']!.state).toBe('pending');
    expect(tickets['second-aaaaaa']!.state).toBe('pending');
    expect(unplacedView(tickets['first-aaaaaaa']!, 2_000)).toMatchObject({ done: true, message: 'A newer request from this page replaced this one.' });
  });

  it('answers only the tab and frame that asked', () => {
    const tickets = withNewTicket({}, ticket({}));
    expect(ticketFor(tickets, 'ticket-aaaaaaaa', 7, 0)).not.toBeNull();
    expect(ticketFor(tickets, 'ticket-aaaaaaaa', 8, 0)).toBeNull();
    expect(ticketFor(tickets, 'ticket-aaaaaaaa', 7, 3)).toBeNull();
  });

  it('a request never confirmed ends as "not confirmed"', () => {
    expect(unplacedView(ticket({}), 1_000 + PENDING_MS - 1)).toMatchObject({ done: false, message: "Confirm the call in the extension's window." });
    expect(unplacedView(ticket({}), 1_000 + PENDING_MS + 1)).toMatchObject({ done: true, message: 'The call was not confirmed in the extension.' });
  });

  it('results reach the page only when the person shared them and the host shows them', () => {
    const call = {
      id: 'widget-ticket', agentId: 'agent-1', toNumber: '+14155550123', via: 'batch', step: 'finished', failure: null, trackingPaused: false,
      executionId: 'exec-1', status: 'completed', observed: [{ status: 'completed', at: 5 }], stopRequested: false, lastError: null,
      execution: { id: 'exec-1', status: 'completed', transcript: 'assistant: hi', conversation_duration: 30, total_cost: 0.2, telephony_data: { recording_url: 'https://rec/1.mp3' }, extracted_data: { a: 1 } },
    } as unknown as CallRecord;
    const hidden = placedView(ticket({ state: 'placed', share: false }), call);
    expect(hidden).toMatchObject({ done: true, status: 'completed', durationSeconds: 30, cost: 0.2, transcript: null, recordingUrl: null, extractedData: null });
    const shared = placedView(ticket({ state: 'placed', share: true }), call);
    expect(shared).toMatchObject({ transcript: 'assistant: hi', recordingUrl: 'https://rec/1.mp3', extractedData: { a: 1 } });
    const hostHides = placedView(ticket({ state: 'placed', share: true, request: { ...ticket({}).request, transcripts: false } }), call);
    expect(hostHides.transcript).toBeNull();
  });
});

describe('a page’s reads and stops (handleWidgetPageRequest)', () => {
  it('Stop from the asking tab and frame stops the call through CallsService; another tab cannot read or stop it', async () => {
    const { fakeBrowser } = await import('wxt/testing/fake-browser');
    const { handleWidgetPageRequest } = await import('../../../lib/background/widget-calls');
    const placed = ticket({ id: 'placedticket1', state: 'placed', callId: 'widget-placedticket1' });
    await fakeBrowser.storage.session.set({ 'widget.tickets': { [placed.id]: placed } });
    const running = {
      id: 'widget-placedticket1', agentId: 'agent-1', toNumber: '+14155550123', via: 'batch', step: 'tracking', failure: null, trackingPaused: false,
      executionId: 'exec-1', status: 'in-progress', observed: [{ status: 'in-progress', at: 5 }], stopRequested: false, lastError: null, execution: null,
    } as unknown as CallRecord;
    const stopped: string[] = [];
    const calls = {
      get: async (id: string) => (id === running.id ? running : undefined),
      stop: async (id: string) => {
        stopped.push(id);
        return { ...running, stopRequested: true };
      },
    };
    const deps = { confirmations: { show: async () => undefined }, throttle: { allow: () => true }, now: () => 2_000, calls } as never;
    const other = await handleWidgetPageRequest({ type: 'page/widget-stop', id: placed.id }, { tab: { id: 8 }, frameId: 0 } as never, deps);
    expect(other).toEqual({ code: 'unknown', error: 'The extension knows no such call for this page.' });
    expect(stopped).toEqual([]);
    const read = await handleWidgetPageRequest({ type: 'page/widget-read', id: placed.id }, { tab: { id: 7 }, frameId: 0 } as never, deps);
    expect(read).toMatchObject({ id: placed.id, status: 'in-progress', done: false, stopRequested: false });
    const stop = await handleWidgetPageRequest({ type: 'page/widget-stop', id: placed.id }, { tab: { id: 7 }, frameId: 0 } as never, deps);
    expect(stopped).toEqual(['widget-placedticket1']);
    expect(stop).toMatchObject({ id: placed.id, stopRequested: true });
  });
});

describe('Confirm (confirmWidgetRequest)', () => {
  it('a confirmed request whose call is still being stored reads as in progress, not done', () => {
    expect(unplacedView(ticket({ state: 'placed', callId: 'widget-x' }), 2_000)).toMatchObject({ done: false, message: null });
  });
});
