/**
 * "Call … with <agent>" on selected text, on any page (the context menu needs no site access), and
 * the keyboard shortcut for a selection. Both open the confirmation; neither dials.
 */
import { browser } from '../browser';
import { t } from '../i18n';
import { loadSettings } from './settings-store';
import { defaultAgent, openConfirmation } from './page-service';
import { sendPageCommand } from './page-scripts';
import { countryFor } from '../page/sites';
import { numberInSelection } from '../phone/normalize';
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

export async function onMenuClick(selectionText: string | undefined, pageUrl: string | undefined): Promise<void> {
  if (!(selectionText ?? '').trim()) return;
  const { settings } = await loadSettings();
  const site = hostOf(pageUrl);
  const country = countryFor(site, settings);
  await openConfirmation({ number: numberInSelection(selectionText ?? '', country), country, source: 'context-menu', site });
}

/** The shortcut asks the active tab's content script for its selection. */
export async function onCallSelectionCommand(): Promise<void> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  if (tab?.id === undefined) return;
  let selection: unknown;
  try {
    selection = await sendPageCommand(tab.id, { type: 'page/selection' });
  } catch {
    selection = undefined; // No content script on this page (paused, or a browser page).
  }
  const { settings } = await loadSettings();
  const site = hostOf(tab.url);
  const country = countryFor(site, settings);
  // With nothing selected the confirmation still opens, empty, so the user sees why nothing was dialled.
  const number = typeof selection === 'string' ? numberInSelection(selection, country) : '';
  await openConfirmation({ number, country, source: 'shortcut', site });
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
      if (info.menuItemId === MENU_ID) void onMenuClick(info.selectionText, info.pageUrl ?? tab?.url);
    });
    watchData((change) => {
      if (change.name === DATA.agentsCache || change.name === DATA.lastAgentId) void refreshMenuTitle();
    });
  }
  commands?.onCommand.addListener((command) => {
    if (command === COMMAND) void onCallSelectionCommand();
  });
}
