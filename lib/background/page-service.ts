/**
 * The background's side of click-to-call on pages: answers content scripts' narrow requests, keeps
 * each tab's found numbers (storage.session, so a restarted worker still knows them), sets the
 * per-tab badge, and turns every call intent — overlay, tel: link, shortcut, context menu — into
 * the same confirmation in extension UI. Nothing here can place a call: only Confirm in the popup does.
 */
import { regionNames } from '../phone/region-names';
import { browser, type Runtime } from '../browser';
import type { OwnedNumber } from '../messages';
import {
  browserWindows,
  confirmationPath,
  createConfirmations,
  PAGE_REQUEST_LIMITS,
  RequestThrottle,
  sessionMemory,
  type ConfirmationRequest,
} from './confirmation';
import { compactCount, tabTotal } from '../page/count';
import { askingFrame, frameHost, type FrameSender } from '../page/frame-host';
import { countryFor, isEnabledOn } from '../page/sites';
import { parseFindBatch, type PageConfig, type PageRequest } from '../page/messages';
import { defaultAgent } from './default-agent';
import { warmUpSteps } from '../phone/find';
import { findRowsPaced } from '../phone/find-rows';
import { FindLimiter } from './find-limiter';
import { PAGE_WORK_MAX_WAIT_MS, personFirst, yieldToOthers } from './person-first';
import type { CallsService } from './calls-service';
import { handleWidgetPageRequest } from './widget-calls';
import { injectFinder } from './page-scripts';
import { pendingSelections, type PendingSelections } from './selection-request';
import { numberInSelection } from '../phone/normalize';
import { loadSettings, settingsForPages } from './settings-store';
import { forgetTabNumbers, readTab, updateTab, withFrameReport, type FoundNumber, type TabEntry } from './tab-numbers';

export { PAGE_NUMBERS_KEY } from './tab-numbers';

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).hostname : '';
  } catch {
    return '';
  }
}


/** How many numbers a tab's entry counts, frames past the stored lists' bound included (their totals). Pure. */
function entryTotal(tab: TabEntry | null): number {
  const ids = new Set([...Object.keys(tab?.frames ?? {}), ...Object.keys(tab?.totals ?? {})]);
  return tabTotal([...ids].map((id) => ({ numbers: tab?.frames[id] ?? [], total: tab?.totals?.[id] })));
}

/** Unique numbers a tab holds, across its frames, in page order; `total` counts those beyond the reports' caps too. */
export async function numbersInTab(tabId: number): Promise<{ host: string; numbers: FoundNumber[]; total: number }> {
  const tab = await readTab(tabId);
  const seen = new Map<string, FoundNumber>();
  for (const numbers of Object.values(tab?.frames ?? {})) for (const n of numbers) if (!seen.has(n.e164)) seen.set(n.e164, n);
  // Where click-to-call is off no content script runs to say where the tab is: the browser knows.
  const host = tab?.host || hostOf(await browser.tabs.get(tabId).then((t) => t?.url, () => undefined));
  return { host, numbers: [...seen.values()], total: entryTotal(tab) };
}

/** The badge text each tab was last given, so a report that changes no count costs no call to the browser. */
const badges = new Map<number, string>();

export async function forgetTab(tabId: number): Promise<void> {
  badges.delete(tabId);
  await forgetTabNumbers(tabId);
}

async function setTabBadge(tabId: number, tab: TabEntry): Promise<void> {
  const count = entryTotal(tab);
  const text = compactCount(count);
  if (badges.get(tabId) === text) return;
  badges.set(tabId, text);
  const action = browser.action ?? browser.browserAction;
  try {
    await action.setBadgeText({ tabId, text });
    if (count) await action.setBadgeBackgroundColor({ tabId, color: '#57606a' });
  } catch {
    // The tab closed meanwhile.
    badges.delete(tabId);
  }
}

let warm = false;
/** Compiles libphonenumber-js's code and expressions, once per background's life. */
function warmFinder(): void {
  if (warm) return;
  warm = true;
  for (const step of warmUpSteps()) step();
}

export interface PageServiceDeps {
  confirmations: { show(path: string): Promise<void> };
  /** Page call requests per tab. */
  throttle: RequestThrottle;
  now(): number;
  /** Loads the finder into a frame (./page-scripts.ts injectFinder; a fake in tests). */
  injectFinder?: (tabId: number, frameId: number) => Promise<void>;
  /** Tabs whose shortcut awaits the focused frame's selection (./selection-request.ts). */
  selections?: PendingSelections;
  /** Each page's share of page/find (one for the background's life when not given). */
  findLimiter?: FindLimiter;
  /** Lets other messages in while a request's texts are read (a new task when not given). */
  pause?: () => Promise<void>;
  /** The placement engine, for the widget's reads and stops (./widget-calls.ts). */
  calls?: CallsService;
}

const findLimiter = new FindLimiter();
/** Between slices of a page's texts: every waiting task runs first, and a person's request in flight is answered first. */
const nextTask = () => yieldToOthers().then(() => personFirst.clear(PAGE_WORK_MAX_WAIT_MS));

/**
 * Reads a frame's texts (page/find) within its share: over it, the answer is FindBusy at once, before
 * any storage read or parse; where click-to-call is off, null (the page then stops asking).
 */
async function findForPage(batchJson: string, sender: Runtime.MessageSender, deps: PageServiceDeps): Promise<unknown> {
  const tabId = sender.tab?.id;
  if (tabId === undefined) return null;
  const ticket = (deps.findLimiter ?? findLimiter).begin(tabId, sender.frameId ?? 0, deps.now());
  if (!('done' in ticket)) return ticket;
  try {
    const { settings } = await settingsForPages(deps.now());
    if (!isEnabledOn(frameHost(sender as FrameSender), settings.sites)) return null;
    const batch = parseFindBatch(batchJson);
    // As JSON too: the page reads one string faster than the browser hands it thousands of values.
    if (!batch) return null;
    const pause = deps.pause ?? nextTask;
    // A person's request in flight is answered before this page's texts are read.
    await pause();
    warmFinder();
    return JSON.stringify(await findRowsPaced(batch, pause));
  } finally {
    ticket.done();
  }
}

export const pageServiceDefaults: PageServiceDeps = {
  confirmations: createConfirmations(browserWindows, sessionMemory),
  throttle: new RequestThrottle(PAGE_REQUEST_LIMITS),
  now: Date.now,
};

/** Opens the confirmation (the popup's dial form, prefilled) in the one confirmation window. */
export async function openConfirmation(request: Omit<ConfirmationRequest, 'agentId'>, deps: Pick<PageServiceDeps, 'confirmations'> = pageServiceDefaults): Promise<void> {
  const agent = await defaultAgent();
  await deps.confirmations.show(confirmationPath({ ...request, agentId: agent?.id ?? null }));
}

export async function handlePageRequest(request: PageRequest, sender: Runtime.MessageSender, deps: PageServiceDeps = pageServiceDefaults): Promise<unknown> {
  // Counted against the frame's share before anything else is done for it.
  if (request.type === 'page/find') return findForPage(request.batch, sender, deps);
  // The element's requests share the tab's budget and the one confirmation window (./widget-calls.ts).
  if (request.type === 'page/widget-place' || request.type === 'page/widget-read' || request.type === 'page/widget-stop') return handleWidgetPageRequest(request, sender, deps);
  const tabId = sender.tab?.id;
  const frameId = sender.frameId ?? 0;
  // Browser-set fields only. The host picks settings (on/off, country) and names the asking site; it grants nothing.
  const host = frameHost(sender as FrameSender);
  // A frame's report (many a second on a busy page) needs no settings: read them only for the others.
  if (request.type === 'page/numbers') {
    if (tabId === undefined) return null;
    // Page work: a person's request in flight is answered first.
    await personFirst.clear(PAGE_WORK_MAX_WAIT_MS);
    const tab = await updateTab(tabId, host, (entry) => withFrameReport(frameId === 0 && entry.host !== host ? { ...entry, host } : entry, frameId, request.numbers, request.total ?? 0));
    await setTabBadge(tabId, tab);
    return null;
  }
  const { settings } = await loadSettings();
  switch (request.type) {
    case 'page/config': {
      // The top frame's host is known from here on, even where click-to-call is off (so the popup can say so).
      if (tabId !== undefined && frameId === 0) {
        await updateTab(tabId, host, (tab) => (tab.host === host ? tab : { ...tab, host }));
      }
      const agent = await defaultAgent();
      const enabled = isEnabledOn(host, settings.sites);
      // Country names in the frame's languages, built here once per language (lib/phone/region-names.ts).
      const places = enabled ? regionNames(request.langs ?? []) : '';
      return { enabled, defaultCountry: countryFor(host, settings), agentName: agent?.name ?? null, ...(places ? { places } : {}) } satisfies PageConfig;
    }
    case 'page/finder': {
      // Only into the asking frame, and only where click-to-call is on; the script is ours alone.
      if (tabId === undefined || !isEnabledOn(host, settings.sites)) return false;
      await (deps.injectFinder ?? injectFinder)(tabId, frameId);
      // The page's texts come here next (page/find): compile the parser meanwhile.
      setTimeout(warmFinder, 0);
      return true;
    }
    case 'page/selected': {
      // Only in answer to the user's shortcut on this tab, once; the frame that answered is the one named.
      if (tabId === undefined || !(deps.selections ?? pendingSelections).take(tabId, deps.now())) return null;
      const asker = askingFrame(sender as FrameSender);
      const country = countryFor(host, settings);
      await openConfirmation({ number: numberInSelection(request.text, country), country, source: 'shortcut', asker }, deps);
      return null;
    }
    case 'page/call': {
      // Refused where click-to-call is off; beyond the tab's share, dropped (not queued).
      if (tabId === undefined || !isEnabledOn(host, settings.sites)) return null;
      if (!deps.throttle.allow(tabId, deps.now())) return null;
      await openConfirmation(
        { number: request.number, ...(request.written ? { written: request.written } : {}), country: countryFor(host, settings), source: request.source, asker: askingFrame(sender as FrameSender) },
        deps,
      );
      return null;
    }
  }
}

export type { OwnedNumber };
