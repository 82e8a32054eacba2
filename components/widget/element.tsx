/**
 * `<voice-agent-call>`: the widget as a custom element. Preact renders into an open shadow root;
 * attributes are read on every change (lib/widget/attributes.ts); one session per element follows
 * the call (lib/widget/session.ts) through the transport its attributes pick (lib/widget/transports.ts).
 * Events bubble and cross shadow roots (composed), carrying ids, status, duration and cost only.
 */
import { effect } from '@preact/signals';
import { render } from 'preact';
import { OBSERVED_ATTRIBUTES, readAttributes, type WidgetConfig } from '../../lib/widget/attributes';
import type { ExtensionTransport } from '../../lib/widget/extension-transport';
import { WIDGET_EVENTS, WidgetSession, type WidgetEventDetail } from '../../lib/widget/session';
import { onProxyTransport, transportFor } from '../../lib/widget/transports';
import type { WidgetCallView } from '../../lib/widget/wire';
import { problemText, WidgetCall } from './WidgetCall';
import { WIDGET_CSS } from './styles';

export const ELEMENT_NAME = 'voice-agent-call';

/** The element's class, built on the page's own HTMLElement (defined lazily: Node has none). */
type PageWindow = Window & typeof globalThis;

export function defineVoiceAgentCall(registry: CustomElementRegistry = customElements, win: PageWindow = window): void {
  // Registered once, whoever loads the script twice.
  if (registry.get(ELEMENT_NAME)) return;

  class VoiceAgentCall extends win.HTMLElement {
    static get observedAttributes() {
      return [...OBSERVED_ATTRIBUTES];
    }

    private root: ShadowRoot | null = null;
    private session: WidgetSession | null = null;
    private routeKey = '';
    private config: WidgetConfig | null = null;
    private problem: string | null = null;
    private transport: ExtensionTransport | null = null;
    private stopEffect: (() => void) | null = null;
    private stopListening: (() => void) | null = null;

    /** The call as last read (what the element shows), for a host script such as the CRM shell: no key, ever. */
    get view(): WidgetCallView | null {
      return this.session?.view.value ?? null;
    }

    connectedCallback() {
      if (!this.root) {
        this.root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
        const style = win.document.createElement('style');
        style.textContent = WIDGET_CSS;
        this.root.append(style);
        const mount = win.document.createElement('div');
        this.root.append(mount);
      }
      this.configure();
      // A proxy transport registered after this element (a late script, the host's own) is picked up
      // then, by an element with no call under way.
      this.stopListening ??= onProxyTransport(() => {
        if (!this.session || this.session.phase.peek() === 'idle') {
          this.routeKey = '';
          this.configure();
        }
      });
      this.stopEffect ??= effect(() => {
        // Reading the session's signals here re-renders on each change.
        void this.session?.view.value;
        void this.session?.phase.value;
        void this.session?.error.value;
        void this.session?.stopping.value;
        this.paint();
      });
    }

    disconnectedCallback() {
      this.stopEffect?.();
      this.stopEffect = null;
      this.stopListening?.();
      this.stopListening = null;
      this.session?.dispose();
      this.session = null;
      this.routeKey = '';
    }

    attributeChangedCallback() {
      if (this.root) this.configure();
    }

    private configure() {
      const read = readAttributes((name) => this.getAttribute(name));
      if (!read.ok) {
        // A key (or bad input) stops the element: no transport, no session, nothing sent.
        this.config = null;
        this.problem = problemText(read.problem);
        this.session?.dispose();
        this.session = null;
        this.routeKey = '';
        // Said to the host too (never with the attribute's value: a key is not repeated anywhere).
        this.emit(WIDGET_EVENTS.error, { id: null, executionId: null, status: null, durationSeconds: null, cost: null, message: this.problem, code: read.problem.code });
        this.paint();
        return;
      }
      this.config = read.config;
      this.problem = null;
      const key = JSON.stringify(read.config.route);
      if (key !== this.routeKey || !this.session) {
        this.session?.dispose();
        this.routeKey = key;
        const picked = transportFor(read.config.route, win, () => this.config?.showTranscripts ?? false);
        if (!picked.ok) {
          this.session = null;
          this.problem = problemText({ code: picked.code });
          this.paint();
          return;
        }
        this.transport = picked.via === 'extension' ? (picked.transport as ExtensionTransport) : null;
        if (this.transport) void this.transport.whenConnected().then(() => this.paint());
        this.session = new WidgetSession({
          transport: picked.transport,
          emit: (name, detail) => this.emit(name, detail),
          wait: (ms) => new Promise((resolve) => win.setTimeout(resolve, ms)),
        });
      }
      this.paint();
    }

    private emit(name: string, detail: WidgetEventDetail) {
      this.dispatchEvent(new win.CustomEvent(name, { detail, bubbles: true, composed: true }));
    }

    private paint() {
      const mount = this.root?.lastElementChild;
      if (!mount) return;
      const config = this.config;
      const session = this.session;
      render(
        <WidgetCall
          config={config}
          problem={this.problem}
          session={session}
          waitingForExtension={!!this.transport && !this.transport.connected}
          onCall={(toNumber) => {
            if (!config || !session) return;
            void session.call({ agentId: config.agentId, toNumber, variables: config.variables, via: config.via });
          }}
        />,
        mount,
      );
    }
  }

  registry.define(ELEMENT_NAME, VoiceAgentCall);
}
