/**
 * Sender classification from browser-set fields only (never from anything a page can write).
 * An extension page has our id, no tab... or, for a popup/panel shown in a tab by tests or users,
 * a URL on our own origin. A content script has our id and a tab.
 */
import type { Runtime } from '../browser';

export type SenderKind = 'extension-page' | 'content-script' | 'foreign';

/** Chrome adds `origin`; the polyfill's types predate it. */
type Sender = Runtime.MessageSender & { origin?: string };

export function classifySender(sender: Sender, extensionId: string, extensionOrigin: string): SenderKind {
  if (sender.id !== extensionId) return 'foreign';
  const url = sender.url ?? '';
  // Extension pages live at our origin; content scripts run at the page's URL inside a tab.
  const fromOurOrigin = url.startsWith(extensionOrigin + '/') || url === extensionOrigin;
  if (fromOurOrigin && (sender.origin === undefined || sender.origin === extensionOrigin || sender.origin === 'null')) {
    return 'extension-page';
  }
  if (sender.tab) return 'content-script';
  return 'foreign';
}
