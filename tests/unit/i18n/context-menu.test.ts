import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import de from '../../../public/_locales/de/messages.json';
import en from '../../../public/_locales/en/messages.json';
import { installContextMenu } from '../../../lib/background/context-menu';
import { useCatalogues } from '../../../lib/i18n';
import { DATA } from '../../../lib/storage-keys';
import { writeRecord } from '../../../lib/store/data-db';

const cache = { baseUrl: 'http://127.0.0.1:8787', agents: [{ id: 'a1', name: 'Sales qualifier', status: 'processed', manual: false }], fetchedAt: 1, listRouteMissing: false };

beforeEach(() => {
  fakeBrowser.reset();
  useCatalogues(en);
});

describe('the context menu title', () => {
  it.each([
    [[en], 'Call "%s" with Sales qualifier'],
    [[de, en], '„%s“ mit Sales qualifier anrufen'],
  ])('names the agent, with %%s left for the browser to fill (%#)', async (catalogues, expected) => {
    useCatalogues(...catalogues);
    await writeRecord(DATA.agentsCache, cache);
    const create = vi.spyOn(fakeBrowser.contextMenus, 'create').mockImplementation((() => 1) as never);
    vi.spyOn(fakeBrowser.contextMenus, 'removeAll').mockResolvedValue(undefined as never);
    await installContextMenu();
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ title: expected, contexts: ['selection'] }));
  });
});
