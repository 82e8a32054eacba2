/**
 * widget.html: the element in a CRM's calling slot. Configured by its query (agent, agent-name, proxy, token,
 * via, transcripts, crm=hubspot|salesforce, sfdc=<org domain>); the proxy reaches the service (no
 * extension inside a CRM's frame). The element script is loaded first by the page (voice-agent-call.js).
 */
import CallingExtensions from '@hubspot/calling-extensions-sdk';
import { hubspotShell, SALESFORCE_ORIGIN, salesforceShell, type CallElement, type OpenCti } from '../lib/widget/crm';

const query = new URLSearchParams(location.search);
const element = document.createElement('voice-agent-call');
// Only these reach the element; a key in the query is passed on so the element refuses it plainly.
for (const name of ['agent', 'agent-name', 'proxy', 'token', 'via', 'transcripts', 'variables', 'key', 'api-key', 'apikey']) {
  const value = query.get(name);
  if (value !== null) element.setAttribute(name, value);
}
document.getElementById('slot')!.append(element);
const call = element as unknown as CallElement;

const crm = query.get('crm');
if (crm === 'hubspot') {
  hubspotShell(call, (eventHandlers) => new CallingExtensions({ debugMode: false, eventHandlers } as never) as never);
} else if (crm === 'salesforce') {
  const withCti = () => (globalThis as { sforce?: { opencti?: OpenCti } }).sforce?.opencti;
  const start = () => {
    const cti = withCti();
    if (cti) salesforceShell(call, cti);
  };
  const org = query.get('sfdc');
  if (withCti()) start();
  else if (org && SALESFORCE_ORIGIN.test(org)) {
    const script = document.createElement('script');
    script.src = `${org}/support/api/61.0/lightning/opencti_min.js`;
    script.onload = start;
    document.head.append(script);
  }
}
