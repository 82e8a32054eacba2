/**
 * The background's side of the `<voice-agent-call>` element through the extension. A page's request
 * is untrusted, exactly like a page's call request (./page-service.ts): refused where the site is
 * off, counted against the tab's request budget, and only ever shown as the extension's own
 * confirmation (one window; a tab's newer request replaces its older one). On Confirm the call is
 * placed by CallsService — the placement engine — under the ticket's id; the page can then read
 * and stop that call, from the same tab and frame only. Transcripts, the recording and extracted data
 * reach the page only when the person ticked "share" in the confirmation (default off) and the host
 * page shows them.
 */
import type { Runtime } from '../browser';
import type { CallRecord } from '../calls/call-record';
import { t } from '../i18n';
import { askingFrame, frameHost, type AskingFrame, type FrameSender } from '../page/frame-host';
import { isEnabledOn } from '../page/sites';
import type { WidgetPlace } from '../page/widget-messages';
import type { WidgetPendingView } from '../requests/widget';
import { widgetCallView } from '../widget/call-view';
import type { WidgetCallView, WidgetError } from '../widget/wire';
import type { RequestThrottle } from './confirmation';
import { readAgentsCache } from './agents';
import type { CallsService } from './calls-service';
import { currentClient } from './service';
import { loadSettings } from './settings-store';
import { browser } from '../browser';
import { sessionSet } from './tab-numbers';

export interface WidgetTicket {
  id: string;
  tabId: number;
  frameId: number;
  asker: AskingFrame;
  request: WidgetPlace;
  createdAt: number;
  state: 'pending' | 'placed' | 'declined' | 'replaced';
  /** The placed call's id (CallsService), once confirmed. */
  callId: string | null;
  /** The person let this page see the results (the confirmation's checkbox; default off). */
  share: boolean;
}
export type WidgetTickets = Record<string, WidgetTicket>;

/** A request not confirmed within this time is over ("not confirmed"). */
export const PENDING_MS = 5 * 60_000;
const KEEP_MS = 24 * 60 * 60_000;
const MAX_TICKETS = 200;

/** Pure: adds `ticket`; the same tab's older pending requests are replaced (one confirmation per tab). */
export function withNewTicket(tickets: WidgetTickets, ticket: WidgetTicket): WidgetTickets {
  const kept = Object.values(tickets)
    .filter((old) => ticket.createdAt - old.createdAt < KEEP_MS)
    .map((old) => (old.tabId === ticket.tabId && old.state === 'pending' ? { ...old, state: 'replaced' as const } : old))
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, MAX_TICKETS - 1);
  return Object.fromEntries([...kept, ticket].map((t) => [t.id, t]));
}

/** Pure: the ticket, only for the tab and frame that asked for it. */
export function ticketFor(tickets: WidgetTickets, id: string, tabId: number, frameId: number): WidgetTicket | null {
  const ticket = tickets[id];
  return ticket && ticket.tabId === tabId && ticket.frameId === frameId ? ticket : null;
}

/** Pure: a request that has not (or not yet) become a call, as the widget sees it. */
export function unplacedView(ticket: WidgetTicket, now: number): WidgetCallView {
  const expired = ticket.state === 'pending' && now - ticket.createdAt > PENDING_MS;
  // 'placed' without a stored call yet: Confirm was pressed and the call is being stored.
  const message =
    ticket.state === 'replaced'
      ? t('widget_replaced')
      : ticket.state === 'declined' || expired
        ? t('widget_notConfirmed')
        : ticket.state === 'placed'
          ? null
          : t('widget_confirmInExtension');
  return {
    id: ticket.id,
    agentId: ticket.request.agentId,
    toNumber: ticket.request.toNumber,
    via: ticket.request.via,
    executionId: null,
    status: null,
    observed: [],
    done: ticket.state === 'replaced' || ticket.state === 'declined' || expired,
    message,
    stopRequested: false,
    durationSeconds: null,
    cost: null,
    transcript: null,
    recordingUrl: null,
    extractedData: null,
  };
}

/** Pure: a placed call as the widget sees it (lib/widget/call-view.ts), under the ticket's id; results only when shared and the host shows them. */
export function placedView(ticket: WidgetTicket, call: CallRecord): WidgetCallView {
  return { ...widgetCallView(call, { transcripts: ticket.share && ticket.request.transcripts }), id: ticket.id };
}

const TICKETS_KEY = 'widget.tickets';

async function readTickets(): Promise<WidgetTickets> {
  const stored = (await browser.storage.session.get(TICKETS_KEY))[TICKETS_KEY];
  return stored && typeof stored === 'object' ? (stored as WidgetTickets) : {};
}

/** One read-modify-write of the tickets at a time. */
let writes: Promise<unknown> = Promise.resolve();
function changeTickets<T>(change: (tickets: WidgetTickets) => { tickets: WidgetTickets; result: T }): Promise<T> {
  const run = writes.then(async () => {
    const { tickets, result } = change(await readTickets());
    await sessionSet({ [TICKETS_KEY]: tickets });
    return result;
  });
  writes = run.catch(() => undefined);
  return run;
}

function refusal(code: string, error: string): WidgetError {
  return { code, error };
}

function newTicketId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

export interface WidgetPageDeps {
  confirmations: { show(path: string): Promise<void> };
  throttle: RequestThrottle;
  now(): number;
  calls?: CallsService;
}

type WidgetPageRequest = { type: 'page/widget-place'; request: WidgetPlace } | { type: 'page/widget-read'; id: string } | { type: 'page/widget-stop'; id: string };

/** A content script's widget request (already sender-checked and parsed): what to answer the page. */
export async function handleWidgetPageRequest(request: WidgetPageRequest, sender: Runtime.MessageSender, deps: WidgetPageDeps): Promise<WidgetCallView | WidgetError> {
  const tabId = sender.tab?.id;
  const frameId = sender.frameId ?? 0;
  if (tabId === undefined) return refusal('unknown', t('widget_unknownCall'));
  if (request.type === 'page/widget-place') {
    // The same gate and budget as a page's call request; then nothing but a confirmation.
    const { settings } = await loadSettings();
    if (!isEnabledOn(frameHost(sender as FrameSender), settings.sites)) return refusal('site-off', t('widget_siteOff'));
    if (!deps.throttle.allow(tabId, deps.now())) return refusal('too-many', t('widget_tooMany'));
    const ticket: WidgetTicket = {
      id: newTicketId(),
      tabId,
      frameId,
      asker: askingFrame(sender as FrameSender),
      request: request.request,
      createdAt: deps.now(),
      state: 'pending',
      callId: null,
      share: false,
    };
    await changeTickets((tickets) => ({ tickets: withNewTicket(tickets, ticket), result: null }));
    await deps.confirmations.show(`/popup.html?${new URLSearchParams({ widget: ticket.id })}`);
    return unplacedView(ticket, deps.now());
  }
  const ticket = ticketFor(await readTickets(), request.id, tabId, frameId);
  if (!ticket) return refusal('unknown', t('widget_unknownCall'));
  const call = ticket.callId ? await deps.calls?.get(ticket.callId) : undefined;
  if (!ticket.callId || !call || !deps.calls) return unplacedView(ticket, deps.now());
  if (request.type === 'page/widget-stop') {
    const stopped = await deps.calls.stop(ticket.callId);
    return placedView(ticket, stopped ?? call);
  }
  return placedView(ticket, call);
}

/** The confirmation's view of a pending request, or null when it is not waiting any more. */
export async function pendingWidgetRequest(id: string, now: number): Promise<WidgetPendingView | null> {
  const ticket = (await readTickets())[id];
  if (!ticket || ticket.state !== 'pending' || now - ticket.createdAt > PENDING_MS) return null;
  const { settings } = await loadSettings();
  const agents = (await readAgentsCache(settings.baseUrl)).agents;
  return {
    ticket: ticket.id,
    asker: ticket.asker,
    agentId: ticket.request.agentId,
    agentName: agents.find((a) => a.id === ticket.request.agentId)?.name ?? null,
    toNumber: ticket.request.toNumber,
    via: ticket.request.via,
    variables: ticket.request.variables,
    hostShowsTranscripts: ticket.request.transcripts,
  };
}

/**
 * The person pressed Confirm: the call is placed by CallsService under the ticket's own id (a
 * second Confirm of the same ticket is the same call), with the agent and number the page asked for.
 */
export async function confirmWidgetRequest(id: string, share: boolean, calls: CallsService, now: number): Promise<{ callId: string }> {
  const taken = await changeTickets((tickets) => {
    const ticket = tickets[id];
    if (!ticket) return { tickets, result: null };
    if (ticket.state === 'placed') return { tickets, result: ticket };
    if (ticket.state !== 'pending' || now - ticket.createdAt > PENDING_MS) return { tickets, result: null };
    const placed = { ...ticket, state: 'placed' as const, callId: `widget-${ticket.id}`, share };
    return { tickets: { ...tickets, [id]: placed }, result: placed };
  });
  if (!taken?.callId) throw new Error(t('widgetConfirm_gone'));
  const client = await currentClient();
  const { settings } = await loadSettings();
  const agentName = (await readAgentsCache(settings.baseUrl)).agents.find((a) => a.id === taken.request.agentId)?.name ?? `Agent ${taken.request.agentId.slice(0, 8)}`;
  try {
    const call = await calls.dial({
      id: taken.callId,
      baseUrl: client.baseUrl,
      agentId: taken.request.agentId,
      agentName,
      toNumber: taken.request.toNumber,
      fromNumber: null,
      variables: taken.request.variables,
      via: taken.request.via,
    });
    return { callId: call.id };
  } catch (error) {
    // Not placed (a call to this number is in progress, no key…): the request waits again, the window says why.
    if (!(await calls.get(taken.callId))) {
      await changeTickets((tickets) => {
        const ticket = tickets[id];
        if (ticket?.state !== 'placed') return { tickets, result: null };
        return { tickets: { ...tickets, [id]: { ...ticket, state: 'pending' as const, callId: null, share: false } }, result: null };
      });
    }
    throw error;
  }
}

export async function declineWidgetRequest(id: string): Promise<void> {
  await changeTickets((tickets) => {
    const ticket = tickets[id];
    if (!ticket || ticket.state !== 'pending') return { tickets, result: null };
    return { tickets: { ...tickets, [id]: { ...ticket, state: 'declined' as const } }, result: null };
  });
}
