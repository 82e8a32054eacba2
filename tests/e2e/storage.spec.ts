/**
 * Call data never reaches storage.local (which content scripts can read, and whose changes reach every
 * frame that listens): after a completed call, nothing there holds the number, the batch, execution
 * or call id, or the transcript; the history lives in the extension origin's IndexedDB and the side
 * panel still shows it.
 */
import { test, expect, setUp, stopServiceWorker } from './fixtures';
import type { CallRecord } from '../../lib/calls/call-record';
import { newCallRecord } from '../../lib/calls/dial';
import { readDataRecordScript, storedCallsIn } from '../support/data-store';

const NUMBER = '+14155552671';

/** Every string in a stored value, however deep (keys included). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

test('after a completed call, storage.local holds no number, id or transcript of it; the side panel still shows the history', async ({ sandbox, openPage, serviceWorker }) => {
  const options = await openPage('options.html');
  await setUp(options, sandbox.url);
  await options.close();

  const popup = await openPage('popup.html');
  const agent = popup.getByLabel('Agent');
  await expect(agent.locator('option').nth(1)).toBeAttached();
  await agent.selectOption({ index: 1 });
  await popup.getByLabel('Phone number').fill('(415) 555-2671'); // national form, default country US
  await popup.getByRole('button', { name: 'Call' }).click();
  await popup.getByRole('button', { name: 'Confirm' }).click();
  await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });

  // What the call left behind, from the extension's data store.
  const sw = await serviceWorker();
  const [call] = await storedCallsIn<CallRecord>(sw);
  expect(call).toMatchObject({ toNumber: NUMBER, status: 'completed' });
  const transcriptLines = (call!.execution?.transcript ?? '')
    .split('\n')
    .map((line) => line.replace(/^\w+:\s*/, '').trim())
    .filter((line) => line.length >= 8);
  expect(transcriptLines.length).toBeGreaterThan(0);
  const secrets = [call!.id, call!.batchId!, call!.executionId!, ...transcriptLines];
  expect(secrets.every(Boolean)).toBe(true);

  const local = await sw.evaluate(() => (globalThis as unknown as { chrome: { storage: { local: { get(k: null): Promise<unknown> } } } }).chrome.storage.local.get(null));
  const values = strings(local);
  expect(values.length).toBeGreaterThan(0); // settings are there: the check reads real storage
  for (const value of values) {
    // The number in any format: E.164, national digits, spaced or punctuated.
    expect(value.replace(/\D/g, '')).not.toContain('4155552671');
    for (const secret of secrets) expect(value).not.toContain(secret);
  }
  // Nothing under the keys older versions used (the agent list, last agent, route memory, key hint too).
  expect(Object.keys(local as object)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(calls|agents\.cache|ui\.|api\.)/)]));

  const panel = await openPage('sidepanel.html');
  await panel.getByRole('tab', { name: 'History' }).click();
  await expect(panel.getByText(NUMBER).first()).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Open' }).first()).toBeVisible();
});

test('upgrade: what an older version kept in storage.local moves into IndexedDB once, and the pages show it', async ({ sandbox, context, openPage }) => {
  const options = await openPage('options.html');
  await setUp(options, sandbox.url);
  const legacyCall = {
    ...newCallRecord({ id: 'legacy-call', baseUrl: sandbox.url, agentId: 'agent-legacy', agentName: 'Legacy agent', toNumber: '+14155550142', fromNumber: null, variables: {} }, Date.now()),
    step: 'finished',
    status: 'completed',
  };
  // What an older version kept in storage.local (calls v1), then a worker start, as after an update.
  const legacy = { calls: { version: 1, calls: [legacyCall] }, 'ui.lastAgentId': 'agent-legacy', 'ui.hasKey': true, 'ui.keyHint': '••••••••wner' };
  const local = () => options.evaluate(() => (globalThis as unknown as { chrome: any }).chrome.storage.local.get(null));
  await options.evaluate((values) => (globalThis as unknown as { chrome: any }).chrome.storage.local.set(values), legacy);
  await stopServiceWorker(context, options);
  await options.reload(); // its settings/get starts the worker again
  await expect.poll(async () => Object.keys(await local()), { timeout: 20_000 }).toEqual(['settings']);
  expect(await options.evaluate(readDataRecordScript('calls'))).toEqual(legacy.calls);
  expect(await options.evaluate(readDataRecordScript('ui.lastAgentId'))).toBe('agent-legacy');
  expect(await options.evaluate(readDataRecordScript('meta.version'))).toBe(1);

  const panel = await openPage('sidepanel.html');
  await panel.getByRole('tab', { name: 'History' }).click();
  await expect(panel.getByText('+14155550142')).toBeVisible();
});
