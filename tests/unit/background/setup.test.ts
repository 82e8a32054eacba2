/**
 * The background starts on every declared platform. Firefox for Android has no `contextMenus` and
 * no `commands`: setup must still register the message and alarm listeners and resume the calls.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { CallsService } from '../../../lib/background/calls-service';

// The key store reads IndexedDB, which this test environment lacks; what UI may know of the key is not under test.
vi.mock('../../../lib/background/router', () => ({ handleUiRequest: vi.fn(), publishKeyState: vi.fn(async () => undefined) }));
// Registration is tested in page-scripts.test.ts.
vi.mock('../../../lib/background/page-scripts', () => ({ wirePageScripts: vi.fn() }));

type Removable = Record<'contextMenus' | 'commands', unknown>;
const saved: Partial<Removable> = {};

beforeEach(() => {
  fakeBrowser.reset();
  vi.spyOn(CallsService.prototype, 'runDue').mockResolvedValue(undefined);
  vi.spyOn(CallsService.prototype, 'updateBadge').mockResolvedValue(undefined);
});
afterEach(() => {
  Object.assign(fakeBrowser, saved);
  vi.restoreAllMocks();
});

async function startBackground(): Promise<void> {
  const background = (await import('../../../entrypoints/background/index')).default as unknown as { main(): void };
  background.main();
}

describe('background setup', () => {
  it('without contextMenus and commands (Firefox for Android) still listens for messages and alarms and resumes the calls', async () => {
    for (const name of ['contextMenus', 'commands'] as const) {
      saved[name] = (fakeBrowser as unknown as Removable)[name];
      delete (fakeBrowser as unknown as Partial<Removable>)[name];
    }
    await startBackground();
    expect(fakeBrowser.runtime.onMessage.hasListeners()).toBe(true);
    expect(fakeBrowser.alarms.onAlarm.hasListeners()).toBe(true);
    expect(fakeBrowser.tabs.onRemoved.hasListeners()).toBe(true);
    expect(CallsService.prototype.runDue).toHaveBeenCalled();
    expect(CallsService.prototype.updateBadge).toHaveBeenCalled();
  });

  it('with them (desktop), also wires the menu and the shortcut', async () => {
    const onClicked = vi.spyOn(fakeBrowser.contextMenus.onClicked, 'addListener').mockImplementation(() => undefined);
    const onCommand = vi.spyOn(fakeBrowser.commands.onCommand, 'addListener').mockImplementation(() => undefined);
    await startBackground();
    expect(onClicked).toHaveBeenCalledTimes(1);
    expect(onCommand).toHaveBeenCalledTimes(1);
    expect(fakeBrowser.runtime.onMessage.hasListeners()).toBe(true);
  });
});
