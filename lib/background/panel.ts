/** Opens the side panel (Chrome) or sidebar (Firefox) on a call; a tab is the fallback. */
import { browser } from '../browser';

type ChromeSidePanel = { open(options: { windowId: number }): Promise<void>; setOptions?(o: { path?: string }): Promise<void> };

export async function openPanel(callId?: string): Promise<void> {
  const path = callId ? `/sidepanel.html?call=${encodeURIComponent(callId)}` : '/sidepanel.html';
  const sidePanel = (globalThis as { chrome?: { sidePanel?: ChromeSidePanel } }).chrome?.sidePanel;
  try {
    if (sidePanel) {
      const win = await browser.windows.getLastFocused();
      await sidePanel.setOptions?.({ path });
      await sidePanel.open({ windowId: win.id! });
      return;
    }
    const sidebar = (browser as unknown as { sidebarAction?: { open(): Promise<void>; setPanel(o: { panel: string }): Promise<void> } }).sidebarAction;
    if (sidebar) {
      await sidebar.setPanel({ panel: browser.runtime.getURL(path) });
      await sidebar.open();
      return;
    }
  } catch {
    // Opening a panel needs a user gesture in some browsers; fall through to a tab.
  }
  await browser.tabs.create({ url: browser.runtime.getURL(path) });
}
