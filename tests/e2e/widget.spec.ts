/**
 * Issue 19, the widget in Chromium with the production builds (.output/chrome-mv3 and .output/widget):
 * (1) the extension path: a host page's `<voice-agent-call>` → the extension's own confirmation (site,
 * agent, number) → the call on the sandbox → status and done events in the page; five quick
 * requests give one confirmation and no call; (2) a hostile page on another loopback origin forges
 * what it can: no call reaches the sandbox; (3) widget.html in a fake HubSpot host (the SDK's
 * host-side messages, written here from @hubspot/calling-extensions-sdk's IFrameManager) and with a
 * stub `sforce.opencti`, over a fake WidgetTransport the test registers in the page (the proxy way end
 * to end is tests/e2e/widget-proxy.spec.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProxy } from '../../proxy/node';
import { parsePolicy } from '../../proxy/policy';
import { OWNER_KEY } from '../../sandbox/keys';
import { expectAxeClean } from './axe';
import { hostPage, placements, serveWidget, WIDGET_DIR, widgetConfirmations } from './widget-pages';
import { EXTRA_PAGES, expect, test } from './page-fixtures';

test('extension path: the element asks, the extension confirms naming site, agent and number, the call is placed and the page hears its status; five quick requests give one confirmation', async ({ context, ready, pages, sandbox }) => {
  // A whole call on the sandbox (speed 60) and a second tab's requests: one browser launch.
  test.setTimeout(240_000);
  await serveWidget(context);
  EXTRA_PAGES['widget-host.html'] = hostPage(`<voice-agent-call id="w" agent="${ready.agentId}" number="+14155550123" via="call" variables='{"name":"Ada"}'></voice-agent-call>`);
  EXTRA_PAGES['widget-five.html'] = hostPage(
    [1, 2, 3, 4, 5].map((i) => `<voice-agent-call id="w${i}" agent="${ready.agentId}" number="+1415555014${i}" via="call"></voice-agent-call>`).join(''),
  );
  const before = (await placements(sandbox)).length;

  const page = await context.newPage();
  await page.goto(`${pages.url}/widget-host.html`);
  await expect(page.getByText('Number: +14155550123 (set by this page)')).toBeVisible();
  await page.getByRole('button', { name: 'Call', exact: true }).click();

  await expect.poll(() => widgetConfirmations(context).length, { timeout: 20_000 }).toBe(1);
  const confirmation = widgetConfirmations(context)[0]!;
  await expect(confirmation.getByRole('dialog', { name: 'A page asks for a test call' })).toBeVisible();
  await expect(confirmation.getByText('Asked by: 127.0.0.1', { exact: true })).toBeVisible();
  await expect(confirmation.getByText(`Agent: ${ready.agentName}`, { exact: true })).toBeVisible();
  await expect(confirmation.getByText('Number: +14155550123', { exact: true })).toBeVisible();
  // Nothing is placed before Confirm.
  expect((await placements(sandbox)).length).toBe(before);
  await expect(page.getByText("Confirm the call in the extension's window.")).toBeVisible();
  await expectAxeClean(confirmation, { screen: 'widget confirmation' });
  await expectAxeClean(page, { screen: 'host page with the element, waiting' });
  await confirmation.getByRole('checkbox', { name: /Share this call’s transcript and recording with 127\.0\.0\.1/ }).check();
  await confirmation.getByRole('button', { name: 'Confirm call' }).click();

  const events = () => page.evaluate(() => (window as unknown as { __events: { type: string; detail: Record<string, unknown> }[] }).__events);
  await expect.poll(async () => (await events()).some((e) => e.type === 'voice-agent-call:done'), { timeout: 90_000 }).toBe(true);
  const seen = await events();
  const done = seen.find((e) => e.type === 'voice-agent-call:done')!;
  expect(Object.keys(done.detail).sort()).toEqual(['cost', 'durationSeconds', 'executionId', 'id', 'status']);
  expect(done.detail.executionId).toEqual(expect.any(String));
  expect(seen.filter((e) => e.type === 'voice-agent-call:status').map((e) => e.detail.status)).toContain(done.detail.status);
  expect(seen.some((e) => e.type === 'voice-agent-call:error')).toBe(false);
  expect((await placements(sandbox)).length).toBe(before + 1);
  await expect(page.getByRole('heading', { name: 'Transcript' })).toBeVisible();

  // Five quick requests from another tab: one confirmation window, showing the last; no call.
  const five = await context.newPage();
  await five.goto(`${pages.url}/widget-five.html`);
  await expect(five.getByRole('button', { name: 'Call', exact: true })).toHaveCount(5);
  for (const i of [1, 2, 3, 4, 5]) await five.locator(`#w${i}`).getByRole('button', { name: 'Call', exact: true }).click();
  await expect(five.getByText('Too many call requests from this page; try again in a few seconds.')).toHaveCount(2, { timeout: 20_000 });
  await expect(five.getByText('A newer request from this page replaced this one.')).toHaveCount(2, { timeout: 20_000 });
  await expect.poll(() => widgetConfirmations(context).length).toBe(1);
  const last = widgetConfirmations(context)[0]!;
  await expect(last.getByText(/^Number: \+1415555014\d$/)).toBeVisible();
  expect((await placements(sandbox)).length).toBe(before + 1);
});

test('hostile page on another origin: forged messages, a key attribute and a framed widget.html place no call', async ({ context, ready, pages, sandbox }) => {
  await serveWidget(context);
  // The real proxy in front of the sandbox, allowing only the allowed page's origin: the framed
  // widget.html reaches it with a forged token.
  const proxy = await startProxy({
    config: { apiKey: OWNER_KEY, baseUrl: sandbox.url, secret: 'e2e-secret-that-is-long-enough-0123456789' },
    policy: parsePolicy(JSON.stringify({ origins: [pages.url], agents: [ready.agentId], numbers: ['+1415'] }), 'e2e policy'),
    port: 0,
    auditFile: join(mkdtempSync(join(tmpdir(), 'widget-e2e-')), 'audit.jsonl'),
    widgetDir: WIDGET_DIR,
  });
  EXTRA_PAGES['widget-allowed.html'] = hostPage(`<voice-agent-call id="w" agent="${ready.agentId}" number="+14155550123"></voice-agent-call>`);
  EXTRA_PAGES['widget-hostile.html'] = hostPage(`<voice-agent-call id="k" agent="${ready.agentId}" number="+14155550123" api-key="sk-stolen"></voice-agent-call>
    <iframe id="allowed" src="${pages.url}/widget-allowed.html"></iframe>
    <iframe id="crm" src="${pages.url}/widget/widget.html?crm=hubspot&agent=${ready.agentId}&proxy=${encodeURIComponent(proxy.url)}&token=stolen.forged"></iframe>`);
  const before = (await placements(sandbox)).length;
  const page = await context.newPage();
  await page.goto(`${pages.localhostUrl}/widget-hostile.html`);
  await page.waitForLoadState('load');
  const attempts: { kind: string; tries: number; placed: number }[] = [];
  const record = async (kind: string, tries: number, act: () => Promise<unknown>) => {
    const start = (await placements(sandbox)).length;
    await act();
    attempts.push({ kind, tries, placed: (await placements(sandbox)).length - start });
  };

  await record('key attribute on the element', 1, async () => {
    await expect(page.getByText('This widget was given a key (the api-key attribute)')).toBeVisible();
    await expect(page.locator('#k').getByRole('button', { name: 'Call', exact: true })).toHaveCount(0);
  });
  const channel = 'voice-agent-call/v1';
  const place = { agentId: ready.agentId, toNumber: '+14155550123', variables: {}, via: 'call', transcripts: true };
  // Forged from another window: the frame's content script neither answers nor forwards them. The
  // frame records every answer on its bus; its own hello, asked after the forgeries, is the sync point
  // (the content script takes its window's messages in order).
  const allowed = page.frame({ url: /widget-allowed\.html/ })!;
  await allowed.evaluate(() => {
    const w = window as unknown as { __answered: string[] };
    w.__answered = [];
    addEventListener('message', (e) => { if (e.data?.dir === 'answer') w.__answered.push(e.data.nonce); });
  });
  await record('forged asks into the allowed frame (another window)', 5, async () => {
    await page.evaluate(({ channel, place }) => {
      const frame = (document.getElementById('allowed') as HTMLIFrameElement).contentWindow!;
      for (const kind of ['place', 'read', 'stop', 'place', 'hello']) frame.postMessage({ channel, dir: 'ask', nonce: `forged${kind}${Math.random().toString(36).slice(2, 10)}`, kind, ...(kind === 'place' ? { request: place } : kind === 'hello' ? {} : { id: 'guessed-ticket' }) }, '*');
    }, { channel, place });
    await allowed.evaluate((channel) => new Promise<void>((resolve) => {
      addEventListener('message', (e) => { if (e.data?.dir === 'answer' && e.data.nonce === 'ownhello00001') resolve(); });
      postMessage({ channel, dir: 'ask', nonce: 'ownhello00001', kind: 'hello' }, location.origin);
    }), channel);
    expect(await allowed.evaluate(() => (window as unknown as { __answered: string[] }).__answered)).toEqual(['ownhello00001']);
  });
  await record('forged answers and ready signals into the allowed frame', 2, () =>
    page.evaluate((channel) => {
      const frame = (document.getElementById('allowed') as HTMLIFrameElement).contentWindow!;
      frame.postMessage({ channel, dir: 'ready' }, '*');
      frame.postMessage({ channel, dir: 'answer', nonce: 'forgedanswer1', answer: { id: 'x', done: true } }, '*');
    }, channel),
  );
  expect(widgetConfirmations(context)).toHaveLength(0);
  await record('reads and stops of a guessed ticket from its own window', 2, async () => {
    const answers = await page.evaluate((channel) => new Promise<unknown[]>((resolve) => {
      const got: unknown[] = [];
      addEventListener('message', (e) => { if (e.data?.dir === 'answer') { got.push(e.data.answer); if (got.length === 2) resolve(got); } });
      for (const kind of ['read', 'stop']) postMessage({ channel, dir: 'ask', nonce: `guess${kind}0001`, kind, id: 'widget-guessed' }, location.origin);
    }), channel);
    expect(answers).toEqual([expect.objectContaining({ code: 'unknown' }), expect.objectContaining({ code: 'unknown' })]);
  });
  await record('malformed asks (a key field, bad number) from its own window', 2, () =>
    page.evaluate(({ channel, place }) => {
      postMessage({ channel, dir: 'ask', nonce: 'malformed0001', kind: 'place', request: { ...place, apiKey: 'sk-stolen' } }, location.origin);
      postMessage({ channel, dir: 'ask', nonce: 'malformed0002', kind: 'place', request: { ...place, toNumber: 'call me' } }, location.origin);
    }, { channel, place }),
  );
  await record('HubSpot SYNC + DIAL_NUMBER into the framed widget.html', 2, async () => {
    // As a diligent attacker would: SYNC until the app answers, then DIAL_NUMBER.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const frame = (document.getElementById('crm') as HTMLIFrameElement).contentWindow!;
          let synced = false;
          addEventListener('message', (e) => {
            if (e.source !== frame || (e.data as { type?: string })?.type !== 'SYNC_ACK' || synced) return;
            synced = true;
            frame.postMessage({ type: 'DIAL_NUMBER', messageId: 'evil_1', data: { phoneNumber: '+14155550999' } }, '*');
            resolve();
          });
          const sync = () => {
            if (synced) return;
            frame.postMessage({ type: 'SYNC', hostUrl: location.origin, portalId: 1, userId: 2, ownerId: 3, iframeLocation: 'widget', usesCallingWindow: false }, '*');
            setTimeout(sync, 100);
          };
          sync();
        }),
    );
    const crm = page.frameLocator('#crm');
    // The forged DIAL_NUMBER at most fills the number and waits for a tester; even a tester's Call
    // (clicked here) places nothing: the token is forged (the proxy refuses it: tests/unit/proxy/
    // proxy-hostile.test.ts), and here, a loopback app framed by another site, Chromium's Local Network
    // Access does not even let the request leave. Either way the widget says so in words.
    const call = crm.getByRole('button', { name: 'Call', exact: true });
    await expect(call).toBeVisible();
    await call.click();
    await expect(crm.locator('body')).toContainText(/refused the widget.s token|Could not reach the proxy at/);
  });
  // A forged place from its own window: at most the extension's confirmation, never a call.
  await record('forged place from its own window (no one confirms)', 1, async () => {
    const answer = await page.evaluate(({ channel, place }) => new Promise<unknown>((resolve) => {
      addEventListener('message', (e) => { if (e.data?.dir === 'answer' && e.data.nonce === 'ownplace0001') resolve(e.data.answer); });
      postMessage({ channel, dir: 'ask', nonce: 'ownplace0001', kind: 'place', request: place }, location.origin);
    }), { channel, place });
    expect(answer).toMatchObject({ done: false, executionId: null, message: "Confirm the call in the extension's window." });
  });

  console.log('\nHostile page (localhost → extension on 127.0.0.1 pages): attempts by kind');
  console.table(attempts);
  console.log(`calls placed from the hostile page: ${attempts.reduce((n, a) => n + a.placed, 0)}`);
  expect(attempts.every((a) => a.placed === 0)).toBe(true);
  expect((await placements(sandbox)).length).toBe(before);
  await proxy.close();
});

/** A fake WidgetTransport in the widget's page (the proxy's transport is built apart): a call that ends with a transcript and a recording. */
function registerFakeTransport(): void {
  const finished = {
    id: 'call-crm-1', agentId: 'agent-1', toNumber: '', via: 'batch', executionId: 'exec-crm-1', status: 'completed',
    observed: [{ status: 'queued', at: Date.now() }, { status: 'completed', at: Date.now() }], done: true, message: null, stopRequested: false,
    durationSeconds: 61, cost: 0.3, transcript: 'assistant: Hello, this is the clinic.\nuser: I would like to book.', recordingUrl: 'https://recordings.example/exec-crm-1.mp3', extractedData: { intent: 'book' },
  };
  const w = window as unknown as { VoiceAgentCall: { registerProxyTransport(f: unknown): void }; __placed: unknown[] };
  w.__placed = [];
  w.VoiceAgentCall.registerProxyTransport(() => ({
    place: async (request: { toNumber: string }) => {
      w.__placed.push(request);
      finished.toNumber = request.toNumber;
      return { ...finished, status: 'queued', observed: finished.observed.slice(0, 1), done: false, durationSeconds: null, cost: null, transcript: null, recordingUrl: null, extractedData: null };
    },
    read: async () => finished,
    stop: async () => finished,
  }));
}

test('widget.html in CRM slots: HubSpot (the SDK’s host-side messages) gets callCompleted with the transcript and recording; Salesforce Open CTI click-to-dial fills the number', async ({ context, pages }) => {
  await serveWidget(context);
  const app = `${pages.url}/widget/widget.html?crm=hubspot&agent=agent-1&proxy=${encodeURIComponent('http://127.0.0.1:9')}&token=test-token`;
  // A faithful fake of HubSpot's host side, from the SDK's IFrameManager: SYNC (retried) until SYNC_ACK,
  // DIAL_NUMBER with the record's number, ENGAGEMENT_CREATED in answer to OUTGOING_CALL_STARTED.
  EXTRA_PAGES['hubspot-host.html'] = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>HubSpot</title></head><body>
    <iframe id="app" src="${app}" title="Calling" width="420" height="600"></iframe>
    <script>
      const frame = document.getElementById('app');
      const appOrigin = new URL(frame.src).origin;
      window.__fromApp = [];
      let synced = false;
      addEventListener('message', (e) => {
        if (e.source !== frame.contentWindow || e.origin !== appOrigin) return;
        window.__fromApp.push(e.data);
        if (e.data.type === 'SYNC_ACK') synced = true;
        if (e.data.type === 'OUTGOING_CALL_STARTED') frame.contentWindow.postMessage({ type: 'ENGAGEMENT_CREATED', messageId: 'hs_' + Date.now(), data: { engagementId: 4242 } }, appOrigin);
      });
      frame.addEventListener('load', () => {
        const sync = () => { if (synced) return; frame.contentWindow.postMessage({ type: 'SYNC', hostUrl: location.origin, portalId: 1, userId: 2, ownerId: 3, iframeLocation: 'widget', usesCallingWindow: false }, appOrigin); setTimeout(sync, 100); };
        sync();
      });
      window.dial = (phoneNumber) => frame.contentWindow.postMessage({ type: 'DIAL_NUMBER', messageId: 'hs_dial_1', data: { phoneNumber, objectId: 501, objectType: 'CONTACT', portalId: 1 } }, appOrigin);
    </script></body></html>`;
  const hubspot = await context.newPage();
  await hubspot.goto(`${pages.localhostUrl}/hubspot-host.html`);
  const fromApp = () => hubspot.evaluate(() => (window as unknown as { __fromApp: { type: string; data?: Record<string, unknown> }[] }).__fromApp);
  await expect.poll(async () => (await fromApp()).map((m) => m.type)).toEqual(['SYNC_ACK', 'INITIALIZED']);
  const frame = hubspot.frame({ url: /widget\.html/ })!;
  await frame.evaluate(registerFakeTransport);
  await hubspot.evaluate(() => (window as unknown as { dial(n: string): void }).dial('+1 (415) 555-0123'));
  const slot = hubspot.frameLocator('#app');
  await expect(slot.getByText('Number: +1 (415) 555-0123 (set by this page)')).toBeVisible();
  // The number waits for the tester: nothing is placed until Call.
  expect(await frame.evaluate(() => (window as unknown as { __placed: unknown[] }).__placed)).toEqual([]);
  await slot.getByRole('button', { name: 'Call', exact: true }).click();
  await expect.poll(async () => (await fromApp()).map((m) => m.type), { timeout: 20_000 }).toEqual(['SYNC_ACK', 'INITIALIZED', 'OUTGOING_CALL_STARTED', 'CALL_ENDED', 'CALL_COMPLETED']);
  const messages = await fromApp();
  expect(messages[2]!.data).toMatchObject({ externalCallId: 'call-crm-1', toNumber: '+14155550123', createEngagement: true });
  expect(messages[3]!.data).toMatchObject({ externalCallId: 'call-crm-1', engagementId: 4242, callEndStatus: 'COMPLETED' });
  expect(messages[4]!.data).toMatchObject({
    externalCallId: 'call-crm-1',
    engagementId: 4242,
    engagementProperties: {
      hs_call_body: 'assistant: Hello, this is the clinic.\nuser: I would like to book.',
      hs_call_recording_url: 'https://recordings.example/exec-crm-1.mp3',
      hs_call_duration: '61000',
      hs_call_to_number: '+14155550123',
    },
  });

  // Salesforce: a stub of sforce.opencti with its documented calls, in place of the org's opencti_min.js.
  await context.addInitScript(() => {
    if (!location.pathname.endsWith('/widget.html') || !location.search.includes('crm=salesforce')) return;
    const ok = { success: true, returnValue: null, errors: null };
    const calls: unknown[][] = [];
    (window as unknown as { sforce: unknown }).sforce = {
      opencti: {
        __calls: calls,
        __listener: null as null | ((p: unknown) => void),
        enableClickToDial(o: { callback?: (r: unknown) => void }) { calls.push(['enableClickToDial']); o?.callback?.(ok); },
        onClickToDial(o: { listener: (p: unknown) => void }) { calls.push(['onClickToDial']); this.__listener = o.listener; },
        setSoftphonePanelVisibility(o: { visible: boolean; callback?: (r: unknown) => void }) { calls.push(['setSoftphonePanelVisibility', o.visible]); o?.callback?.(ok); },
      },
    };
  });
  const salesforce = await context.newPage();
  await salesforce.goto(`${pages.url}/widget/widget.html?crm=salesforce&agent=agent-1&proxy=${encodeURIComponent('http://127.0.0.1:9')}&token=test-token`);
  type Cti = { __calls: unknown[][]; __listener: (p: unknown) => void };
  await expect.poll(() => salesforce.evaluate(() => (window as unknown as { sforce: { opencti: { __calls: unknown[][] } } }).sforce.opencti.__calls)).toEqual([['enableClickToDial'], ['onClickToDial']]);
  await salesforce.evaluate(registerFakeTransport);
  await salesforce.evaluate(() => (window as unknown as { sforce: { opencti: Cti } }).sforce.opencti.__listener({ number: '+14155550177', recordId: '003000000000001', recordName: 'Ada Lovelace', objectType: 'Contact' }));
  await expect(salesforce.getByText('Number: +14155550177 (set by this page)')).toBeVisible();
  expect(await salesforce.evaluate(() => (window as unknown as { sforce: { opencti: { __calls: unknown[][] } } }).sforce.opencti.__calls)).toContainEqual(['setSoftphonePanelVisibility', true]);
  await salesforce.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(salesforce.getByText('Talk time: 61 s')).toBeVisible();
  await expect(salesforce.getByRole('heading', { name: 'Transcript' })).toBeVisible();
  expect(await salesforce.evaluate(() => (window as unknown as { __placed: { toNumber: string }[] }).__placed.map((p) => p.toNumber))).toEqual(['+14155550177']);
  // The finished widget (timeline, transcript, recording, extracted data) in light and dark, by keyboard: Call again is reachable.
  await expectAxeClean(salesforce, { screen: 'widget.html, light' });
  await salesforce.emulateMedia({ colorScheme: 'dark' });
  await expectAxeClean(salesforce, { screen: 'widget.html, dark' });
  await salesforce.locator('body').focus();
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await salesforce.keyboard.press('Tab');
    reached = await salesforce.evaluate(() => document.querySelector('voice-agent-call')?.shadowRoot?.activeElement?.textContent?.trim() === 'Call again');
  }
  expect(reached).toBe(true);
});
