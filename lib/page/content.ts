/**
 * The content script's life: ask the background whether this frame should work (and with which
 * country and agent name), start or stop click-to-call accordingly, ask again when the background
 * says the settings changed (`page/refresh`), and answer its request for the selected text (the
 * keyboard shortcut).
 *
 * This is the script's small first stage. The finder (click-to-call with libphonenumber-js) is a
 * second file, loaded into this frame only once the document may hold a number (./first-look.ts):
 * a page without one pays for a text read, not for the phone library.
 *
 * It talks only to the extension (`runtime.sendMessage`, `runtime.onMessage` from our own id) and
 * neither reads nor watches storage: the background's commands carry no data (lib/page/messages.ts).
 */
import type { PageConfig, PageRequest } from './messages';
import type { ClickToCall, PageLink, startClickToCall } from './click-to-call';
import { watchForNumbers, type NumberWatch } from './first-look';
import { shadowRootOpener, type DomApi } from './shadow-roots';

export type StartClickToCall = typeof startClickToCall;
/** Brings the finder into this frame; null when it could not be loaded. */
export type LoadFinder = () => Promise<StartClickToCall | null>;

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

/** A config's country names: at most about 16 languages' worth. */
const MAX_PLACES = 200_000;

/**
 * The languages a frame is written in: its document's, those of up to 200 elements that say theirs
 * (a record shown in each partner's language), and the browser's. Country names come back for them.
 */
export function pageLanguages(doc: Document): string[] {
  const tags = new Set<string>();
  const add = (tag: string | null | undefined) => {
    if (tag && tags.size < 24 && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/.test(tag) && !/^en\b/i.test(tag)) tags.add(tag);
  };
  add(doc.documentElement?.lang);
  const marked = doc.querySelectorAll?.('[lang]') ?? [];
  for (let i = 0; i < marked.length && i < 200; i++) add(marked[i]!.getAttribute('lang'));
  for (const tag of doc.defaultView?.navigator?.languages ?? []) add(tag);
  return [...tags];
}

export function readConfig(value: unknown): PageConfig | null {
  if (!value || typeof value !== 'object') return null;
  const c = value as Record<string, unknown>;
  if (typeof c.enabled !== 'boolean' || typeof c.defaultCountry !== 'string') return null;
  return {
    enabled: c.enabled,
    defaultCountry: c.defaultCountry,
    agentName: typeof c.agentName === 'string' && c.agentName.trim() ? c.agentName.trim().slice(0, 60) : null,
    ...(typeof c.places === 'string' && c.places.length <= MAX_PLACES ? { places: c.places } : {}),
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

/**
 * This document is the one the user is in: it has focus (a parent frame's document has it too while
 * a child frame is focused) and its focused element, followed into shadow roots, is not a frame of
 * its own (then the focus is further down).
 */
export function hasFocusHere(doc: Document, getShadowRoot: (element: Element) => ShadowRoot | null = (el) => el.shadowRoot): boolean {
  if (!doc.hasFocus()) return false;
  let active = doc.activeElement;
  for (let depth = 0; active && depth < 32; depth++) {
    const inner = getShadowRoot(active)?.activeElement;
    if (!inner) break;
    active = inner;
  }
  return !active || !/^(?:iframe|frame|object|embed|portal|fencedframe)$/.test(active.localName);
}

export function runContentScript(browser: ContentBrowser, loadFinder: LoadFinder, doc: Document = document): { stop(): void; current(): ClickToCall | null } {
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
  let watch: NumberWatch | null = null;
  let start: StartClickToCall | null = null;
  let config: PageConfig | null = null;
  let generation = 0;
  /** Grows each time click-to-call is halted: a finder that arrives after that is not started. */
  let epoch = 0;
  let stopped = false;
  // `top` is readable across origins: no try needed.
  const isTop = () => doc.defaultView === doc.defaultView?.top;

  function halt(): void {
    epoch++;
    watch?.stop();
    watch = null;
    active?.stop();
    active = null;
  }

  /** Starts click-to-call with the current config once the finder is here (unless halted meanwhile). */
  async function begin(mine: number): Promise<void> {
    if (!start) {
      try {
        start = await loadFinder();
      } catch {
        start = null;
      }
    }
    if (mine !== epoch || stopped || !start || !config?.enabled) return;
    watch = null;
    // Only ever called once watchForNumbers has seen a possible number.
    active = start(link, config, doc, { getShadowRoot, mayHoldNumbers: true });
  }

  async function configure(): Promise<void> {
    const mine = ++generation;
    let next: PageConfig | null = null;
    try {
      next = readConfig(await link.send({ type: 'page/config', langs: pageLanguages(doc) }));
    } catch {
      next = null;
    }
    if (mine !== generation || stopped) return; // a newer answer is on its way
    const before = config;
    config = next;
    if (!next?.enabled) return halt();
    if (active && before?.defaultCountry === next.defaultCountry) {
      active.setAgentName(next.agentName);
      return;
    }
    // Still waiting for a number, or for the finder: it starts with the config current then.
    if (!active && watch) return;
    halt();
    const now = epoch;
    const watching = watchForNumbers(
      doc,
      getShadowRoot,
      () => void begin(now),
      // The top frame reports once even when it found nothing, so the popup knows the page ("No numbers on …").
      () => {
        if (isTop()) link.send({ type: 'page/numbers', numbers: [], total: 0 }).catch(() => undefined);
      },
    );
    // A finder already here started at once (inside watchForNumbers): nothing left to wait for.
    if (!active && now === epoch) watch = watching;
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
    // Only the frame the user is in answers; it sends its selection as a message of its own, so the
    // background learns from the browser which frame (and site) it came from.
    if (stopped || !hasFocusHere(doc, getShadowRoot)) return undefined;
    link.send({ type: 'page/selected', text: selectedText(doc) }).catch(() => undefined);
    sendResponse(true);
    return undefined;
  });

  // Editors that make the whole document editable (designMode) are left alone.
  if (doc.designMode !== 'on' && doc.documentElement?.namespaceURI === 'http://www.w3.org/1999/xhtml') void configure();

  return {
    stop() {
      stopped = true;
      halt();
    },
    current: () => active,
  };
}
