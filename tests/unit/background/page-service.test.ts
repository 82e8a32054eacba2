/**
 * The background's side of click-to-call on pages: what a content script's request can and cannot
 * do. A page call opens (or reuses) the one confirmation window, names the site from the browser's
 * sender fields, is refused where click-to-call is off, and is throttled per tab.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Runtime } from '../../../lib/browser';
import {
  createConfirmations,
  PAGE_REQUEST_LIMITS,
  RequestThrottle,
  type ConfirmationMemory,
  type ConfirmationWindows,
  type OpenConfirmation,
} from '../../../lib/background/confirmation';
import { handlePageRequest, numbersInTab, type PageServiceDeps } from '../../../lib/background/page-service';
import { pageRequest, parseFindBatch, type PageRequest } from '../../../lib/page/messages';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/settings/schema';
import { seedData } from '../ui/helpers';
import { MAX_FIND_COUNTRIES, MAX_FIND_ITEMS, MAX_FIND_LABEL, MAX_FIND_TEXT } from '../../../lib/phone/find-batch';

const AGENT = { id: 'agent-1', name: 'Sales', status: null, manual: false };

/** Windows as the browser would keep them: each open one shows a URL until the user closes it. */
function fakeWindows() {
  const shown = new Map<number, string>();
  let nextId = 1;
  const log: string[] = [];
  const windows: ConfirmationWindows = {
    async open(url) {
      const id = nextId++;
      shown.set(id, url);
      log.push(`open ${id}`);
      return { windowId: id, tabId: 100 + id };
    },
    async reuse(open, url) {
      if (!shown.has(open.windowId!)) return false;
      shown.set(open.windowId!, url);
      log.push(`reuse ${open.windowId}`);
      return true;
    },
  };
  let remembered: OpenConfirmation | null = null;
  const memory: ConfirmationMemory = { get: async () => remembered, set: async (o) => void (remembered = o) };
  return { windows, memory, shown, log, close: (id: number) => shown.delete(id) };
}

function setup() {
  const fake = fakeWindows();
  let now = 1_000_000;
  const deps: PageServiceDeps = {
    confirmations: createConfirmations(fake.windows, fake.memory),
    throttle: new RequestThrottle(PAGE_REQUEST_LIMITS),
    now: () => now,
  };
  /** The query of the one URL each open window shows. */
  const shownParams = () => [...fake.shown.values()].map((url) => new URL(url).searchParams);
  return { ...fake, deps, shownParams, advance: (ms: number) => void (now += ms) };
}

function sender(url: string, tabId = 7, frameId = 0, tabUrl = url): Runtime.MessageSender {
  return { id: fakeBrowser.runtime.id, url, frameId, tab: { id: tabId, url: tabUrl } as Runtime.MessageSender['tab'] };
}

const call = (number = '+14155550132', source: 'overlay' | 'tel-link' = 'tel-link'): PageRequest => ({ type: 'page/call', number, source });

async function useSites(sites: Partial<Settings['sites']>) {
  await fakeBrowser.storage.local.set({ settings: { ...DEFAULT_SETTINGS, sites: { ...DEFAULT_SETTINGS.sites, ...sites } } });
}

beforeEach(async () => {
  fakeBrowser.reset();
  await seedData({ 'agents.cache': { baseUrl: DEFAULT_SETTINGS.baseUrl, agents: [AGENT], fetchedAt: 1, listRouteMissing: false } });
  await useSites({});
});
afterEach(() => vi.restoreAllMocks());

describe('a page call request', () => {
  it('opens the confirmation with the number, the default agent and the site from the sender (never from the page)', async () => {
    const t = setup();
    await handlePageRequest(call('+14155550132'), sender('https://crm.example.com/contacts/9?site=evil.example'), t.deps);
    expect(t.log).toEqual(['open 1']);
    const [params] = t.shownParams();
    expect(new URL([...t.shown.values()][0]!).pathname).toBe('/popup.html');
    expect(Object.fromEntries(params!)).toEqual({ dial: '+14155550132', country: 'US', source: 'tel-link', agent: 'agent-1', site: 'crm.example.com' });
  });

  it('from a frame on another host, names the frame and the top page', async () => {
    const t = setup();
    await handlePageRequest(call(), sender('https://widgets.example.net/card', 7, 3, 'https://crm.example.com/'), t.deps);
    const [params] = t.shownParams();
    expect(params!.get('site')).toBe('widgets.example.net');
    expect(params!.get('top')).toBe('crm.example.com');
  });

  it('uses the site’s own default country', async () => {
    const t = setup();
    await useSites({ countries: { 'crm.example.co.uk': 'GB' } });
    await handlePageRequest(call('020 7946 0958'), sender('https://crm.example.co.uk/'), t.deps);
    expect(t.shownParams()[0]!.get('country')).toBe('GB');
  });

  it('is refused where click-to-call is off: not listed, listed as an exception, paused, or no tab', async () => {
    const cases: [Partial<Settings['sites']>, string][] = [
      [{ mode: 'only-listed', listed: ['crm.example.com'] }, 'https://other.example.org/'],
      [{ mode: 'except-listed', listed: ['bank.example'] }, 'https://www.bank.example/'],
      [{ mode: 'everywhere', paused: ['crm.example.com'] }, 'https://app.crm.example.com/'],
    ];
    for (const [sites, url] of cases) {
      const t = setup();
      await useSites(sites);
      expect(await handlePageRequest(call(), sender(url), t.deps)).toBeNull();
      expect(t.log).toEqual([]);
    }
    const t = setup();
    await useSites({});
    await handlePageRequest(call(), { id: fakeBrowser.runtime.id, url: 'https://crm.example.com/' }, t.deps);
    expect(t.log).toEqual([]);
    // And a listed site is let through, as the control.
    await useSites({ mode: 'only-listed', listed: ['crm.example.com'] });
    await handlePageRequest(call(), sender('https://crm.example.com/'), t.deps);
    expect(t.log).toEqual(['open 1']);
  });

  it('one confirmation at a time: a second request (even at the same moment) shows itself in the open window', async () => {
    const t = setup();
    await Promise.all([
      handlePageRequest(call('+14155550132'), sender('https://crm.example.com/', 7), t.deps),
      handlePageRequest(call('+14155550171'), sender('https://mail.example.org/', 8), t.deps),
    ]);
    expect(t.log).toEqual(['open 1', 'reuse 1']);
    expect(t.shown.size).toBe(1);
    expect(t.shownParams()[0]!.get('dial')).toBe('+14155550171');
    expect(t.shownParams()[0]!.get('site')).toBe('mail.example.org');

    // Once the user closed it, the next request opens a new one.
    t.close(1);
    await handlePageRequest(call('+14155550199'), sender('https://crm.example.com/', 7), t.deps);
    expect(t.log).toEqual(['open 1', 'reuse 1', 'open 2']);
  });

  it('is throttled per tab: the excess is dropped, other tabs are unaffected, and the share comes back', async () => {
    const t = setup();
    const send = (tabId: number) => handlePageRequest(call(), sender('https://crm.example.com/', tabId), t.deps);
    for (let i = 0; i < 10; i++) await send(7);
    expect(t.log).toHaveLength(PAGE_REQUEST_LIMITS.max);
    await send(8);
    expect(t.log).toHaveLength(PAGE_REQUEST_LIMITS.max + 1);
    t.advance(PAGE_REQUEST_LIMITS.windowMs - 1);
    await send(7);
    expect(t.log).toHaveLength(PAGE_REQUEST_LIMITS.max + 1);
    t.advance(1);
    await send(7);
    expect(t.log).toHaveLength(PAGE_REQUEST_LIMITS.max + 2);
  });
});

describe('the page request schema', () => {
  it('refuses a `shortcut` or `context-menu` source from a page: those start in browser UI only', () => {
    for (const source of ['shortcut', 'context-menu', 'popup', '']) {
      expect(pageRequest.safeParse({ type: 'page/call', number: '+14155550132', source }).success).toBe(false);
    }
    for (const source of ['overlay', 'tel-link']) {
      expect(pageRequest.safeParse({ type: 'page/call', number: '+14155550132', source }).success).toBe(true);
    }
  });

  it('refuses any field a page might use to name a site or an agent', () => {
    for (const extra of [{ site: 'bank.example' }, { agent: 'agent-2' }, { country: 'GB' }]) {
      expect(pageRequest.safeParse({ type: 'page/call', number: '+14155550132', source: 'overlay', ...extra }).success).toBe(false);
    }
  });
});

describe('found numbers', () => {
  it('are kept per tab and frame, deduplicated, and replaced by each frame’s next report', async () => {
    const t = setup();
    const report = (frameId: number, numbers: { raw: string; e164: string }[]) =>
      handlePageRequest({ type: 'page/numbers', numbers }, sender(frameId ? 'https://crm.example.com/frame' : 'https://crm.example.com/', 7, frameId, 'https://crm.example.com/'), t.deps);
    await report(0, [{ raw: '(415) 555-0132', e164: '+14155550132' }]);
    await report(2, [{ raw: '415.555.0132', e164: '+14155550132' }, { raw: '+44 20 7946 0958', e164: '+442079460958' }]);
    expect(await numbersInTab(7)).toEqual({
      host: 'crm.example.com',
      numbers: [
        { raw: '(415) 555-0132', e164: '+14155550132' },
        { raw: '+44 20 7946 0958', e164: '+442079460958' },
      ],
      total: 2,
    });
    await report(2, []);
    expect((await numbersInTab(7)).numbers).toEqual([{ raw: '(415) 555-0132', e164: '+14155550132' }]);
  });

  it('where no content script ran (click-to-call off), the tab’s host comes from the browser', async () => {
    const get = vi.spyOn(fakeBrowser.tabs, 'get').mockResolvedValue({ id: 9, url: 'https://paused.example.com/x' } as never);
    expect(await numbersInTab(9)).toEqual({ host: 'paused.example.com', numbers: [], total: 0 });
    get.mockRejectedValue(new Error('No tab with id: 9'));
    expect(await numbersInTab(9)).toEqual({ host: '', numbers: [], total: 0 });
  });

  it('page/config answers only on/off, the country and the agent’s name', async () => {
    const t = setup();
    await useSites({ mode: 'only-listed', listed: ['crm.example.com'] });
    expect(await handlePageRequest({ type: 'page/config' }, sender('https://crm.example.com/'), t.deps)).toEqual({ enabled: true, defaultCountry: 'US', agentName: 'Sales' });
    expect(await handlePageRequest({ type: 'page/config' }, sender('https://other.example.org/'), t.deps)).toEqual({ enabled: false, defaultCountry: 'US', agentName: 'Sales' });
  });

  it('page/config brings the country names of the languages the frame is written in, from Intl.DisplayNames; none for English or where click-to-call is off', async () => {
    const t = setup();
    await useSites({ mode: 'only-listed', listed: ['crm.example.com'] });
    const answer = (await handlePageRequest({ type: 'page/config', langs: ['de-AT', 'ja', 'en-GB'] }, sender('https://crm.example.com/'), t.deps)) as { places?: string };
    const names = answer.places!.split('|');
    expect(names).toContain('FRFrankreich');
    expect(names).toContain('GBVereinigtes Königreich');
    expect(names).toContain('CN中国');
    expect(names).not.toContain('FRFrance');
    expect(await handlePageRequest({ type: 'page/config', langs: ['en'] }, sender('https://crm.example.com/'), t.deps)).toEqual({ enabled: true, defaultCountry: 'US', agentName: 'Sales' });
    expect(await handlePageRequest({ type: 'page/config', langs: ['de'] }, sender('https://other.example.org/'), t.deps)).toEqual({ enabled: false, defaultCountry: 'US', agentName: 'Sales' });
    // A language tag is all a frame can send: nothing else, at most 24.
    expect(pageRequest.safeParse({ type: 'page/config', langs: ['de<script>'] }).success).toBe(false);
    expect(pageRequest.safeParse({ type: 'page/config', langs: Array(25).fill('de') }).success).toBe(false);
  });

  it('a page call carries the number as written, shown beside the number dialled', async () => {
    const t = setup();
    await handlePageRequest({ type: 'page/call', number: '+966501234567', written: '٠٥٠ ١٢٣ ٤٥٦٧', source: 'overlay' }, sender('https://crm.example.com/'), t.deps);
    expect(t.shownParams()[0]!.get('written')).toBe('٠٥٠ ١٢٣ ٤٥٦٧');
  });
});

describe('page/finder', () => {
  it('loads the finder into the asking frame only, and only where click-to-call is on', async () => {
    const t = setup();
    const injected: [number, number][] = [];
    const deps: PageServiceDeps = { ...t.deps, injectFinder: async (tabId, frameId) => void injected.push([tabId, frameId]) };
    await useSites({ mode: 'only-listed', listed: ['crm.example.com'] });
    expect(await handlePageRequest({ type: 'page/finder' }, sender('https://crm.example.com/list', 7, 3), deps)).toBe(true);
    expect(await handlePageRequest({ type: 'page/finder' }, sender('https://other.example.org/', 8, 0), deps)).toBe(false);
    expect(await handlePageRequest({ type: 'page/finder' }, { id: fakeBrowser.runtime.id, url: 'https://crm.example.com/' }, deps)).toBe(false);
    await useSites({ mode: 'everywhere', paused: ['crm.example.com'] });
    expect(await handlePageRequest({ type: 'page/finder' }, sender('https://app.crm.example.com/', 9, 0), deps)).toBe(false);
    expect(injected).toEqual([[7, 3]]);
  });

  it('carries nothing else: a file or a frame named by the page is refused by the schema', () => {
    expect(pageRequest.safeParse({ type: 'page/finder' }).success).toBe(true);
    expect(pageRequest.safeParse({ type: 'page/finder', file: '/background.js' }).success).toBe(false);
    expect(pageRequest.safeParse({ type: 'page/finder', frameId: 0 }).success).toBe(false);
  });
});

describe('page/find', () => {
  const find = { texts: ['Desk: (21) 2345-6789'], countries: ['BR,US'], labels: [''] };
  const request = { type: 'page/find' as const, batch: JSON.stringify(find) };

  it('reads a frame’s texts (per country asked) only where click-to-call is on', async () => {
    const t = setup();
    await useSites({ mode: 'only-listed', listed: ['crm.example.com'] });
    const answer = await handlePageRequest(request, sender('https://crm.example.com/list', 7, 3), t.deps);
    // Text 0, read for Brazil (country 0): the number; as a US number it is not valid, so no row.
    expect(JSON.parse(answer as string)).toEqual([[0, 0, 6, 20, '+552123456789', '(21) 2345-6789', 'BR', '']]);
    expect(await handlePageRequest(request, sender('https://other.example.org/', 8, 0), t.deps)).toBeNull();
    expect(await handlePageRequest(request, { id: fakeBrowser.runtime.id, url: 'https://crm.example.com/' }, t.deps)).toBeNull();
    // A batch that is not a request is refused (the page then reads its texts itself).
    expect(await handlePageRequest({ type: 'page/find', batch: '{"texts":' }, sender('https://crm.example.com/list', 7, 3), t.deps)).toBeNull();
  });

  it('the message carries one batch string; the batch holds texts, ISO countries and labels only, one of each per text, within caps', () => {
    expect(pageRequest.safeParse(request).success).toBe(true);
    expect(pageRequest.safeParse({ ...request, ...find }).success).toBe(false);
    expect(pageRequest.safeParse({ type: 'page/find', batch: 3 }).success).toBe(false);
    const ok = (r: object) => parseFindBatch(JSON.stringify(r)) !== null;
    expect(ok(find)).toBe(true);
    expect(ok({ texts: ['a', '+44 20 7946 0958'], countries: ['BR', ''], labels: ['Phone', ''] })).toBe(true);
    expect(ok({ ...find, countries: ['BR,,US'] })).toBe(true); // the second entry: no country
    expect(ok({ texts: [], countries: [], labels: [] })).toBe(false);
    expect(ok({ ...find, countries: ['br'] })).toBe(false);
    expect(ok({ ...find, countries: ['BRA'] })).toBe(false);
    expect(ok({ ...find, countries: [Array(MAX_FIND_COUNTRIES + 1).fill('US').join(',')] })).toBe(false);
    expect(ok({ ...find, countries: [] })).toBe(false);
    expect(ok({ ...find, labels: ['x'.repeat(MAX_FIND_LABEL + 1)] })).toBe(false);
    expect(ok({ ...find, texts: ['x'.repeat(MAX_FIND_TEXT + 1)] })).toBe(false);
    const many = Array.from({ length: MAX_FIND_ITEMS + 1 }, () => 'x');
    expect(ok({ texts: many, countries: many.map(() => 'US'), labels: many.map(() => '') })).toBe(false);
    expect(ok({ ...find, tabId: 3 })).toBe(false);
    expect(parseFindBatch('not json')).toBeNull();
    // Which texts are tel: hrefs: indices in the batch, ascending, once each.
    const two = { texts: ['tel:+14155550132', 'x'], countries: ['US', 'US'], labels: ['', ''] };
    expect(ok({ ...two, tels: [0] })).toBe(true);
    expect(ok({ ...two, tels: [0, 1] })).toBe(true);
    expect(ok({ ...two, tels: [2] })).toBe(false);
    expect(ok({ ...two, tels: [1, 0] })).toBe(false);
    expect(ok({ ...two, tels: [0, 0] })).toBe(false);
    expect(ok({ ...two, tels: [-1] })).toBe(false);
    expect(ok({ ...two, tels: ['0'] })).toBe(false);
    expect(ok({ ...two, tels: [] })).toBe(false);
  });

  it('reads tel: hrefs as links: the number, as written, its extension and whether it is valid (the page has no phone library)', async () => {
    const t = setup();
    await useSites({ mode: 'only-listed', listed: ['crm.example.com'] });
    const batch = { texts: ['tel:+1-212-155-0100', 'tel:020%207946%200958;ext=12', 'tel:hello', 'Call tel:+14155550132'], countries: ['US', 'GB', 'US', 'US'], labels: ['', '', '', ''], tels: [0, 1, 2] };
    const answer = await handlePageRequest({ type: 'page/find', batch: JSON.stringify(batch) }, sender('https://crm.example.com/list', 7, 3), t.deps);
    expect(JSON.parse(answer as string)).toEqual([
      [0, 0, 0, 0, '+12121550100', '+1-212-155-0100', '', '', 0],
      [1, 0, 0, 0, '+442079460958', '020 7946 0958', 'GB', '12', 1],
      [3, 0, 9, 21, '+14155550132', '+14155550132', 'US', ''],
    ]);
  });
});

describe('RequestThrottle', () => {
  it('allows `max` per key in any window, sliding', () => {
    const throttle = new RequestThrottle({ max: 2, windowMs: 1000 });
    expect([0, 10, 20].map((at) => throttle.allow('a', at))).toEqual([true, true, false]);
    expect(throttle.allow('b', 20)).toBe(true);
    expect(throttle.allow('a', 999)).toBe(false);
    expect(throttle.allow('a', 1000)).toBe(true); // the first one left the window
    expect(throttle.allow('a', 1005)).toBe(false); // dropped requests do not count against later ones…
    expect(throttle.allow('a', 1010)).toBe(true); // …so the second one leaving frees a place
  });
});
