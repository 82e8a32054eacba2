import { browser, type Runtime } from '../../lib/browser';
import { CallsService, TRACKER_ALARM } from '../../lib/background/calls-service';
import { handleUiRequest, publishKeyState } from '../../lib/background/router';
import { classifySender } from '../../lib/background/sender';
import { openPanel } from '../../lib/background/panel';
import { MAX_MESSAGE_BYTES, uiRequest } from '../../lib/messages';

export default defineBackground(() => {
  const calls = new CallsService();
  const extensionOrigin = new URL(browser.runtime.getURL('/')).origin;

  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
    // Sender first: only our own extension pages may use the UI protocol.
    if (classifySender(sender, browser.runtime.id, extensionOrigin) !== 'extension-page') return undefined;
    if (JSON.stringify(message ?? null).length > MAX_MESSAGE_BYTES) {
      return Promise.resolve({ ok: false, error: { message: 'The request was too large.', kind: 'validation' } });
    }
    const parsed = uiRequest.safeParse(message);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return Promise.resolve({ ok: false, error: { message: `Invalid request: ${issue?.path.join('.')} ${issue?.message}`.trim(), kind: 'validation' } });
    }
    return handleUiRequest(parsed.data, { calls, openPanel });
  });

  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === TRACKER_ALARM) void calls.runDue();
  });

  // A restarted worker picks up every call still being followed.
  void publishKeyState();
  void calls.runDue();
  void calls.updateBadge();
});
