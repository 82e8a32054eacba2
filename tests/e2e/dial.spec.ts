/**
 * The heart of the product in real Chromium on the production build, against the sandbox over HTTP:
 * setup, dialling through a single-call batch, following the call to its outcome, and the results.
 */
import type { Page } from '@playwright/test';
import { test, expect, setUp, sandboxRequests, stopServiceWorker } from './fixtures';
import { EMPTY_WALLET_KEY, READONLY_KEY } from '../../sandbox/keys';
import type { CallRecord } from '../../lib/calls/call-record';
import { storedCallsIn } from '../support/data-store';

/** Runs inside extension pages, where Chromium's `chrome` API exists. */
declare const chrome: any;

async function dial(popup: Page, number: string, variables: Record<string, string> = {}): Promise<void> {
  const agent = popup.getByLabel('Agent');
  await expect(agent.locator('option').nth(1)).toBeAttached();
  if (!(await agent.inputValue())) await agent.selectOption({ index: 1 });
  await popup.getByLabel('Phone number').fill(number);
  for (const [name, value] of Object.entries(variables)) {
    await popup.getByRole('button', { name: 'Add variable' }).click();
    await popup.getByLabel('Name of variable', { exact: false }).last().fill(name);
    await popup.getByLabel('Value of variable', { exact: false }).last().fill(value);
  }
  await expect(popup.getByRole('button', { name: 'Call' })).toBeEnabled();
  await popup.getByRole('button', { name: 'Call' }).click();
  await popup.getByRole('button', { name: 'Confirm' }).click();
}

/** The calls the background keeps (in the extension origin's IndexedDB), read from an extension page. */
async function storedCalls(page: Page): Promise<CallRecord[]> {
  return storedCallsIn<CallRecord>(page);
}

async function setUpAndOpenPopup(openPage: (p: string) => Promise<Page>, url: string, key?: string): Promise<Page> {
  const options = await openPage('options.html');
  await setUp(options, url, key);
  await options.close();
  return openPage('popup.html');
}

test('first run: the popup asks for setup; options save the key masked and test the connection', async ({ sandbox, openPage }) => {
  const popup = await openPage('popup.html');
  await expect(popup.getByLabel('API key')).toBeVisible();
  const options = await openPage('options.html');
  await options.getByRole('button', { name: 'Local sandbox' }).click();
  await expect(options.getByLabel('API base URL')).toHaveValue('http://127.0.0.1:8787');
  await setUp(options, sandbox.url);
  await expect(options.getByText('va_test_owner')).toHaveCount(0);
  await expect(options.getByLabel('API key')).not.toHaveValue('va_test_owner');
  await options.getByRole('button', { name: 'Test connection' }).click();
  await expect(options.getByText(/Connected/)).toBeVisible();
  // The key is not reachable from storage.local, which content scripts can read.
  const local = await options.evaluate(() => chrome.storage.local.get(null));
  expect(JSON.stringify(local)).not.toContain('va_test_owner');
  await popup.reload();
  await expect(popup.getByLabel('Agent')).toBeVisible();
});

test('a wrong key is explained, and what was typed stays', async ({ sandbox, openPage }) => {
  const options = await openPage('options.html');
  await options.getByLabel('API base URL').fill(sandbox.url);
  await options.getByLabel('API key').fill('va_not_a_real_key');
  await options.getByRole('button', { name: 'Test connection' }).click();
  await expect(options.getByText(/refused the API key \(401/)).toBeVisible();
  await expect(options.getByLabel('API base URL')).toHaveValue(sandbox.url);
  await expect(options.getByLabel('API key')).toHaveValue('va_not_a_real_key');
  // An unreachable host is a different message.
  await options.getByLabel('API base URL').fill('http://127.0.0.1:9');
  await options.getByRole('button', { name: 'Test connection' }).click();
  await expect(options.getByText(/Could not reach/)).toBeVisible();
  // A non-HTTPS remote host is refused before any request.
  await options.getByLabel('API base URL').fill('http://api.example.com');
  await options.getByRole('button', { name: 'Test connection' }).click();
  await expect(options.getByText(/must use HTTPS/).first()).toBeVisible();
});

test('an invalid number blocks Call with an inline error and keeps the text', async ({ sandbox, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url);
  await popup.getByLabel('Agent').selectOption({ index: 1 });
  await popup.getByLabel('Phone number').fill('415 55');
  await popup.getByLabel('Phone number').blur();
  await expect(popup.getByRole('button', { name: 'Call' })).toBeDisabled();
  await expect(popup.getByText(/Too short/)).toBeVisible();
  await expect(popup.getByLabel('Phone number')).toHaveValue('415 55');
  await popup.getByLabel('Phone number').fill('+44 20 7946 0958');
  await expect(popup.getByText('+44 20 7946 0958 · United Kingdom')).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Call' })).toBeEnabled();
});

test('dial to completed: confirmation says when it starts; transcript, playable recording and extracted data; service text stays text', async ({ sandbox, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url);
  const agent = popup.getByLabel('Agent');
  await expect(agent.locator('option').nth(1)).toBeAttached();
  await agent.selectOption({ index: 1 });
  await popup.getByLabel('Phone number').fill('(415) 555-2671');
  await popup.getByRole('button', { name: 'Add variable' }).click();
  await popup.getByLabel('Name of variable 1').fill('name');
  await popup.getByLabel('Value of variable 1').fill('<img src=x onerror=window.__pwned=1>');
  await popup.getByRole('button', { name: 'Call' }).click();
  const confirmation = popup.locator('.confirmation, [role="dialog"], form').filter({ hasText: 'Confirm' }).first();
  await expect(confirmation).toContainText('+1 415 555 2671');
  await expect(confirmation).toContainText(/10-minute mark/);
  await popup.getByRole('button', { name: 'Confirm' }).click();
  await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });

  const [call] = await storedCalls(popup);
  expect(call!.status).toBe('completed');
  const batchCreates = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/batches');
  expect(batchCreates).toHaveLength(1);

  const panel = await openPage(`sidepanel.html?call=${call!.id}`);
  const transcript = panel.getByRole('region', { name: 'Transcript' });
  await expect(transcript).toContainText('<img src=x onerror=window.__pwned=1>');
  await expect(transcript.locator('img')).toHaveCount(0);
  expect(await panel.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  const extracted = panel.getByRole('region', { name: 'Extracted data' });
  await expect(extracted.getByRole('rowheader', { name: 'callback_time' })).toBeVisible();
  await expect(extracted.getByRole('cell', { name: 'tomorrow 10am' })).toBeVisible();
  // The recording plays: the audio element loads real audio with a duration.
  const duration = await panel.getByLabel('Call recording').evaluate(
    (audio: HTMLAudioElement) =>
      new Promise<number>((resolve, reject) => {
        audio.addEventListener('loadedmetadata', () => resolve(audio.duration), { once: true });
        audio.addEventListener('error', () => reject(new Error('audio error')), { once: true });
        audio.preload = 'auto';
        audio.load();
      }),
  );
  expect(duration).toBeGreaterThan(0.5);
  await expect(panel.getByRole('button', { name: 'Copy transcript' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Download JSON' })).toBeVisible();
});

const OUTCOMES = [
  { number: '+14155551001', status: 'Busy', explanation: /line was busy/ },
  { number: '+14155551002', status: 'No answer', explanation: /nobody picked up/ },
  { number: '+14155551004', status: 'Completed', explanation: /voicemail/i },
];

test('busy, no-answer and voicemail outcomes are explained', async ({ sandbox, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url);
  for (const outcome of OUTCOMES) {
    await dial(popup, outcome.number);
    await expect(popup.locator('.call-status')).toHaveText(new RegExp(outcome.status), { timeout: 60_000 });
    await expect(popup.getByText(outcome.explanation).first()).toBeVisible();
    await popup.getByRole('button', { name: 'New call' }).click();
  }
});

test('an empty wallet ends balance-low, explained', async ({ sandbox, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url, EMPTY_WALLET_KEY);
  await dial(popup, '+14155552671');
  await expect(popup.locator('.call-status')).toHaveText(/Balance too low/, { timeout: 60_000 });
  await expect(popup.getByText(/wallet balance is too low/)).toBeVisible();
});

test('a refused step shows the service message and Retry does not create a second batch', async ({ sandbox, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url);
  // The schedule request is refused once (a 400 does not pass by itself; a 503 would be tried again
  // automatically): the batch exists, unscheduled.
  await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    body: JSON.stringify({ method: 'POST', path: '/schedule$', status: 400, count: 1, body: { error: 400, message: 'scheduled_at is refused' } }),
  });
  await dial(popup, '+14155552671');
  await expect(popup.getByRole('alert')).toContainText(/Scheduling the batch failed: scheduled_at is refused/);
  await popup.getByRole('button', { name: 'Retry' }).click();
  await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
  const creates = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/batches');
  expect(creates).toHaveLength(1);
});

test('a read-only key: the refused batch is explained (403)', async ({ sandbox, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url, READONLY_KEY);
  await dial(popup, '+14155552671');
  await expect(popup.getByRole('alert')).toContainText(/403/);
  await expect(popup.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test.describe('a long call', () => {
  test.use({ sandboxOptions: { speed: 15 } });
  test('Stop call stops it', async ({ sandbox, openPage }) => {
    const popup = await setUpAndOpenPopup(openPage, sandbox.url);
    await dial(popup, '+14155551007');
    await expect(popup.locator('.call-status')).toHaveText(/In progress/, { timeout: 60_000 });
    await popup.getByRole('button', { name: 'Stop call' }).click();
    await expect(popup.locator('.call-status')).toHaveText(/Stopped/, { timeout: 30_000 });
    expect((await sandboxRequests(sandbox)).some((r) => r.method === 'POST' && /\/stop$/.test(r.path))).toBe(true);
  });
});

test.describe('a call outliving its popup', () => {
  test.use({ sandboxOptions: { speed: 4 } });
  test('popup closed and service worker stopped mid-call: the call still completes, lands in history and notifies', async ({ sandbox, context, openPage }) => {
    test.setTimeout(150_000);
    const popup = await setUpAndOpenPopup(openPage, sandbox.url);
    await dial(popup, '+14155552671');
    await expect(popup.locator('.call-status')).toHaveText(/Scheduled|Queued/);
    const keeper = await openPage('options.html'); // an extension page to drive CDP and read storage from
    await popup.close();
    await stopServiceWorker(context, keeper);
    // Nothing of ours is open but the options page; the tracker's alarm must bring the worker back.
    await expect
      .poll(async () => (await storedCalls(keeper))[0]?.status, { timeout: 120_000, intervals: [2_000] })
      .toBe('completed');
    const notifications = await keeper.evaluate(() => chrome.notifications.getAll());
    expect(Object.keys(notifications).some((id) => id.startsWith('call-'))).toBe(true);
    const panel = await openPage('sidepanel.html');
    await panel.getByRole('tab', { name: 'History' }).click();
    await expect(panel.getByText('+14155552671').first()).toBeVisible();
  });
});

for (const routes of ['spec', 'live'] as const) {
  test.describe(`the service speaking only the ${routes} routes`, () => {
    test.use({ sandboxOptions: { speed: 60, routes } });
    test(`dials to completed against --routes ${routes}`, async ({ sandbox, openPage }) => {
      const popup = await setUpAndOpenPopup(openPage, sandbox.url);
      await dial(popup, '+14155552671');
      await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
      const schedules = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && /schedule/.test(r.path) && r.status === 200);
      expect(schedules.map((r) => r.path)).toEqual([routes === 'spec' ? '/batches/schedule' : expect.stringMatching(/^\/batches\/[0-9a-f]{32}\/schedule$/)]);
    });
  });
}
