/** The CRM shells' translation (lib/widget/crm.ts): what HubSpot and Salesforce hear, from the element's events. */
import { describe, expect, it } from 'vitest';
import { hubspotEndStatus, hubspotShell, salesforceShell, type CallElement, type HubspotExtensions } from '../../../lib/widget/crm';
import type { WidgetCallView } from '../../../lib/widget/wire';

function fakeElement(): CallElement & { attrs: Record<string, string>; current: WidgetCallView | null } {
  const target = new EventTarget() as CallElement & { attrs: Record<string, string>; current: WidgetCallView | null };
  target.attrs = {};
  target.current = null;
  target.setAttribute = (name, value) => void (target.attrs[name] = value);
  Object.defineProperty(target, 'view', { get: () => target.current });
  return target;
}

const done: WidgetCallView = {
  id: 'w1', agentId: 'agent-1', toNumber: '+14155550123', via: 'batch', executionId: 'e1', status: 'no-answer', observed: [], done: true, message: null,
  stopRequested: false, durationSeconds: 0, cost: 0, transcript: null, recordingUrl: null, extractedData: null,
};

describe('CRM shells', () => {
  it('HubSpot: a dialled number waits in the element; one outgoingCall per call; the end is callEnded then callCompleted', () => {
    const sent: [string, unknown][] = [];
    let handlers: Record<string, (data: any) => void> = {};
    const sdk: HubspotExtensions = {
      initialized: (p) => sent.push(['initialized', p]),
      outgoingCall: (p) => sent.push(['outgoingCall', p]),
      callEnded: (p) => sent.push(['callEnded', p]),
      callCompleted: (p) => sent.push(['callCompleted', p]),
    };
    const el = fakeElement();
    hubspotShell(el, (h) => ((handlers = h), sdk), () => 1000);
    handlers.onReady!({});
    handlers.onDialNumber!({ phoneNumber: '+1 415 555 0123' });
    expect(el.attrs.number).toBe('+1 415 555 0123');
    expect(sent.map(([k]) => k)).toEqual(['initialized']);
    el.current = { ...done, done: false, status: 'queued' };
    el.dispatchEvent(new CustomEvent('voice-agent-call:status', { detail: { id: 'w1' } }));
    el.dispatchEvent(new CustomEvent('voice-agent-call:status', { detail: { id: 'w1' } }));
    handlers.onEngagementCreated!({ engagementId: 77 });
    el.current = done;
    el.dispatchEvent(new CustomEvent('voice-agent-call:done', { detail: { id: 'w1' } }));
    expect(sent.map(([k]) => k)).toEqual(['initialized', 'outgoingCall', 'callEnded', 'callCompleted']);
    expect(sent[2]![1]).toEqual({ externalCallId: 'w1', engagementId: 77, callEndStatus: 'NO_ANSWER' });
    expect(sent[3]![1]).toMatchObject({ engagementId: 77, engagementProperties: { hs_call_body: '', hs_call_status: 'NO_ANSWER' } });
  });

  it('HubSpot end statuses', () => {
    expect(['completed', 'busy', 'no-answer', 'stopped', 'canceled', 'failed', null].map(hubspotEndStatus)).toEqual(['COMPLETED', 'BUSY', 'NO_ANSWER', 'CANCELED', 'CANCELED', 'FAILED', 'FAILED']);
  });

  it('Salesforce: click-to-dial is enabled; a clicked number fills the element and shows the softphone', () => {
    const calls: unknown[] = [];
    let listener: ((p: { number?: string }) => void) | null = null;
    const el = fakeElement();
    salesforceShell(el, {
      enableClickToDial: () => calls.push('enableClickToDial'),
      onClickToDial: (o) => ((listener = o.listener), calls.push('onClickToDial')),
      setSoftphonePanelVisibility: (o) => calls.push(['visible', o.visible]),
    });
    expect(calls).toEqual(['enableClickToDial', 'onClickToDial']);
    listener!({ number: '+14155550177' });
    expect(el.attrs.number).toBe('+14155550177');
    expect(calls).toContainEqual(['visible', true]);
  });
});
