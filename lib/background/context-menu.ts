/**
 * "Call … with <agent>" on selected text, on any page (the context menu needs no site access), and
 * the keyboard shortcut for a selection. Both open the confirmation; neither dials.
 */
import { browser } from '../browser';
import { t } from '../i18n';
import { loadSettings } from './settings-store';
import { defaultAgent } from './default-agent';
import { openConfirmation, type PageServiceDeps } from './page-service';
import { sendPageCommand } from './page-scripts';
import { countryFor } from '../page/sites';
import { numberInSelection } from '../phone/normalize';
import { askingFrame, type AskingFrame } from '../page/frame-host';
import { pendingSelections, type PendingSelections } from './selection-request';
import { DATA } from '../storage-keys';
import { watchData } from '../store/data-db';

export const MENU_ID = 'call-selection';
export const COMMAND = 'call-selection';

/** `%s` is the browser's: it shows the selected text there. */
function title(agentName: string | null): string {
  return agentName ? t('menu_callSelectionWith', agentName) : t('menu_callSelection');
}

export async function installContextMenu(): Promise<void> {
  const agent = await defaultAgent();
  await browser.contextMenus.removeAll();
  browser.contextMenus.create({ id: MENU_ID, title: title(agent?.name ?? null), contexts: ['selection'] });
}

export async function refreshMenuTitle(): Promise<void> {
  const agent = await defaultAgent();
  try {
    await browser.contextMenus.update(MENU_ID, { title: title(agent?.name ?? null) });
  } catch {
    await installContextMenu();
  }
}

function hostOf(url: string | undefined): string {
  try {
    return url ? new URL(url).hostname : '';
  } catch {
    return '';
  }
}

/** The settings' host for who asked: its site, or the top site for a frame with no site of its own. */
const settingsHost = (asker: AskingFrame) => ('inside' in asker ? asker.inside : asker.site);

/** The browser's fields of a menu click: the frame the selection is in (`frameUrl`, `frameId`), and the tab's page. */
export interface MenuClick {
  selectionText?: string;
  pageUrl?: string;
  frameUrl?: string;
  frameId?: number;
}

export async function onMenuClick(info: MenuClick, tabUrl?: string, deps?: Pick<PageServiceDeps, 'confirmations'>): Promise<void> {
  const selectionText = info.selectionText ?? '';
  if (!selectionText.trim()) return;
  const { settings } = await loadSettings();
  // The frame holding the selection is named, as a page's own request would be (no origin here: its URL).
  // A click that names a frame URL but no frame id (an older browser) is a frame's, not the top page's.
  const frameId = info.frameId ?? (info.frameUrl !== undefined && info.frameUrl !== info.pageUrl ? -1 : 0);
  const asker = askingFrame({ url: info.frameUrl ?? info.pageUrl, frameId, tab: { url: info.pageUrl ?? tabUrl } });
  const country = countryFor(settingsHost(asker), settings);
  await openConfirmation({ number: numberInSelection(selectionText, country), country, source: 'context-menu', asker }, deps);
}

/**
 * The shortcut asks every frame of the active tab; the focused one answers `true` and sends its
 * selection as `page/selected` (handled by ./page-service.ts, which opens the confirmation naming
 * that frame). With no answer (nothing focused, no content script there) the confirmation opens
 * empty, naming the tab's page, so the user sees why nothing was dialled.
 */
export async function onCallSelectionCommand(
  commandTab?: { id?: number; url?: string },
  selections: PendingSelections = pendingSelections,
  now: () => number = Date.now,
): Promise<void> {
  // The browser says which tab the shortcut was pressed in; older ones do not: the active tab then.
  const tab = commandTab?.id !== undefined ? commandTab : (await browser.tabs.query({ active: true, currentWindow: true }))[0];
  if (tab?.id === undefined) return;
  selections.expect(tab.id, now());
  let answered: unknown;
  try {
    answered = await sendPageCommand(tab.id, { type: 'page/selection' });
  } catch {
    answered = undefined; // No content script on this page (paused, or a browser page).
  }
  if (answered === true || !selections.take(tab.id, now())) return;
  const { settings } = await loadSettings();
  const site = hostOf(tab.url);
  await openConfirmation({ number: '', country: countryFor(site, settings), source: 'shortcut', asker: { site, topSite: site } });
}

/**
 * Wires the menu and the shortcut where the browser has them: Firefox for Android has neither
 * `contextMenus` nor `commands`, and the rest of the background must still start there.
 */
export function wireSelectionCalls(): void {
  const menus = browser.contextMenus as typeof browser.contextMenus | undefined;
  const commands = browser.commands as typeof browser.commands | undefined;
  if (menus) {
    browser.runtime.onInstalled.addListener(() => void installContextMenu());
    browser.runtime.onStartup.addListener(() => void installContextMenu());
    menus.onClicked.addListener((info, tab) => {
      if (info.menuItemId === MENU_ID) void onMenuClick(info, tab?.url);
    });
    watchData((change) => {
      if (change.name === DATA.agentsCache || change.name === DATA.lastAgentId) void refreshMenuTitle();
    });
  }
  commands?.onCommand.addListener((command, tab) => {
    if (command === COMMAND) void onCallSelectionCommand(tab);
  });
}
