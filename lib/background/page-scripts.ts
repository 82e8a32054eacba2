/**
 * The content script runs only where click-to-call is on and the user granted the page's origin
 * (nothing is granted at install; Options asks when click-to-call is turned on: docs/security.md).
 * It is registered at run time for the granted part of the site rules (`scripting.registerContentScripts`; Firefox MV2: `contentScripts.register`), so in
 * "only listed sites" mode no other page loads it, and paused hosts never load it: a page where
 * click-to-call is off costs no script and no service-worker wake-up per frame. It runs in every
 * frame of those sites, frames without a URL of their own (about:blank, srcdoc, blob:) included.
 *
 * Scripts already on open pages learn of a change by a data-free `page/refresh` command (they ask
 * `page/config` again); a tab whose site was just switched on gets the script injected.
 */
import { browser } from '../browser';
import { watchGrants } from '../grants';
import { pageCommand, type PageCommand } from '../page/messages';
import { grantedPlan, scriptPlan, type ScriptPlan } from '../page/access';
import { isEnabledOn } from '../page/sites';
import type { Settings } from '../settings/schema';
import { DATA, STORAGE } from '../storage-keys';
import { watchData } from '../store/data-db';
import { defaultAgent } from './default-agent';
import { loadSettings } from './settings-store';

export const SCRIPT_ID = 'click-to-call';
/** The content script's file in the build (entrypoints/content, `registration: 'runtime'`). */
export const SCRIPT_FILE = '/content-scripts/content.js';
/** The finder, injected into one frame at a time when its first stage asks (entrypoints/finder.ts). */
export const FINDER_FILE = '/finder.js';
export { ALL_SITES, hostPatterns, scriptPlan, type ScriptPlan } from '../page/access';

const samePlan = (a: ScriptPlan | null, b: ScriptPlan | null) =>
  JSON.stringify(a && [[...a.matches].sort(), [...a.excludeMatches].sort()]) === JSON.stringify(b && [[...b.matches].sort(), [...b.excludeMatches].sort()]);

const isMv2 = () => browser.runtime.getManifest().manifest_version === 2;

/** Firefox MV2 registrations last as long as the (persistent) background page that made them. */
let mv2Registration: { plan: ScriptPlan; unregister(): Promise<void> } | null = null;

async function applyPlan(plan: ScriptPlan | null): Promise<void> {
  if (isMv2()) {
    if (mv2Registration && samePlan(mv2Registration.plan, plan)) return;
    await mv2Registration?.unregister();
    mv2Registration = null;
    if (!plan) return;
    const options = {
      matches: plan.matches,
      // Firefox refuses an empty list here.
      ...(plan.excludeMatches.length ? { excludeMatches: plan.excludeMatches } : {}),
      js: [{ file: SCRIPT_FILE }],
      allFrames: true,
      // about:blank and srcdoc frames (widgets a page writes into a frame of its own).
      matchAboutBlank: true,
      runAt: 'document_idle' as const,
    };
    // blob: and data: frames too where this Firefox knows the option; one that does not refuses it.
    const registered = await browser.contentScripts
      .register({ ...options, matchOriginAsFallback: true })
      .catch(() => browser.contentScripts.register(options));
    mv2Registration = { plan, unregister: () => registered.unregister() };
    return;
  }
  const [current] = await browser.scripting.getRegisteredContentScripts({ ids: [SCRIPT_ID] });
  const currentPlan = current ? { matches: current.matches ?? [], excludeMatches: current.excludeMatches ?? [] } : null;
  // A registration from an older version (without the frame option) is renewed too.
  if (samePlan(currentPlan, plan) && (!current || current.matchOriginAsFallback)) return;
  // Unregister and register anew: an update keeps any field it is not given.
  if (current) await browser.scripting.unregisterContentScripts({ ids: [SCRIPT_ID] });
  if (!plan) return;
  await browser.scripting.registerContentScripts([
    {
      id: SCRIPT_ID,
      js: [SCRIPT_FILE],
      matches: plan.matches,
      ...(plan.excludeMatches.length ? { excludeMatches: plan.excludeMatches } : {}),
      allFrames: true,
      // about:blank, srcdoc and blob: frames of the matched sites (call-log widgets, CRM side apps).
      matchOriginAsFallback: true,
      runAt: 'document_idle',
      persistAcrossSessions: true,
    },
  ]);
}

/** Whether the browser grants this origin now; one that cannot answer grants nothing. */
async function isGranted(pattern: string): Promise<boolean> {
  try {
    return await browser.permissions.contains({ origins: [pattern] });
  } catch {
    return false;
  }
}

/** The rules' plan narrowed to what the browser grants (a grant can be taken back in its settings). */
async function currentPlan(): Promise<ScriptPlan | null> {
  const plan = scriptPlan((await loadSettings()).settings.sites);
  if (!plan) return null;
  const held = new Set((await Promise.all(plan.matches.map(async (p) => ((await isGranted(p)) ? p : null)))).filter((p) => p !== null));
  return grantedPlan(plan, (p) => held.has(p));
}

let syncs: Promise<unknown> = Promise.resolve();
/** Brings the registration in line with the stored site rules and grants (in order: calls never overlap). */
export function syncPageScripts(): Promise<void> {
  const next = syncs.then(async () => applyPlan(await currentPlan()));
  syncs = next.catch(() => undefined);
  return next;
}

/** The one way the background talks to content scripts: a data-free command from `pageCommand`. */
export async function sendPageCommand(tabId: number, command: PageCommand): Promise<unknown> {
  return browser.tabs.sendMessage(tabId, pageCommand.parse(command));
}

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).hostname : '';
  } catch {
    return '';
  }
}

/**
 * `scripting` in Firefox MV2 too: it reaches every frame the registration does, where MV2's
 * tabs.executeScript needs matchAboutBlank for srcdoc frames and refuses blob: ones ("Missing host
 * permission for the tab or frames", with every http(s) origin granted; seen in Firefox ESR 153).
 */
async function inject(tabId: number): Promise<void> {
  await browser.scripting.executeScript({ target: { tabId, allFrames: true }, files: [SCRIPT_FILE] });
}

/**
 * Loads the finder into one frame of a tab (the frame whose first stage asked for it). scripting in
 * every build, as inject() above: MV2's tabs.executeScript refuses blob: frames.
 */
export async function injectFinder(tabId: number, frameId: number): Promise<void> {
  await browser.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [FINDER_FILE] });
}

/**
 * Tells every open page that the settings or the agent list changed. A page whose script answers
 * re-reads its config (and stops where the site is now off); a page with no script whose site is
 * now on gets the script, as a fresh load would.
 */
export async function refreshOpenPages(sites: Settings['sites']): Promise<void> {
  const tabs = await browser.tabs.query({});
  await Promise.all(
    tabs.map(async (tab) => {
      if (tab.id === undefined) return;
      try {
        await sendPageCommand(tab.id, { type: 'page/refresh' });
      } catch {
        // No script answered. Inject only into a loaded page of a site that is on now.
        const host = hostOf(tab.url);
        if (tab.status !== 'complete' || !isEnabledOn(host, sites) || !/^https?:/.test(tab.url ?? '')) return;
        await inject(tab.id).catch(() => undefined); // a page the browser keeps scripts out of
      }
    }),
  );
}

/**
 * A listener for data changes that tells pages only when the agent their call button names changed:
 * the agent list is fetched and the last agent written on every call, and telling every frame of
 * every tab each time made each of them ask for its config again, in the middle of a person's call.
 */
export function followDefaultAgent(tellPages: () => void): { onChange: (change: { name: string }) => void; settled: () => Promise<unknown> } {
  let named: Promise<string | null> = defaultAgent().then((a) => a?.name ?? null, () => null);
  return {
    onChange: (change) => {
      if (change.name !== DATA.agentsCache && change.name !== DATA.lastAgentId) return;
      named = named.then(async (before) => {
        const now = (await defaultAgent().catch(() => null))?.name ?? null;
        if (now !== before) tellPages();
        return now;
      });
    },
    /** Resolves once every change heard so far is weighed (tests). */
    settled: () => named,
  };
}

/** Registers for the stored rules now (each background start) and follows every change. */
export function wirePageScripts(): void {
  void syncPageScripts().catch(() => undefined);
  const refresh = async (settingsChanged: boolean) => {
    if (settingsChanged) await syncPageScripts().catch(() => undefined);
    await refreshOpenPages((await loadSettings()).settings.sites);
  };
  // Settings (sites, country) live in storage.local; the agent named on the button in the data store.
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && STORAGE.settings in changes) void refresh(true);
  });
  watchData(followDefaultAgent(() => void refresh(false)).onChange);
  // Access granted or taken back (Options, or the browser's own extension settings): follow it.
  watchGrants(() => void refresh(true));
}
