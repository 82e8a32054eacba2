/**
 * The background's side of click-to-call on pages: answers content scripts' narrow requests, keeps
 * each tab's found numbers (storage.session, so a restarted worker still knows them), sets the
 * per-tab badge, and turns every call intent — overlay, tel: link, shortcut, context menu — into
 * the same confirmation in extension UI. Nothing here can place a call: only Confirm in the popup does.
 */
import { browser, type Runtime } from '../browser';
import type { OwnedNumber } from '../messages';
import { compactCount, tabTotal } from '../page/count';
import { countryFor, isEnabledOn } from '../page/sites';
import type { PageConfig, PageRequest } from '../page/messages';
import { STORAGE, type AgentsCache } from '../storage-keys';
import { loadSettings } from './settings-store';

export const PAGE_NUMBERS_KEY = 'page.numbers';
export const LAST_AGENT_KEY = STORAGE.lastAgentId;

type FoundNumber = { raw: string; e164: string };
/** tabId → the top frame's host and each frame's numbers (frameId → numbers, and how many it found in all). */
type TabNumbers = Record<string, { host: string; frames: Record<string, FoundNumber[]>; totals?: Record<string, number> }>;

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).hostname : '';
  } catch {
    return '';
  }
}

export async function defaultAgent(): Promise<{ id: string; name: string } | null> {
  const stored = await browser.storage.local.get([STORAGE.agentsCache, LAST_AGENT_KEY]);
  const cache = stored[STORAGE.agentsCache] as AgentsCache | undefined;
  const agents = cache?.agents ?? [];
  const last = agents.find((a) => a.id === stored[LAST_AGENT_KEY]);
  const agent = last ?? agents[0];
  return agent ? { id: agent.id, name: agent.name } : null;
}

async function readTabNumbers(): Promise<TabNumbers> {
  const stored = await browser.storage.session.get(PAGE_NUMBERS_KEY);
  return (stored[PAGE_NUMBERS_KEY] as TabNumbers | undefined) ?? {};
}

/** Unique numbers a tab holds, across its frames, in page order; `total` counts those beyond the reports' caps too. */
export async function numbersInTab(tabId: number): Promise<{ host: string; numbers: FoundNumber[]; total: number }> {
  const tab = (await readTabNumbers())[String(tabId)];
  const seen = new Map<string, FoundNumber>();
  for (const numbers of Object.values(tab?.frames ?? {})) for (const n of numbers) if (!seen.has(n.e164)) seen.set(n.e164, n);
  const frames = Object.entries(tab?.frames ?? {}).map(([id, numbers]) => ({ numbers, total: tab?.totals?.[id] }));
  return { host: tab?.host ?? '', numbers: [...seen.values()], total: tabTotal(frames) };
}

let writes: Promise<unknown> = Promise.resolve();
async function updateTabNumbers(update: (all: TabNumbers) => void): Promise<void> {
  const write = writes.then(async () => {
    const all = await readTabNumbers();
    update(all);
    await browser.storage.session.set({ [PAGE_NUMBERS_KEY]: all });
  });
  writes = write.catch(() => undefined);
  await write;
}

export async function forgetTab(tabId: number): Promise<void> {
  await updateTabNumbers((all) => void delete all[String(tabId)]);
}

async function setTabBadge(tabId: number): Promise<void> {
  const count = (await numbersInTab(tabId)).total;
  const action = browser.action ?? browser.browserAction;
  try {
    await action.setBadgeText({ tabId, text: compactCount(count) });
    if (count) await action.setBadgeBackgroundColor({ tabId, color: '#57606a' });
  } catch {
    // The tab closed meanwhile.
  }
}

/** Opens the confirmation (the popup's dial form, prefilled) in a small extension window. */
export async function openConfirmation(number: string, country: string, source: string): Promise<void> {
  const agent = await defaultAgent();
  const params = new URLSearchParams({ dial: number, country, source });
  if (agent) params.set('agent', agent.id);
  const url = browser.runtime.getURL(`/popup.html?${params}` as '/popup.html');
  try {
    await browser.windows.create({ url, type: 'popup', width: 420, height: 640, focused: true });
  } catch {
    await browser.tabs.create({ url });
  }
}

export async function handlePageRequest(request: PageRequest, sender: Runtime.MessageSender): Promise<unknown> {
  const tabId = sender.tab?.id;
  const frameId = sender.frameId ?? 0;
  // The host only picks settings (on/off, country); it grants nothing.
  const host = hostOf(sender.url ?? sender.tab?.url);
  const { settings } = await loadSettings();
  switch (request.type) {
    case 'page/config': {
      // The top frame's host is known from here on, even where click-to-call is off (so the popup can say so).
      if (tabId !== undefined && frameId === 0) {
        await updateTabNumbers((all) => {
          const tab = (all[String(tabId)] ??= { host, frames: {} });
          tab.host = host;
        });
      }
      const agent = await defaultAgent();
      return { enabled: isEnabledOn(host, settings.sites), defaultCountry: countryFor(host, settings), agentName: agent?.name ?? null } satisfies PageConfig;
    }
    case 'page/numbers': {
      if (tabId === undefined) return null;
      await updateTabNumbers((all) => {
        const tab = (all[String(tabId)] ??= { host, frames: {} });
        if (frameId === 0) tab.host = host;
        tab.frames[String(frameId)] = request.numbers;
        (tab.totals ??= {})[String(frameId)] = Math.max(request.total ?? 0, request.numbers.length);
      });
      await setTabBadge(tabId);
      return null;
    }
    case 'page/call':
      if (!isEnabledOn(host, settings.sites) && request.source !== 'shortcut') return null;
      await openConfirmation(request.number, countryFor(host, settings), request.source);
      return null;
  }
}

export type { OwnedNumber };
