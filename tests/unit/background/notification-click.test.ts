// A click on a call's notification opens that call: the side panel when the browser lets it, else a tab.
import { describe, expect, it, vi } from 'vitest';
import { callIdOfNotification, openCallFromNotification, type NotificationClickDeps } from '../../../lib/background/notification-click';

function deps(over: Partial<NotificationClickDeps> = {}) {
  const log: string[] = [];
  const base: NotificationClickDeps = {
    sidePanel: {
      setOptions: vi.fn(async (o: { path?: string }) => void log.push(`setOptions ${o.path}`)),
      open: vi.fn(async (o: { windowId: number }) => void log.push(`open ${o.windowId}`)),
    },
    sidebarAction: undefined,
    windowId: 7,
    getURL: (path) => `chrome-extension://ext${path}`,
    openTab: vi.fn(async (url: string) => void log.push(`tab ${url}`)),
    tellPanels: vi.fn(async (callId: string) => void log.push(`tell ${callId}`)),
    clear: vi.fn(async (id: string) => void log.push(`clear ${id}`)),
  };
  return { log, deps: { ...base, ...over } };
}

describe('callIdOfNotification', () => {
  it('reads call-<id> only', () => {
    expect(callIdOfNotification('call-abc-123')).toBe('abc-123');
    expect(callIdOfNotification('call-')).toBeNull();
    expect(callIdOfNotification('batch-1')).toBeNull();
  });
});

describe('openCallFromNotification', () => {
  it('points the side panel at the call and opens it before anything is awaited (the gesture ends at the first await)', async () => {
    const { log, deps: d } = deps();
    const done = openCallFromNotification('call-c1', d);
    // Synchronously, before the promise settles: the order the browser receives them.
    expect(log).toEqual(['setOptions /sidepanel.html?call=c1', 'open 7']);
    expect(await done).toBe('panel');
    expect(log).toContain('tell c1');
    expect(log).toContain('clear call-c1');
    expect(d.openTab).not.toHaveBeenCalled();
  });

  it('opens the call in a tab when the side panel refuses (no user gesture)', async () => {
    const { log, deps: d } = deps({
      sidePanel: { setOptions: async () => undefined, open: async () => Promise.reject(new Error('sidePanel.open() may only be called in response to a user gesture.')) },
    });
    expect(await openCallFromNotification('call-c2', d)).toBe('tab');
    expect(log).toContain('tab chrome-extension://ext/sidepanel.html?call=c2');
  });

  it('opens a tab when no window is known yet, and on Firefox when the sidebar refuses', async () => {
    const noWindow = deps({ windowId: null });
    expect(await openCallFromNotification('call-c3', noWindow.deps)).toBe('tab');
    expect(noWindow.deps.sidePanel!.open).not.toHaveBeenCalled();
    const firefox = deps({ sidePanel: undefined, sidebarAction: { setPanel: async () => undefined, open: async () => Promise.reject(new Error('not a user action')) } });
    expect(await openCallFromNotification('call-c4', firefox.deps)).toBe('tab');
    expect(firefox.log).toContain('tab chrome-extension://ext/sidepanel.html?call=c4');
  });

  it('opens the Firefox sidebar on the call when it may', async () => {
    const setPanel = vi.fn(async () => undefined);
    const { deps: d } = deps({ sidePanel: undefined, sidebarAction: { setPanel, open: async () => undefined } });
    expect(await openCallFromNotification('call-c5', d)).toBe('panel');
    expect(setPanel).toHaveBeenCalledWith({ panel: 'chrome-extension://ext/sidepanel.html?call=c5' });
  });

  it('ignores notifications that are not a call’s, and escapes the id in the address', async () => {
    const { log, deps: d } = deps();
    expect(await openCallFromNotification('other', d)).toBeNull();
    expect(log).toEqual([]);
    await openCallFromNotification('call-a&b', d);
    expect(log[0]).toBe('setOptions /sidepanel.html?call=a%26b');
  });
});
