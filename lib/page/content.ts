/**
 * The content script's life: ask the background whether this frame should work (and with which
 * country and agent name), start or stop click-to-call accordingly, ask again when the background
 * says the settings changed (`page/refresh`), and answer its request for the selected text (the
 * keyboard shortcut).
 *
 * It talks only to the extension (`runtime.sendMessage`, `runtime.onMessage` from our own id) and
 * neither reads nor watches storage: the background's commands carry no data (lib/page/messages.ts).
 */
import type { PageConfig, PageRequest } from './messages';
import { startClickToCall, type ClickToCall, type PageLink } from './click-to-call';
import { shadowRootOpener, type DomApi } from './shadow-roots';

/** The part of the extension API the content script uses (wxt/browser in the entrypoint, a fake in tests). */
export interface ContentBrowser {
  runtime: {
    id?: string;
    sendMessage(message: unknown): Promise<unknown>;
    onMessage: {
      addListener(cb: (message: unknown, sender: { id?: string }, sendResponse: (answer: unknown) => void) => unknown): void;
    };
  };
  /** Chromium's content-script `dom` API (opens closed shadow roots); absent in Firefox. */
  dom?: DomApi;
}

export function readConfig(value: unknown): PageConfig | null {
  if (!value || typeof value !== 'object') return null;
  const c = value as Record<string, unknown>;
  if (typeof c.enabled !== 'boolean' || typeof c.defaultCountry !== 'string') return null;
  return {
    enabled: c.enabled,
    defaultCountry: c.defaultCountry,
    agentName: typeof c.agentName === 'string' && c.agentName.trim() ? c.agentName.trim().slice(0, 60) : null,
  };
}

/** What the user selected in this frame, for the shortcut ('' when nothing is). Never a password field. */
export function selectedText(doc: Document = document): string {
  const active = doc.activeElement as HTMLInputElement | null;
  let text = '';
  if (active && (active.localName === 'textarea' || (active.localName === 'input' && active.type !== 'password'))) {
    try {
      if (typeof active.selectionStart === 'number' && typeof active.selectionEnd === 'number') {
        text = active.value.slice(active.selectionStart, active.selectionEnd);
      }
    } catch {
      // Input types without a selection API (email, number) throw: fall back to the page selection.
    }
  }
  if (!text) text = doc.defaultView?.getSelection()?.toString() ?? '';
  return text.replace(/\s+/g, ' ').trim().slice(0, 64);
}

export function runContentScript(browser: ContentBrowser, doc: Document = document): { stop(): void; current(): ClickToCall | null } {
  const alive = () => {
    try {
      return !!browser.runtime?.id;
    } catch {
      return false;
    }
  };
  const link: PageLink = {
    send: (request: PageRequest) => {
      try {
        return browser.runtime.sendMessage(request);
      } catch (error) {
        return Promise.reject(error); // an orphaned script throws synchronously
      }
    },
    alive,
  };

  const getShadowRoot = shadowRootOpener(browser.dom);
  let active: ClickToCall | null = null;
  let country = '';
  let generation = 0;
  let stopped = false;

  async function configure(): Promise<void> {
    const mine = ++generation;
    let config: PageConfig | null = null;
    try {
      config = readConfig(await link.send({ type: 'page/config' }));
    } catch {
      config = null;
    }
    if (mine !== generation || stopped) return; // a newer answer is on its way
    if (!config?.enabled) {
      active?.stop();
      active = null;
      return;
    }
    if (active && config.defaultCountry === country) {
      active.setAgentName(config.agentName);
      return;
    }
    active?.stop();
    country = config.defaultCountry;
    active = startClickToCall(link, config, doc, { getShadowRoot });
  }

  browser.runtime.onMessage.addListener((message, sender, sendResponse) => {
    // Only our background can reach this listener; check anyway, and answer nothing else.
    if (sender.id !== browser.runtime.id) return undefined;
    const type = (message as { type?: unknown } | null)?.type;
    if (type === 'page/refresh') {
      if (!stopped) void configure();
      sendResponse(true); // "a script is here": the background injects none
      return undefined;
    }
    if (type !== 'page/selection') return undefined;
    const text = selectedText(doc);
    // Frames without a selection stay silent so the frame that has one answers.
    if (!text) return undefined;
    sendResponse(text);
    return undefined;
  });

  // Editors that make the whole document editable (designMode) are left alone.
  if (doc.designMode !== 'on' && doc.documentElement?.namespaceURI === 'http://www.w3.org/1999/xhtml') void configure();

  return {
    stop() {
      stopped = true;
      active?.stop();
      active = null;
    },
    current: () => active,
  };
}
