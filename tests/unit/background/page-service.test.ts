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
import { forgetTab, handlePageRequest, numbersInTab, type PageServiceDeps } from '../../../lib/background/page-service';
import { PendingSelections, SELECTION_WAIT_MS } from '../../../lib/background/selection-request';
import { pageRequest, parseFindBatch, type PageRequest } from '../../../lib/page/messages';
import { DEFAULT_SETTINGS, type Settings } from '../../../lib/settings/schema';
import { seedData } from '../ui/helpers';
import { FIND_LIMITS, MAX_FIND_COUNTRIES, MAX_FIND_ITEMS, MAX_FIND_LABEL, MAX_FIND_TEXT } from '../../../lib/phone/find-batch';
import { FindLimiter } from '../../../lib/background/find-limiter';
import { forgetHeldTabs, MAX_FRAMES, MAX_TAB_NUMBERS, readTab, TAB_WRITE_GAP_MS, tabKey } from '../../../lib/background/tab-numbers';
import { readKeyFor, writeKey } from '../../../lib/background/key-store';
import { sessionMemory } from '../../../lib/background/confirmation';
import { PAGE_WORK_MAX_WAIT_MS, personFirst } from '../../../lib/background/person-first';

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
  await fakeBrowser.storage.local.set({ settings: { ...DEFAULT_SETTINGS, sites: { ...DEFAULT_SETTINGS.sites, on: true, ...sites } } });
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

  it('a frame with no site of its own (opaque origin: data:, sandboxed, srcdoc in a sandbox) is "a frame inside" the top page, never the top page itself', async () => {
    const top = 'https://crm.example.com/record/1';
    const opaque: [string, string | undefined][] = [
      ['data:text/html,<a href="tel:+14155550132">x</a>', 'null'],
      ['about:srcdoc', 'null'],
      ['about:blank', 'null'],
      // Sandboxed, served by the top page's own host: its content is not the host's to vouch for.
      ['https://crm.example.com/user-content/7', 'null'],
      // A browser that gives no origin: the URL alone says nothing about who wrote it.
      ['data:text/html,x', undefined],
      ['about:blank', undefined],
    ];
    for (const [url, origin] of opaque) {
      const t = setup();
      await handlePageRequest(call(), { ...sender(url, 7, 4, top), ...(origin === undefined ? {} : { origin }) } as Runtime.MessageSender, t.deps);
      const params = Object.fromEntries(t.shownParams()[0]!);
      expect(params, `${url} ${origin}`).toMatchObject({ inside: 'crm.example.com' });
      expect(params.site, `${url} ${origin}`).toBeUndefined();
      expect(params.top, `${url} ${origin}`).toBeUndefined();
    }
  });

  it('a frame with an origin names that origin’s site: about:blank and blob: frames of a cross-origin frame name that frame’s site', async () => {
    const top = 'https://crm.example.com/';
    const cases: [string, string | undefined, string][] = [
      ['about:blank', 'https://ads.example.net', 'ads.example.net'],
      ['about:srcdoc', 'https://widgets.example.net', 'widgets.example.net'],
      ['blob:https://ads.example.net/0b1c', 'https://ads.example.net', 'ads.example.net'],
      ['blob:https://ads.example.net/0b1c', undefined, 'ads.example.net'],
      ['https://widgets.example.net/card', 'https://widgets.example.net', 'widgets.example.net'],
      // Same site as the top page: named once.
      ['about:blank', 'https://crm.example.com', 'crm.example.com'],
    ];
    for (const [url, origin, site] of cases) {
      const t = setup();
      await handlePageRequest(call(), { ...sender(url, 7, 2, top), ...(origin === undefined ? {} : { origin }) } as Runtime.MessageSender, t.deps);
      const params = Object.fromEntries(t.shownParams()[0]!);
      expect(params.site, url).toBe(site);
      expect(params.inside, url).toBeUndefined();
      expect(params.top, url).toBe(site === 'crm.example.com' ? undefined : 'crm.example.com');
    }
  });

  it('the top frame is its page’s site, even with an opaque origin (a page served with a CSP sandbox)', async () => {
    const t = setup();
    await handlePageRequest(call(), { ...sender('https://crm.example.com/report'), origin: 'null' } as Runtime.MessageSender, t.deps);
    expect(Object.fromEntries(t.shownParams()[0]!)).toMatchObject({ site: 'crm.example.com' });
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

describe('the shortcut’s selection (page/selected)', () => {
  it('is taken only while the tab’s shortcut awaits it, once, and names the frame that sent it', async () => {
    const t = setup();
    const selections = new PendingSelections();
    let now = 5_000;
    const deps: PageServiceDeps = { ...t.deps, selections, now: () => now };
    const fromFrame = { ...sender('https://widgets.example.net/card', 7, 3, 'https://crm.example.com/'), origin: 'https://widgets.example.net' } as Runtime.MessageSender;
    // No shortcut pressed: a page/selected is dropped.
    await handlePageRequest({ type: 'page/selected', text: '(415) 555-0132' }, fromFrame, deps);
    expect(t.log).toEqual([]);
    selections.expect(7, now);
    // Another tab's message does not take this tab's turn.
    await handlePageRequest({ type: 'page/selected', text: '(415) 555-0199' }, sender('https://other.example.org/', 8), deps);
    expect(t.log).toEqual([]);
    await handlePageRequest({ type: 'page/selected', text: '(415) 555-0132' }, fromFrame, deps);
    expect(Object.fromEntries(t.shownParams()[0]!)).toMatchObject({ dial: '(415) 555-0132', source: 'shortcut', site: 'widgets.example.net', top: 'crm.example.com' });
    // Once only.
    await handlePageRequest({ type: 'page/selected', text: '(415) 555-0171' }, fromFrame, deps);
    expect(t.log).toEqual(['open 1']);
    // And not after the wait is over.
    selections.expect(7, now);
    now += SELECTION_WAIT_MS;
    await handlePageRequest({ type: 'page/selected', text: '(415) 555-0171' }, fromFrame, deps);
    expect(t.log).toEqual(['open 1']);
  });

  it('from a frame with no site of its own: "a frame inside" the top site', async () => {
    const t = setup();
    const selections = new PendingSelections();
    selections.expect(7, 1_000_000);
    await handlePageRequest({ type: 'page/selected', text: '+1 415 555 0132' }, { ...sender('about:srcdoc', 7, 5, 'https://crm.example.com/'), origin: 'null' } as Runtime.MessageSender, { ...t.deps, selections });
    expect(Object.fromEntries(t.shownParams()[0]!)).toMatchObject({ dial: '+1 415 555 0132', source: 'shortcut', inside: 'crm.example.com' });
  });

  it('carries only the text, capped', () => {
    expect(pageRequest.safeParse({ type: 'page/selected', text: '' }).success).toBe(true);
    expect(pageRequest.safeParse({ type: 'page/selected', text: 'x'.repeat(65) }).success).toBe(false);
    expect(pageRequest.safeParse({ type: 'page/selected', text: '1', site: 'bank.example' }).success).toBe(false);
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

describe('page/find follows the settings', () => {
  const find = { type: 'page/find' as const, batch: JSON.stringify({ texts: ['Desk: (415) 555-0132'], countries: ['US'], labels: [''] }) };
  it('turned off on a site, its very next request is refused, though many requests a second read settings at most once a second', async () => {
    const t = setup();
    const settingsRead = vi.spyOn(fakeBrowser.storage.local, 'get');
    for (let i = 0; i < 5; i++) expect(await handlePageRequest(find, sender('https://crm.example.com/list', 50 + i), t.deps)).not.toBeNull();
    expect(settingsRead.mock.calls.length).toBeLessThanOrEqual(1);
    await useSites({ on: false });
    expect(await handlePageRequest(find, sender('https://crm.example.com/list', 60), t.deps)).toBeNull();
    await useSites({});
    expect(await handlePageRequest(find, sender('https://crm.example.com/list', 61), t.deps)).not.toBeNull();
  });
});

describe('each page’s share of page/find', () => {
  const find = { type: 'page/find' as const, batch: JSON.stringify({ texts: ['Desk: (415) 555-0132'], countries: ['US'], labels: [''] }) };

  it('requests in flight beyond a frame’s share, or a tab’s, are answered "busy" at once and not read', async () => {
    const t = setup();
    const deps: PageServiceDeps = { ...t.deps, findLimiter: new FindLimiter() };
    const ask = (tabId: number, frameId: number) => handlePageRequest(find, sender('https://crm.example.com/', tabId, frameId), deps);
    // Each request takes its place before its first await: all of these are in flight together.
    const frame1 = Array.from({ length: FIND_LIMITS.frameInFlight + 1 }, () => ask(7, 1));
    const others = Array.from({ length: FIND_LIMITS.tabInFlight }, (_, i) => ask(7, 2 + i));
    const otherTab = ask(8, 1);
    const answers = await Promise.all([...frame1, ...others]);
    const read = answers.map((a) => (typeof a === 'string' ? 'read' : a && typeof a === 'object' && 'retryInMs' in a ? 'busy' : String(a)));
    // The frame's own share, then the tab's: the rest are turned away, each told when to ask again.
    expect(read).toEqual([
      ...Array(FIND_LIMITS.frameInFlight).fill('read'),
      'busy',
      ...Array(FIND_LIMITS.tabInFlight - FIND_LIMITS.frameInFlight).fill('read'),
      ...Array(FIND_LIMITS.frameInFlight).fill('busy'),
    ]);
    expect(JSON.parse((await otherTab) as string)).toHaveLength(1);
    // Once answered, the shares are free again.
    expect(JSON.parse((await ask(7, 1)) as string)).toHaveLength(1);
  });

  it('more than a frame’s requests per second are answered "busy" with the wait till the second rolls on', () => {
    const limiter = new FindLimiter();
    for (let i = 0; i < FIND_LIMITS.framePerSecond; i++) (limiter.begin(7, 1, 1_000 + i) as { done(): void }).done();
    expect(limiter.begin(7, 1, 1_500)).toEqual({ retryInMs: 500 });
    expect('done' in limiter.begin(7, 2, 1_500)).toBe(true);
    expect('done' in limiter.begin(7, 1, 2_000)).toBe(true);
  });

  it('a tab’s share per second is shared by its frames', () => {
    const limiter = new FindLimiter();
    for (let i = 0; i < FIND_LIMITS.tabPerSecond; i++) (limiter.begin(7, i % 20, 1_000) as { done(): void }).done();
    expect(limiter.begin(7, 25, 1_000)).toEqual({ retryInMs: 1000 });
    expect('done' in limiter.begin(8, 0, 1_000)).toBe(true);
  });
});

describe('found numbers in storage.session', () => {
  const frameSender = (tabId: number, frameId: number) => sender(frameId ? 'https://crm.example.com/frame' : 'https://crm.example.com/', tabId, frameId, 'https://crm.example.com/');
  const numbers = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ raw: `n${from + i}`, e164: `+1415555${String(from + i).padStart(4, '0')}` }));
  const report = (t: ReturnType<typeof setup>, tabId: number, frameId: number, list: { raw: string; e164: string }[], total = list.length) =>
    handlePageRequest({ type: 'page/numbers', numbers: list, total }, frameSender(tabId, frameId), t.deps);

  it('are bounded per tab: frames × numbers, while the count stays whole', async () => {
    const t = setup();
    for (let frame = 0; frame < MAX_FRAMES + 10; frame++) await report(t, 7, frame, numbers(frame * 500, 500), 900);
    const entry = (await readTab(7))!;
    const lists = Object.values(entry.frames);
    expect(lists.length).toBeLessThanOrEqual(MAX_FRAMES);
    expect(lists.reduce((n, l) => n + l.length, 0)).toBeLessThanOrEqual(MAX_TAB_NUMBERS);
    // The badge and the popup still count every frame's numbers.
    expect((await numbersInTab(7)).total).toBe((MAX_FRAMES + 10) * 900);
  });

  it('are written by change and behind: a report after a quiet spell at once, the next ones within the gap folded into one write at its end', async () => {
    // A page of many frames reporting over and over wrote the whole entry on every report (bench/flood.ts).
    vi.useFakeTimers();
    try {
      const t = setup();
      const set = vi.spyOn(fakeBrowser.storage.session, 'set');
      const written = () => set.mock.calls.map(([items]) => Object.keys(items as object));
      await report(t, 7, 0, numbers(0, 3));
      await report(t, 8, 0, numbers(100, 3));
      // Each tab's own key, each at once.
      expect(written()).toEqual([[tabKey(7)], [tabKey(8)]]);
      await report(t, 7, 2, numbers(200, 2));
      await report(t, 7, 3, numbers(300, 2));
      expect(written()).toHaveLength(2);
      // The background answers what it holds, written or not.
      expect((await numbersInTab(7)).numbers).toHaveLength(7);
      // Nothing changed: nothing to write.
      await report(t, 8, 0, numbers(100, 3));
      await vi.advanceTimersByTimeAsync(TAB_WRITE_GAP_MS);
      expect(written()).toEqual([[tabKey(7)], [tabKey(8)], [tabKey(7)]]);
      // A restarted worker reads storage: the one folded write holds both reports.
      forgetHeldTabs();
      expect(Object.keys((await readTab(7))!.frames).sort()).toEqual(['0', '2', '3']);
      await report(t, 7, 3, numbers(300, 2));
      await vi.advanceTimersByTimeAsync(TAB_WRITE_GAP_MS);
      expect(written()).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a frame’s report and a planned write wait while a person’s request is answered (the worker is theirs first)', async () => {
    vi.useFakeTimers();
    try {
      const t = setup();
      const set = vi.spyOn(fakeBrowser.storage.session, 'set');
      await report(t, 7, 0, numbers(0, 3));
      await report(t, 7, 2, numbers(200, 2)); // within the gap: its write is planned
      expect(set).toHaveBeenCalledTimes(1);
      let answer!: () => void;
      const confirm = personFirst.around(() => new Promise<void>((resolve) => (answer = resolve)));
      let reported = false;
      const late = report(t, 7, 3, numbers(300, 2)).then(() => (reported = true));
      await vi.advanceTimersByTimeAsync(PAGE_WORK_MAX_WAIT_MS - 1);
      // The person is still waiting: the report has not been taken in.
      expect(reported).toBe(false);
      // Past the longest wait it is (a slow service cannot starve pages)…
      await vi.advanceTimersByTimeAsync(PAGE_WORK_MAX_WAIT_MS / 2);
      await late;
      // …but the write planned at the gap's end still waits for the person.
      expect(set).toHaveBeenCalledTimes(1);
      answer();
      await confirm;
      await vi.advanceTimersByTimeAsync(0);
      expect(set).toHaveBeenCalledTimes(2);
      expect(Object.keys(JSON.parse((await fakeBrowser.storage.session.get(tabKey(7)))[tabKey(7)] as string).frames).sort()).toEqual(['0', '2', '3']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a tab forgotten while its write waits: the write does not bring its numbers back', async () => {
    vi.useFakeTimers();
    try {
      const t = setup();
      await report(t, 7, 0, numbers(0, 3));
      await report(t, 7, 2, numbers(200, 2));
      await forgetTab(7);
      await vi.advanceTimersByTimeAsync(TAB_WRITE_GAP_MS);
      expect((await fakeBrowser.storage.session.get(tabKey(7)))[tabKey(7)]).toBeUndefined();
      expect((await numbersInTab(7)).numbers).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a report reads no settings, and sets the badge only when the tab’s count changed', async () => {
    const t = setup();
    const badge = vi.spyOn(fakeBrowser.action, 'setBadgeText');
    const settingsRead = vi.spyOn(fakeBrowser.storage.local, 'get');
    await report(t, 41, 0, numbers(0, 3));
    await report(t, 41, 0, numbers(0, 3));
    await report(t, 41, 2, []);
    expect(badge.mock.calls.map(([details]) => details)).toEqual([{ tabId: 41, text: '3' }]);
    await report(t, 41, 2, numbers(10, 2));
    expect(badge.mock.calls.map(([details]) => details.text)).toEqual(['3', '5']);
    expect(settingsRead).not.toHaveBeenCalled();
    // A new page in the tab starts its count again.
    await forgetTab(41);
    await report(t, 41, 0, numbers(0, 3));
    expect(badge.mock.calls.map(([details]) => details.text)).toEqual(['3', '5', '3']);
  });

  /** storage.session with a quota: a write that would take the area past `bytes` throws as Chromium does. */
  function quota(bytes: number) {
    const area = fakeBrowser.storage.session;
    const set = area.set.bind(area);
    return vi.spyOn(area, 'set').mockImplementation(async (items) => {
      const all = { ...(await area.get(null)), ...(items as object) };
      if (JSON.stringify(all).length > bytes) throw new Error('Resource::kQuotaBytes quota exceeded');
      return set(items);
    });
  }

  it('a full session area never stops a session key from being saved, nor the confirmation from opening', async () => {
    const t = setup();
    // Many tabs' numbers fill the area to its last bytes.
    for (let tab = 1; tab <= 6; tab++) await report(t, tab, 0, numbers(tab * 500, 300));
    const used = JSON.stringify(await fakeBrowser.storage.session.get(null)).length;
    quota(used + 100);
    await report(t, 9, 0, numbers(9000, 300)); // over: given up or made room for, never an error
    await writeKey('https://api.example.com', 'sk-session-key-0123456789abcdef', false);
    expect((await readKeyFor('https://api.example.com'))?.key).toBe('sk-session-key-0123456789abcdef');
    // The confirmation: remembered where there is room, opened in any case.
    const fake = fakeWindows();
    const confirmations = createConfirmations(fake.windows, sessionMemory);
    for (let tab = 1; tab <= 6; tab++) await report(t, tab, 0, numbers(tab * 500, 300));
    await openConfirmationThrough(confirmations);
    expect(fake.log).toEqual(['open 1']);
    // A storage that refuses everything still opens it.
    vi.spyOn(fakeBrowser.storage.session, 'set').mockRejectedValue(new Error('QUOTA_BYTES quota exceeded'));
    const refusing = fakeWindows();
    await createConfirmations(refusing.windows, sessionMemory).show('/popup.html?dial=%2B14155550132');
    expect(refusing.log).toEqual(['open 1']);
  });
});

async function openConfirmationThrough(confirmations: { show(path: string): Promise<void> }): Promise<void> {
  await handlePageRequest(call(), sender('https://crm.example.com/', 77), { confirmations, throttle: new RequestThrottle(PAGE_REQUEST_LIMITS), now: () => 1 });
}
