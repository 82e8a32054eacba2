/**
 * Where the content script runs: registered for the site rules (never injected everywhere in
 * "only listed sites" mode), kept in line with changes, and told of changes by data-free commands.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  ALL_SITES,
  followDefaultAgent,
  hostPatterns,
  refreshOpenPages,
  SCRIPT_FILE,
  SCRIPT_ID,
  scriptPlan,
  sendPageCommand,
  syncPageScripts,
} from '../../../lib/background/page-scripts';
import { pageCommand } from '../../../lib/page/messages';
import { DATA } from '../../../lib/storage-keys';
import { records } from '../../../lib/store/records';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/settings/schema';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const sites = (s: Partial<Settings['sites']>): Settings['sites'] => ({ ...DEFAULT_SETTINGS.sites, on: true, ...s });

describe('scriptPlan', () => {
  it('only listed sites: the listed hosts and their subdomains, paused ones excluded; nowhere when none is listed', () => {
    expect(scriptPlan(sites({ mode: 'only-listed', listed: ['crm.example.com', '*.mail.example.org'], paused: ['crm.example.com'] }))).toEqual({
      matches: ['*://crm.example.com/*', '*://*.crm.example.com/*', '*://mail.example.org/*', '*://*.mail.example.org/*'],
      excludeMatches: ['*://crm.example.com/*', '*://*.crm.example.com/*'],
    });
    expect(scriptPlan(sites({ mode: 'only-listed', listed: [] }))).toBeNull();
    expect(scriptPlan(sites({ mode: 'only-listed', listed: ['not a host', 'https://x.example/path'] }))).toBeNull();
  });

  it('everywhere: every http(s) page but the paused hosts; except listed: also without the listed ones', () => {
    expect(scriptPlan(sites({ mode: 'everywhere', paused: ['127.0.0.1'] }))).toEqual({ matches: [ALL_SITES], excludeMatches: ['*://127.0.0.1/*'] });
    expect(scriptPlan(sites({ mode: 'everywhere' }))).toEqual({ matches: [ALL_SITES], excludeMatches: [] });
    expect(scriptPlan(sites({ mode: 'except-listed', listed: ['bank.example'], paused: ['bank.example', 'news.example'] }))).toEqual({
      matches: [ALL_SITES],
      excludeMatches: ['*://bank.example/*', '*://*.bank.example/*', '*://news.example/*', '*://*.news.example/*'],
    });
  });

  it('turns only host names into patterns: one bad pattern would make the browser refuse them all', () => {
    expect(hostPatterns(' CRM.Example.com ')).toEqual(['*://crm.example.com/*', '*://*.crm.example.com/*']);
    expect(hostPatterns('localhost')).toEqual(['*://localhost/*', '*://*.localhost/*']);
    expect(hostPatterns('10.0.0.7')).toEqual(['*://10.0.0.7/*']);
    for (const bad of ['', '*', 'crm.example.com/path', 'https://crm.example.com', 'a b.example', 'crm.example.com:8080', '-x.example', 'x..example', '*://*/*']) {
      expect(hostPatterns(bad), bad).toEqual([]);
    }
  });
});

/** The `scripting` API as the browser keeps it: registered scripts by id. */
function fakeScripting(manifestVersion = 3) {
  const registered = new Map<string, { id: string; matches?: string[]; excludeMatches?: string[]; js?: string[]; allFrames?: boolean; matchOriginAsFallback?: boolean }>();
  const calls: string[] = [];
  vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({ manifest_version: manifestVersion } as never);
  Object.assign(fakeBrowser.scripting, {
    getRegisteredContentScripts: vi.fn(async ({ ids }: { ids: string[] }) => ids.flatMap((id) => (registered.has(id) ? [registered.get(id)!] : []))),
    registerContentScripts: vi.fn(async (scripts: { id: string }[]) => {
      for (const s of scripts) {
        if (registered.has(s.id)) throw new Error(`Duplicate script ID '${s.id}'`);
        registered.set(s.id, s);
      }
      calls.push('register');
    }),
    unregisterContentScripts: vi.fn(async ({ ids }: { ids: string[] }) => {
      ids.forEach((id) => registered.delete(id));
      calls.push('unregister');
    }),
    executeScript: vi.fn(async () => []),
  });
  return { registered, calls };
}

async function storeSites(s: Partial<Settings['sites']>) {
  await fakeBrowser.storage.local.set({ settings: { ...DEFAULT_SETTINGS, sites: sites(s) } });
}

/** The page origins the browser granted (`permissions.contains` answers from this list). */
let granted: (pattern: string) => boolean = () => true;
beforeEach(() => {
  fakeBrowser.reset();
  granted = () => true;
  fakeBrowser.permissions.contains = (async ({ origins }: { origins: string[] }) => origins.every((o) => granted(o))) as never;
});
afterEach(() => vi.restoreAllMocks());

describe('the script runs only where the user granted access', () => {
  it('registers for the granted origins of the rules, and for none when nothing is granted', async () => {
    const { registered } = fakeScripting();
    granted = (p) => p.includes('mail.example.org');
    await storeSites({ mode: 'only-listed', listed: ['crm.example.com', 'mail.example.org'] });
    await syncPageScripts();
    expect(registered.get(SCRIPT_ID)?.matches).toEqual(['*://mail.example.org/*', '*://*.mail.example.org/*']);
    granted = () => false;
    await storeSites({ mode: 'everywhere' });
    await syncPageScripts();
    expect(registered.size).toBe(0);
  });

  it('click-to-call off: nothing registered, even where the browser still grants every page', async () => {
    const { registered } = fakeScripting();
    await storeSites({ mode: 'everywhere' });
    await syncPageScripts();
    expect(registered.get(SCRIPT_ID)?.matches).toEqual([ALL_SITES]);
    await storeSites({ on: false, mode: 'everywhere' });
    await syncPageScripts();
    expect(registered.size).toBe(0);
  });

  it('a browser that cannot answer counts as no grant', async () => {
    const { registered } = fakeScripting();
    fakeBrowser.permissions.contains = (async () => {
      throw new Error('permissions unavailable');
    }) as never;
    await storeSites({ mode: 'everywhere' });
    await syncPageScripts();
    expect(registered.size).toBe(0);
  });
});

describe('syncPageScripts (MV3 scripting)', () => {
  it('registers the script for the rules, in every frame, and changes it only when the rules change', async () => {
    const { registered, calls } = fakeScripting();
    await storeSites({ mode: 'only-listed', listed: ['crm.example.com'] });
    await syncPageScripts();
    expect(registered.get(SCRIPT_ID)).toMatchObject({ js: [SCRIPT_FILE], matches: ['*://crm.example.com/*', '*://*.crm.example.com/*'], allFrames: true });
    // Frames without a URL of their own (about:blank, srcdoc, blob:) on those sites too.
    expect(registered.get(SCRIPT_ID)).toMatchObject({ matchOriginAsFallback: true });
    await syncPageScripts(); // a restarted worker: nothing to do
    expect(calls).toEqual(['register']);

    await storeSites({ mode: 'only-listed', listed: ['crm.example.com'], paused: ['crm.example.com'] });
    await syncPageScripts();
    expect(registered.get(SCRIPT_ID)?.excludeMatches).toEqual(['*://crm.example.com/*', '*://*.crm.example.com/*']);
    expect(calls).toEqual(['register', 'unregister', 'register']);

    await storeSites({ mode: 'only-listed', listed: [] });
    await syncPageScripts();
    expect(registered.size).toBe(0);
  });

  it('renews a registration an older version made without matchOriginAsFallback', async () => {
    const { registered, calls } = fakeScripting();
    registered.set(SCRIPT_ID, { id: SCRIPT_ID, js: [SCRIPT_FILE], matches: [ALL_SITES], allFrames: true });
    await storeSites({ mode: 'everywhere' });
    await syncPageScripts();
    expect(calls).toEqual(['unregister', 'register']);
    expect(registered.get(SCRIPT_ID)).toMatchObject({ matches: [ALL_SITES], matchOriginAsFallback: true });
  });

  it('changes made together end in the last one', async () => {
    const { registered } = fakeScripting();
    await storeSites({ mode: 'everywhere' });
    await Promise.all([syncPageScripts(), syncPageScripts(), syncPageScripts()]);
    expect(registered.get(SCRIPT_ID)?.matches).toEqual([ALL_SITES]);
  });
});

describe('syncPageScripts (Firefox MV2 contentScripts)', () => {
  it('registers through contentScripts.register and replaces the registration on change', async () => {
    vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({ manifest_version: 2 } as never);
    const live: { matches: string[]; excludeMatches?: string[]; unregistered: boolean }[] = [];
    (fakeBrowser as unknown as { contentScripts: unknown }).contentScripts = {
      register: vi.fn(async (options: { matches: string[]; excludeMatches?: string[] }) => {
        // As Firefox does.
        if (options.excludeMatches?.length === 0) throw new Error('Error processing excludeMatches: Array requires at least 1 items; you have 0');
        const entry = { ...options, unregistered: false };
        live.push(entry);
        return { unregister: async () => void (entry.unregistered = true) };
      }),
    };
    await storeSites({ mode: 'everywhere', paused: ['bank.example'] });
    await syncPageScripts();
    await storeSites({ mode: 'only-listed', listed: ['crm.example.com'] });
    await syncPageScripts();
    await storeSites({ mode: 'everywhere' });
    await syncPageScripts();
    expect(live.map((e) => [e.matches, e.excludeMatches, e.unregistered])).toEqual([
      [[ALL_SITES], ['*://bank.example/*', '*://*.bank.example/*'], true],
      [['*://crm.example.com/*', '*://*.crm.example.com/*'], undefined, true],
      [[ALL_SITES], undefined, false],
    ]);
  });

  it('asks for about:blank and srcdoc frames, and blob: frames where Firefox knows matchOriginAsFallback', async () => {
    vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({ manifest_version: 2 } as never);
    const live: Record<string, unknown>[] = [];
    let knowsFallback = false;
    (fakeBrowser as unknown as { contentScripts: unknown }).contentScripts = {
      register: vi.fn(async (options: Record<string, unknown>) => {
        // As a Firefox whose schema lacks a property does.
        if ('matchOriginAsFallback' in options && !knowsFallback) throw new Error('Type error for parameter contentScriptOptions (Unexpected property "matchOriginAsFallback")');
        live.push(options);
        return { unregister: async () => undefined };
      }),
    };
    // (A plan unlike the previous test's last one: the MV2 registration lives as long as the module.)
    await storeSites({ mode: 'everywhere', paused: ['shop.example'] });
    await syncPageScripts();
    expect(live.at(-1)).toMatchObject({ allFrames: true, matchAboutBlank: true });
    expect(live.at(-1)).not.toHaveProperty('matchOriginAsFallback');
    knowsFallback = true;
    await storeSites({ mode: 'everywhere', paused: ['bank.example'] });
    await syncPageScripts();
    expect(live.at(-1)).toMatchObject({ allFrames: true, matchAboutBlank: true, matchOriginAsFallback: true });
  });
});

describe('what the background sends to content scripts', () => {
  it('only data-free page commands', async () => {
    const sent: unknown[] = [];
    vi.spyOn(fakeBrowser.tabs, 'sendMessage').mockImplementation((async (_tabId: number, message: unknown) => sent.push(message)) as never);
    await sendPageCommand(1, { type: 'page/refresh' });
    await sendPageCommand(1, { type: 'page/selection' });
    await expect(sendPageCommand(1, { type: 'page/refresh', settings: {} } as never)).rejects.toThrow();
    expect(sent).toEqual([{ type: 'page/refresh' }, { type: 'page/selection' }]);
    for (const message of sent) expect(pageCommand.parse(message)).toEqual({ type: (message as { type: string }).type });
  });

  it('every tabs.sendMessage in the extension goes through sendPageCommand', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name)) files.push(path);
      }
    };
    for (const dir of ['lib', 'entrypoints', 'components']) walk(join(ROOT, dir));
    const senders = files.filter((f) => /tabs\s*\.\s*sendMessage\s*\(/.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    expect(senders).toEqual(['lib/background/page-scripts.ts']);
  });

  // Firefox MV2 injects through scripting too: its tabs.executeScript refuses blob: frames.
  it.each([3, 2])('open pages are told to refresh; a loaded page of a site now on with no script gets it, others do not (MV%i)', async (manifestVersion) => {
    fakeScripting(manifestVersion);
    const tabsExecute = vi.fn(async () => []);
    Object.assign(fakeBrowser.tabs, { executeScript: tabsExecute });
    const tabs = [
      { id: 1, url: 'https://crm.example.com/a', status: 'complete', script: true },
      { id: 2, url: 'https://crm.example.com/b', status: 'complete', script: false },
      { id: 3, url: 'https://other.example.org/', status: 'complete', script: false },
      { id: 4, url: 'https://crm.example.com/c', status: 'loading', script: false },
      { id: 5, url: 'chrome://settings/', status: 'complete', script: false },
    ];
    vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue(tabs as never);
    const sent: [number, unknown][] = [];
    vi.spyOn(fakeBrowser.tabs, 'sendMessage').mockImplementation((async (tabId: number, message: unknown) => {
      sent.push([tabId, message]);
      if (!tabs.find((t) => t.id === tabId)!.script) throw new Error('Could not establish connection. Receiving end does not exist.');
      return true;
    }) as never);
    await refreshOpenPages(sites({ mode: 'only-listed', listed: ['crm.example.com'] }));
    expect(sent.map(([, m]) => m)).toEqual(tabs.map(() => ({ type: 'page/refresh' })));
    expect(vi.mocked(fakeBrowser.scripting.executeScript).mock.calls).toEqual([[{ target: { tabId: 2, allFrames: true }, files: [SCRIPT_FILE] }]]);
    expect(tabsExecute).not.toHaveBeenCalled();
  });
});

describe('pages are told when the agent on their call button changed, and only then', () => {
  const cache = (agents: Array<{ id: string; name: string }>) => ({
    baseUrl: DEFAULT_SETTINGS.baseUrl,
    agents: agents.map((a) => ({ ...a, status: null, manual: false })),
    fetchedAt: Date.now(),
    listRouteMissing: false,
  });
  const SALES = { id: 'agent-1', name: 'Sales' };
  const SUPPORT = { id: 'agent-2', name: 'Support' };

  it('a call with the same agent, or the same list fetched again, tells no page; another agent or a renamed one does', async () => {
    await records.agentsCache.write(cache([SALES, SUPPORT]));
    await records.lastAgentId.write(SALES.id);
    let told = 0;
    const follow = followDefaultAgent(() => told++);
    const settled = async (name: string) => {
      follow.onChange({ name });
      await follow.settled();
    };
    // Every Confirm writes the last agent; every popup fetches the list.
    await records.lastAgentId.write(SALES.id);
    await settled(DATA.lastAgentId);
    await records.agentsCache.write(cache([SALES, SUPPORT]));
    await settled(DATA.agentsCache);
    expect(told).toBe(0);
    await records.lastAgentId.write(SUPPORT.id);
    await settled(DATA.lastAgentId);
    expect(told).toBe(1);
    await records.agentsCache.write(cache([SALES, { ...SUPPORT, name: 'Support (new)' }]));
    await settled(DATA.agentsCache);
    expect(told).toBe(2);
    // Other data says nothing about the button.
    await settled('calls');
    expect(told).toBe(2);
  });
});
