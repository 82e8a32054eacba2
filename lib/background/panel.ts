/**
 * Opens the side panel (Chrome) or sidebar (Firefox) on a call. Chrome allows this only during a user
 * gesture, so the UI opens the panel itself first and asks here only as a second try; when it cannot
 * be opened this says so and the UI decides what to do (no surprise tab).
 */
import { browser } from '../browser';

type ChromeSidePanel = { open(options: { windowId: number }): Promise<void>; setOptions?(o: { path?: string }): Promise<void> };

export async function openPanel(callId?: string): Promise<void> {
  const path = callId ? `/sidepanel.html?call=${encodeURIComponent(callId)}` : '/sidepanel.html';
  const sidePanel = (globalThis as { chrome?: { sidePanel?: ChromeSidePanel } }).chrome?.sidePanel;
  if (sidePanel) {
    const win = await browser.windows.getLastFocused();
    await sidePanel.setOptions?.({ path });
    await sidePanel.open({ windowId: win.id! });
    return;
  }
  const sidebar = (browser as unknown as { sidebarAction?: { open(): Promise<void>; setPanel(o: { panel: string }): Promise<void> } }).sidebarAction;
  if (!sidebar) throw new Error('This browser has no side panel for extensions.');
  await sidebar.setPanel({ panel: browser.runtime.getURL(path as '/sidepanel.html') });
  await sidebar.open();
}
