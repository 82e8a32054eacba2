/**
 * The standalone script a host page loads: registers `<voice-agent-call>` (once) with the UI text of
 * the page's language (English or German, from the extension's own catalogue). Built by
 * `npm run build:widget` into .output/widget/voice-agent-call.js.
 */
import { defineVoiceAgentCall } from '../components/widget/element';
import { useWidgetCatalogues } from './catalogue';

useWidgetCatalogues(document.documentElement.lang || navigator.language);
defineVoiceAgentCall();
