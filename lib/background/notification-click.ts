/**
 * A click on a call's notification (`call-<callId>`, made by calls-service) opens that call in the side panel.
 * Chromium dispatches notifications.onClicked with a user gesture, which ends at the first `await`: so the panel is
 * pointed at the call and opened synchronously in the listener, with a window id known in advance. Where that is
 * refused (no window known yet; Firefox, whose sidebarAction.open does not count a notification click as a user
 * action) the call opens in a tab of its own instead (sidepanel.html?call=<id>). A panel already open is told too.
 */
import { browser } from '../browser';

export const CALL_NOTIFICATION_PREFIX = 'call-';

/** The call a notification is about, or null for any other notification. */
export function callIdOfNotification(notificationId: string): string | null {
  if (!notificationId.startsWith(CALL_NOTIFICATION_PREFIX)) return null;
  const callId = notificationId.slice(CALL_NOTIFICATION_PREFIX.length);
  return callId ? callId : null;
}

export function callPanelPath(callId: string): string {
  return `/sidepanel.html?call=${encodeURIComponent(callId)}`;
}

interface SidePanelApi {
  open(options: { windowId: number }): Promise<void>;
  setOptions(options: { path?: string }): Promise<void>;
}
interface SidebarActionApi {
  open(): Promise<void>;
  setPanel(details: { panel: string }): Promise<void>;
}

/** What opening needs from the browser, injectable for tests. */
export interface NotificationClickDeps {
  sidePanel: Partial<SidePanelApi> | undefined;
  sidebarAction: Partial<SidebarActionApi> | undefined;
  /** The window the person last used, looked up before the click (null when not known yet). */
  windowId: number | null;
  getURL(path: string): string;
  openTab(url: string): Promise<unknown>;
  /** Tells a side panel already open to show the call ('panel/open', as the popup does). */
  tellPanels(callId: string): Promise<unknown>;
  clear(notificationId: string): Promise<unknown>;
}

/** Starts opening the panel on the call, synchronously; null when this browser cannot from here. */
function startOpening(callId: string, deps: NotificationClickDeps): Promise<unknown> | null {
  const path = callPanelPath(callId);
  try {
    if (typeof deps.sidePanel?.open === 'function') {
      if (deps.windowId === null) return null;
      // Neither is awaited before open(): an await would end the gesture. The calls reach the browser in order.
      void deps.sidePanel.setOptions?.({ path })?.catch(() => undefined);
      return deps.sidePanel.open({ windowId: deps.windowId });
    }
    if (typeof deps.sidebarAction?.open === 'function') {
      void deps.sidebarAction.setPanel?.({ panel: deps.getURL(path) })?.catch(() => undefined);
      return deps.sidebarAction.open();
    }
  } catch {
    // Refused synchronously: the tab below.
  }
  return null;
}

/** How the call was shown: in the side panel, in a tab, or not at all (not a call's notification). */
export type ClickOutcome = 'panel' | 'tab' | null;

/** Call from the onClicked listener before any `await`. */
export async function openCallFromNotification(notificationId: string, deps: NotificationClickDeps): Promise<ClickOutcome> {
  const callId = callIdOfNotification(notificationId);
  if (!callId) return null;
  const opening = startOpening(callId, deps);
  const opened = opening ? await opening.then(() => true, () => false) : false;
  void deps.clear(notificationId).catch(() => undefined);
  if (opened) {
    // A panel that was open already keeps its page: it switches to the call on this message.
    await deps.tellPanels(callId).catch(() => undefined);
    return 'panel';
  }
  await deps.openTab(deps.getURL(callPanelPath(callId)));
  return 'tab';
}

/** Registers the listener, keeping the last focused window's id at hand for the synchronous open. */
export function wireNotificationClicks(): void {
  let windowId: number | null = null;
  const remember = (id: number | undefined) => {
    if (typeof id === 'number' && id >= 0) windowId = id;
  };
  void browser.windows
    ?.getLastFocused()
    .then((win) => remember(win.id))
    .catch(() => undefined);
  browser.windows?.onFocusChanged.addListener((id) => remember(id));
  browser.notifications?.onClicked.addListener((notificationId) => {
    void openCallFromNotification(notificationId, {
      sidePanel: (globalThis as { chrome?: { sidePanel?: Partial<SidePanelApi> } }).chrome?.sidePanel,
      sidebarAction: (browser as unknown as { sidebarAction?: Partial<SidebarActionApi> }).sidebarAction,
      windowId,
      getURL: (path) => browser.runtime.getURL(path as '/sidepanel.html'),
      openTab: (url) => browser.tabs.create({ url }),
      tellPanels: (callId) => browser.runtime.sendMessage({ type: 'panel/open', callId }),
      clear: (id) => browser.notifications.clear(id),
    });
  });
}
