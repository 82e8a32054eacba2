/**
 * The one confirmation window for calls that start outside the popup (a page's overlay or tel: link,
 * the context menu, the shortcut). Pages must not be able to rush a call:
 * - one confirmation at a time: a new request shows itself in the open window (and focuses it)
 *   instead of opening another, so a page cannot pile windows up;
 * - each tab's requests are throttled (`RequestThrottle`); the excess is dropped, not queued;
 * - the window says which site asked (`site`, from the sender's browser-set URL, never page text),
 *   and its Confirm button is armed only after the window has been shown a moment (DialConfirmation).
 */
import { browser } from '../browser';
import type { AskingFrame } from '../page/frame-host';
import { sessionSet } from './tab-numbers';

export type ConfirmationSource = 'overlay' | 'tel-link' | 'context-menu' | 'shortcut';

export interface ConfirmationRequest {
  /** As found or selected; the form checks it. */
  number: string;
  /** The number as the page wrote it, when that differs from `number` (other scripts' digits): shown beside it. */
  written?: string;
  country: string;
  source: ConfirmationSource;
  /**
   * Who asked, from the browser's sender fields (lib/page/frame-host.ts askingFrame): the asking
   * frame's site and the tab's top site ('' when unknown), or a frame with no site of its own inside
   * the top site.
   */
  asker: AskingFrame;
  agentId?: string | null;
}

/**
 * `popup.html?…`: the popup's dial form, prefilled, opening its confirmation at once (entrypoints/popup/App.tsx).
 * `site` (and `top` when a frame of another site asked), or `inside` for a frame with no site of its own.
 */
export function confirmationPath(request: ConfirmationRequest): string {
  const params = new URLSearchParams({ dial: request.number, country: request.country, source: request.source });
  if (request.agentId) params.set('agent', request.agentId);
  const asker = request.asker;
  if ('inside' in asker) params.set('inside', asker.inside);
  else {
    if (asker.site) params.set('site', asker.site);
    if (asker.topSite && asker.topSite !== asker.site) params.set('top', asker.topSite);
  }
  if (request.written) params.set('written', request.written);
  return `/popup.html?${params}`;
}

/**
 * At most `max` requests per key within any `windowMs`; the rest are refused. Pure: the caller
 * passes the clock. Old entries are pruned as keys are used, so it stays small.
 */
export class RequestThrottle {
  private readonly seen = new Map<string, number[]>();
  constructor(private readonly limits: { max: number; windowMs: number }) {}

  allow(key: string | number, now: number): boolean {
    const id = String(key);
    const recent = (this.seen.get(id) ?? []).filter((at) => now - at < this.limits.windowMs);
    const allowed = recent.length < this.limits.max;
    if (allowed) recent.push(now);
    if (recent.length) this.seen.set(id, recent);
    else this.seen.delete(id);
    if (this.seen.size > 1000) this.prune(now);
    return allowed;
  }

  private prune(now: number): void {
    for (const [id, times] of this.seen) if (times.every((at) => now - at >= this.limits.windowMs)) this.seen.delete(id);
  }
}

/** A tab's page requests: 3 in any 10 seconds is more than a person clicks numbers; more is a page at work. */
export const PAGE_REQUEST_LIMITS = { max: 3, windowMs: 10_000 };

/** The confirmation window as the browser knows it (no windows API on Firefox for Android: a tab). */
export interface OpenConfirmation {
  windowId?: number;
  tabId: number;
}

/** The browser side, injected so the rules above are testable with plain values. */
export interface ConfirmationWindows {
  /** Opens a new confirmation showing `url`, focused. */
  open(url: string): Promise<OpenConfirmation>;
  /** Shows `url` in `open` and focuses it; false when that window is gone (closed by the user). */
  reuse(open: OpenConfirmation, url: string): Promise<boolean>;
}

export interface ConfirmationMemory {
  get(): Promise<OpenConfirmation | null>;
  set(open: OpenConfirmation | null): Promise<void>;
}

/**
 * Shows confirmations one at a time. Requests are handled in order, so two arriving together
 * (a double click) end in one window showing the later one.
 */
export function createConfirmations(windows: ConfirmationWindows, memory: ConfirmationMemory): { show(path: string): Promise<void> } {
  let queue: Promise<unknown> = Promise.resolve();
  async function showNow(url: string): Promise<void> {
    const current = await memory.get();
    if (current && (await windows.reuse(current, url))) return;
    const opened = await windows.open(url);
    try {
      await memory.set(opened);
    } catch {
      // Not remembered (storage refused): the window is open all the same; the next request opens another.
    }
  }
  return {
    show(path) {
      const url = browser.runtime.getURL(path as '/popup.html');
      const next = queue.then(() => showNow(url));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

const OPEN_KEY = 'page.confirmation';

/** Remembered in storage.session: a restarted worker still finds the open window. */
export const sessionMemory: ConfirmationMemory = {
  async get() {
    const stored = (await browser.storage.session.get(OPEN_KEY))[OPEN_KEY] as OpenConfirmation | undefined;
    return stored && typeof stored.tabId === 'number' ? stored : null;
  },
  async set(open) {
    if (open) await sessionSet({ [OPEN_KEY]: open });
    else await browser.storage.session.remove(OPEN_KEY);
  },
};

export const browserWindows: ConfirmationWindows = {
  async open(url) {
    try {
      const created = await browser.windows.create({ url, type: 'popup', width: 420, height: 640, focused: true });
      const tabId = created.tabs?.[0]?.id;
      if (created.id !== undefined && tabId !== undefined) return { windowId: created.id, tabId };
    } catch {
      // No windows API (Firefox for Android): a tab.
    }
    const tab = await browser.tabs.create({ url });
    return { tabId: tab.id ?? -1 };
  },
  async reuse(open, url) {
    try {
      const tab = await browser.tabs.get(open.tabId);
      // Only our own confirmation page is ever reused (a tab id is not reused within a session, but check).
      const popup = browser.runtime.getURL('/popup.html');
      if (tab.url !== undefined && !tab.url.startsWith(popup)) return false;
      if (open.windowId !== undefined && tab.windowId !== open.windowId) return false;
      await browser.tabs.update(open.tabId, { url, active: true });
      if (open.windowId !== undefined) await browser.windows.update(open.windowId, { focused: true });
      return true;
    } catch {
      return false;
    }
  },
};
