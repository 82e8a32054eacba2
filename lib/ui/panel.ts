/**
 * Opening the side panel (Chrome) or sidebar (Firefox) on a call. Both browsers open it only during a
 * user gesture, which a message to the background does not carry: so the panel is opened right here,
 * synchronously inside the click handler, after pointing it at the call (`?call=<id>`). Only when
 * that is impossible is the background asked (`panel/open`), and if that fails too the panel page
 * opens in a tab.
 */
import { browser } from '../browser';
import { send } from './send';

interface SidePanelApi {
  open(options: { windowId: number }): Promise<void>;
  setOptions(options: { path?: string }): Promise<void>;
}
interface SidebarActionApi {
  open(): Promise<void>;
  setPanel(details: { panel: string }): Promise<void>;
}

export function sidePanelPath(callId?: string): string {
  return callId ? `/sidepanel.html?call=${encodeURIComponent(callId)}` : '/sidepanel.html';
}

/** Starts opening the panel; null when this browser offers no way to do it from here. */
function openDirectly(callId: string | undefined, windowId: number | null): Promise<unknown> | null {
  const path = sidePanelPath(callId);
  try {
    const sidebarAction = (browser as unknown as { sidebarAction?: Partial<SidebarActionApi> }).sidebarAction;
    if (typeof sidebarAction?.open === 'function') {
      // Not awaited: awaiting would end the user gesture before open().
      void sidebarAction.setPanel?.({ panel: browser.runtime.getURL(path) })?.catch(() => undefined);
      return sidebarAction.open();
    }
    const sidePanel = (globalThis as { chrome?: { sidePanel?: Partial<SidePanelApi> } }).chrome?.sidePanel;
    if (typeof sidePanel?.open === 'function' && windowId !== null) {
      void sidePanel.setOptions?.({ path })?.catch(() => undefined);
      return sidePanel.open({ windowId });
    }
  } catch {
    // Fall through to the background.
  }
  return null;
}

/**
 * Call from a click handler before any `await`. `windowId` is the popup's window, looked up in
 * advance (Chrome's `sidePanel.open` needs it, and looking it up inside the handler loses the gesture).
 */
export async function openCallDetails(callId: string | undefined, windowId: number | null): Promise<void> {
  const direct = openDirectly(callId, windowId);
  const opened = direct ? await direct.then(() => true, () => false) : false;
  if (opened) return;
  const reply = await send({ type: 'panel/open', ...(callId ? { callId } : {}) });
  if (!reply.ok) await browser.tabs.create({ url: browser.runtime.getURL(sidePanelPath(callId)) });
}

/** The popup's window id, for `openCallDetails`. */
export async function currentWindowId(): Promise<number | null> {
  try {
    const win = await browser.windows.getCurrent();
    return typeof win.id === 'number' ? win.id : null;
  } catch {
    return null;
  }
}
