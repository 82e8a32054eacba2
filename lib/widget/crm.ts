/**
 * The CRM shells of widget.html: a CRM's calling slot frames the page; the CRM hands it a record's
 * number; the tester presses Call in the element; the CRM hears how the call went. The element does
 * the call (through its transport); these only translate: HubSpot's Calling Extensions SDK and
 * Salesforce Open CTI.
 */
import type { WidgetCallView } from './wire';
import { WIDGET_EVENTS, type WidgetEventDetail } from './events';

/** The element as the shells use it: its attributes, its events, and its last view. */
export interface CallElement extends EventTarget {
  setAttribute(name: string, value: string): void;
  readonly view: WidgetCallView | null;
}

/** The SDK's app-side API we use (`new CallingExtensions(options)` from @hubspot/calling-extensions-sdk). */
export interface HubspotExtensions {
  initialized(payload: { isLoggedIn?: boolean; engagementId?: number }): void;
  outgoingCall(payload: { externalCallId: string; toNumber?: string; callStartTime?: number; createEngagement?: boolean }): void;
  callEnded(payload: { externalCallId: string; engagementId: number; callEndStatus?: string }): void;
  callCompleted(payload: { externalCallId: string; engagementId?: number | string; hideWidget?: boolean; engagementProperties?: Record<string, unknown> }): void;
}

/** HubSpot's end statuses, from the service's final status. */
export function hubspotEndStatus(status: string | null): string {
  switch (status) {
    case 'completed':
      return 'COMPLETED';
    case 'busy':
      return 'BUSY';
    case 'no-answer':
      return 'NO_ANSWER';
    case 'stopped':
    case 'canceled':
      return 'CANCELED';
    default:
      return 'FAILED';
  }
}

/** What HubSpot files on the call record: the transcript as the call body, the recording link, the talk time (ms). */
export function hubspotEngagement(view: WidgetCallView, now: number): Record<string, unknown> {
  return {
    hs_timestamp: now,
    hs_call_title: `Voice agent test call (${view.agentId})`,
    hs_call_body: view.transcript ?? '',
    ...(view.recordingUrl ? { hs_call_recording_url: view.recordingUrl } : {}),
    ...(view.durationSeconds !== null ? { hs_call_duration: String(Math.round(view.durationSeconds * 1000)) } : {}),
    hs_call_to_number: view.toNumber,
    hs_call_direction: 'OUTBOUND',
    hs_call_status: hubspotEndStatus(view.status) === 'CANCELED' ? 'CANCELED' : hubspotEndStatus(view.status),
  };
}

/**
 * Wires the element to HubSpot: `make` builds the SDK's CallingExtensions with our handlers.
 * onDialNumber fills the (locked) number and waits for the tester; the first status of a call is
 * `outgoingCall`; its end is `callEnded` then `callCompleted` with the engagement HubSpot created.
 */
export function hubspotShell(element: CallElement, make: (handlers: Record<string, (data: any) => void>) => HubspotExtensions, now: () => number = Date.now): HubspotExtensions {
  let engagementId: number | null = null;
  let started: string | null = null;
  const sdk = make({
    onReady: () => sdk.initialized({ isLoggedIn: true }),
    onDialNumber: (data: { phoneNumber?: string }) => {
      if (typeof data?.phoneNumber === 'string') element.setAttribute('number', data.phoneNumber.slice(0, 64));
    },
    onEngagementCreated: (data: { engagementId?: number }) => {
      if (typeof data?.engagementId === 'number') engagementId = data.engagementId;
    },
    onCreateEngagementSucceeded: (data: { engagementId?: number }) => {
      if (typeof data?.engagementId === 'number') engagementId = data.engagementId;
    },
  });
  element.addEventListener(WIDGET_EVENTS.status, (event) => {
    const detail = (event as CustomEvent<WidgetEventDetail>).detail;
    if (!detail.id || started === detail.id) return;
    started = detail.id;
    sdk.outgoingCall({ externalCallId: detail.id, toNumber: element.view?.toNumber, callStartTime: now(), createEngagement: true });
  });
  element.addEventListener(WIDGET_EVENTS.done, (event) => {
    const detail = (event as CustomEvent<WidgetEventDetail>).detail;
    const view = element.view;
    if (!detail.id || !view) return;
    sdk.callEnded({ externalCallId: detail.id, engagementId: engagementId ?? 0, callEndStatus: hubspotEndStatus(view.status) });
    sdk.callCompleted({ externalCallId: detail.id, ...(engagementId !== null ? { engagementId } : {}), hideWidget: false, engagementProperties: hubspotEngagement(view, now()) });
  });
  return sdk;
}

/** The Open CTI calls we use (`sforce.opencti`, loaded from the Salesforce org). */
export interface OpenCti {
  enableClickToDial(options: { callback?: (response: unknown) => void }): void;
  onClickToDial(options: { listener: (payload: { number?: string; recordId?: string; objectType?: string }) => void }): void;
  setSoftphonePanelVisibility?(options: { visible: boolean; callback?: (response: unknown) => void }): void;
}

/** Wires the element to Salesforce: click-to-dial on; a clicked number fills the element and shows the softphone; the tester presses Call. */
export function salesforceShell(element: CallElement, opencti: OpenCti): void {
  opencti.enableClickToDial({ callback: () => undefined });
  opencti.onClickToDial({
    listener: (payload) => {
      if (typeof payload?.number !== 'string') return;
      element.setAttribute('number', payload.number.slice(0, 64));
      opencti.setSoftphonePanelVisibility?.({ visible: true, callback: () => undefined });
    },
  });
}

/** An org's domain for its Open CTI script: Salesforce's own domains only (a query must not load any script). */
export const SALESFORCE_ORIGIN = /^https:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:my\.salesforce\.com|lightning\.force\.com)$/;
