import { browser, type Runtime } from '../../lib/browser';
import { CallsService, TRACKER_ALARM } from '../../lib/background/calls-service';
import { wireSelectionCalls } from '../../lib/background/context-menu';
import { wireNotificationClicks } from '../../lib/background/notification-click';
import { forgetTab, handlePageRequest, pageServiceDefaults } from '../../lib/background/page-service';
import { wirePageScripts } from '../../lib/background/page-scripts';
import { openPanel } from '../../lib/background/panel';
import { planRuns, PLAN_RUNS_ALARM } from '../../lib/background/plan-runs';
import { batchPlacements, BATCH_PLACEMENTS_ALARM } from '../../lib/background/batch-placements';
import { handleUiRequest, publishKeyState } from '../../lib/background/router';
import { classifySender } from '../../lib/background/sender';
import { MAX_MESSAGE_BYTES, messageSize, uiRequest } from '../../lib/messages';
import { admitPageMessage } from '../../lib/background/page-gate';
import { personFirst } from '../../lib/background/person-first';
import { dataReady } from '../../lib/store/migrate';

const refused = (message: string) => Promise.resolve({ ok: false, error: { message, kind: 'validation' } });

export default defineBackground(() => {
  const calls = new CallsService();
  const extensionOrigin = new URL(browser.runtime.getURL('/')).origin;
  // Page requests read and stop widget calls through the same placement engine as the UI.
  const pageDeps = { ...pageServiceDefaults, calls };

  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
    // Sender first (browser-set fields only), then a size cap, then a strict parse.
    const kind = classifySender(sender, browser.runtime.id, extensionOrigin);
    if (kind === 'foreign') return undefined;
    if (kind === 'content-script') {
      const admitted = admitPageMessage(message);
      return 'request' in admitted ? handlePageRequest(admitted.request, sender, pageDeps) : admitted.refused && Promise.resolve(admitted.refused);
    }
    if (messageSize(message) > MAX_MESSAGE_BYTES) return refused('The request was too large.');
    const parsed = uiRequest.safeParse(message);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return refused(`Invalid request: ${issue?.path.join('.')} ${issue?.message}`.trim());
    }
    // A person is waiting on this answer: pages' work holds back until it is given (person-first.ts).
    return personFirst.around(() => handleUiRequest(parsed.data, { calls, openPanel }));
  });

  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === TRACKER_ALARM) void calls.runDue();
    if (alarm.name === PLAN_RUNS_ALARM) void planRuns().runDue();
    if (alarm.name === BATCH_PLACEMENTS_ALARM) void batchPlacements().runDue();
  });

  // The context menu and the shortcut, where the platform has them (not on Firefox for Android).
  wireSelectionCalls();
  // A click on a call's notification opens that call.
  wireNotificationClicks();
  // The content script is registered only where click-to-call is on, and told of changes.
  wirePageScripts();
  browser.tabs.onRemoved.addListener((tabId) => void forgetTab(tabId));
  browser.tabs.onUpdated.addListener((tabId, change) => {
    // A new page (or a reload) in the tab: its old numbers are gone; the content scripts report anew.
    if (change.status === 'loading') void forgetTab(tabId);
  });

  // Data that older versions kept in storage.local moves to IndexedDB once (every store waits on it).
  void dataReady();
  // A restarted worker picks up every call still being followed.
  void publishKeyState();
  void calls.runDue();
  void planRuns().runDue();
  void batchPlacements().runDue();
  void calls.updateBadge();
});
