/**
 * The standalone script a host page loads: registers `<voice-agent-call>` (once) with the UI text of
 * the page's language (English or German, from the extension's own catalogue). Built by
 * `npm run build:widget` into .output/widget/voice-agent-call.js.
 *
 * The proxy's transport (lib/widget/proxy-transport.ts, built apart) is included when that file is
 * there: the glob is empty without it, so this script builds either way. It registers itself, or
 * this registers its `createProxyTransport` export.
 */
import { defineVoiceAgentCall } from '../components/widget/element';
import { registerProxyTransport, type ProxyTransportFactory } from '../lib/widget/transports';
import { useWidgetCatalogues } from './catalogue';

const proxyModules = import.meta.glob<{ createProxyTransport?: ProxyTransportFactory }>('../lib/widget/proxy-transport.ts', { eager: true });
for (const module of Object.values(proxyModules)) if (module.createProxyTransport) registerProxyTransport(module.createProxyTransport);

useWidgetCatalogues(document.documentElement.lang || navigator.language);
defineVoiceAgentCall();

// A host script may bring its own transport (tests: a fake one served in the page).
(globalThis as { VoiceAgentCall?: unknown }).VoiceAgentCall = Object.freeze({ registerProxyTransport });
