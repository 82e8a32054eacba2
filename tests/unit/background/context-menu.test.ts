/**
 * The context menu's "Call …" on a selection names who asked as a page's own request does: the frame
 * holding the selection, from the browser's click fields (`frameUrl`, `frameId`, `pageUrl`), never the
 * page's text. A frame of another site is named with the top page; a frame with no site of its own
 * (data:, about:srcdoc, about:blank) is "a frame inside <top site>", never the top site itself.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createConfirmations, type ConfirmationWindows } from '../../../lib/background/confirmation';
import { onMenuClick } from '../../../lib/background/context-menu';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { seedData } from '../ui/helpers';

const AGENT = { id: 'agent-1', name: 'Sales', status: null, manual: false };
const TOP = 'https://crm.example.com/record/1';

/** The confirmation windows the browser would open: the query each one shows. */
function confirmations() {
  const shown: string[] = [];
  const windows: ConfirmationWindows = {
    async open(url) {
      shown.push(url);
      return { windowId: shown.length, tabId: 100 + shown.length };
    },
    async reuse() {
      return false;
    },
  };
  let remembered: Parameters<Parameters<typeof createConfirmations>[1]['set']>[0] | null = null;
  const deps = { confirmations: createConfirmations(windows, { get: async () => remembered, set: async (o) => void (remembered = o) }) };
  return { deps, params: () => Object.fromEntries(new URL(shown.at(-1)!).searchParams) };
}

beforeEach(async () => {
  fakeBrowser.reset();
  await seedData({ 'agents.cache': { baseUrl: DEFAULT_SETTINGS.baseUrl, agents: [AGENT], fetchedAt: 1, listRouteMissing: false } });
  await fakeBrowser.storage.local.set({ settings: DEFAULT_SETTINGS });
});

describe('the context menu’s confirmation names the right site', () => {
  it('a selection in the top page names that page', async () => {
    const c = confirmations();
    await onMenuClick({ selectionText: '+1 415 555 0132', pageUrl: TOP, frameId: 0 }, TOP, c.deps);
    expect(c.params()).toMatchObject({ dial: '+1 415 555 0132', source: 'context-menu', site: 'crm.example.com' });
    expect(c.params().top).toBeUndefined();
    expect(c.params().inside).toBeUndefined();
  });

  it('a selection in a frame of another site names that frame, and the top page beside it', async () => {
    const c = confirmations();
    await onMenuClick({ selectionText: '+1 415 555 0132', pageUrl: TOP, frameUrl: 'https://widgets.example.net/card', frameId: 3 }, TOP, c.deps);
    expect(c.params()).toMatchObject({ site: 'widgets.example.net', top: 'crm.example.com' });
    expect(c.params().inside).toBeUndefined();
    // A blob: frame carries its creator's origin.
    await onMenuClick({ selectionText: '+1 415 555 0132', pageUrl: TOP, frameUrl: 'blob:https://files.example.org/5f1c', frameId: 4 }, TOP, c.deps);
    expect(c.params()).toMatchObject({ site: 'files.example.org', top: 'crm.example.com' });
    // A browser that gives the frame's URL but no frame id: still the frame's.
    await onMenuClick({ selectionText: '+1 415 555 0132', pageUrl: TOP, frameUrl: 'https://widgets.example.net/card' }, TOP, c.deps);
    expect(c.params()).toMatchObject({ site: 'widgets.example.net', top: 'crm.example.com' });
  });

  it('a selection in a frame with no site of its own is "a frame inside" the top site, never the top site', async () => {
    for (const frameUrl of ['data:text/html,<p>+1 415 555 0132</p>', 'about:srcdoc', 'about:blank']) {
      for (const frameId of [5, undefined]) {
        const c = confirmations();
        await onMenuClick({ selectionText: '+1 415 555 0132', pageUrl: TOP, frameUrl, ...(frameId === undefined ? {} : { frameId }) }, TOP, c.deps);
        expect(c.params(), `${frameUrl} ${frameId}`).toMatchObject({ inside: 'crm.example.com', source: 'context-menu' });
        expect(c.params().site, `${frameUrl} ${frameId}`).toBeUndefined();
        expect(c.params().top, `${frameUrl} ${frameId}`).toBeUndefined();
      }
    }
  });
});
