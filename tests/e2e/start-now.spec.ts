/**
 * "Start calls now" in real Chromium on the production build against the sandbox: with the option on,
 * a call goes out with POST /call where the service has it (live and both route forms) and is followed
 * to its end; Stop while queued stops it at the service; a service without the route (spec form) gets
 * the single-call batch; a lost POST /call answer does not make a second call.
 */
import { expectAxeClean } from './axe';
import type { Page } from '@playwright/test';
import { test, expect, setUp, sandboxRequests } from './fixtures';
import type { Sandbox } from '../../sandbox/server';
import type { RoutesMode } from '../../sandbox/router';
import { SEED } from '../../sandbox/seed';
import { call } from '../../sandbox/testing';
import { storedCallsIn } from '../support/data-store';
import type { CallRecord } from '../../lib/calls/call-record';

const AGENT = SEED.A.agents.sales;

const control = (sandbox: Sandbox, path: string, body?: unknown) =>
  fetch(`${sandbox.url}/__sandbox/${path}`, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) });

const axeClean = (page: Page) => expectAxeClean(page);

/** Sets up the key, turns "Start calls now" on from the options page (by keyboard), opens the popup. */
async function setUpStartNow(openPage: (p: string) => Promise<Page>, url: string, opts: { axe?: boolean } = {}): Promise<Page> {
  const options = await openPage('options.html');
  await setUp(options, url);
  const box = options.getByRole('checkbox', { name: 'Start calls now where the service offers it' });
  await expect(box).not.toBeChecked();
  await expect(box).toBeEnabled();
  await box.focus();
  await options.keyboard.press('Space');
  await expect(options.getByRole('status').filter({ hasText: 'Calls will start at once where the service offers it.' })).toBeVisible();
  await expect(box).toBeChecked();
  if (opts.axe) await axeClean(options);
  // The setting is stored: a fresh options page shows it on.
  await options.reload();
  await expect(options.getByRole('checkbox', { name: 'Start calls now where the service offers it' })).toBeChecked();
  await options.close();
  return openPage('popup.html');
}

async function dial(popup: Page, number: string): Promise<void> {
  const agent = popup.getByLabel('Agent');
  await expect(agent.locator('option').nth(1)).toBeAttached();
  await agent.selectOption(AGENT);
  await popup.getByLabel('Phone number').fill(number);
  await expect(popup.getByRole('button', { name: 'Call' })).toBeEnabled();
  await popup.getByRole('button', { name: 'Call' }).click();
  // With the option on, the confirmation does not promise a batch's start.
  await expect(popup.getByRole('dialog')).toContainText('Starts at once where the service offers immediate calls.');
  await popup.getByRole('button', { name: 'Confirm' }).click();
}

/** Immediate calls this agent has at the service (executions in no batch) to `number`. */
async function placedCalls(sandbox: Sandbox, number: string): Promise<{ id: string; status: string }[]> {
  const page = (await call(sandbox.url, 'GET', `/v2/agent/${AGENT}/executions?page_size=50`)).body as {
    data: { id: string; status: string; batch_id: string | null; telephony_data?: { to_number?: string } }[];
  };
  return page.data.filter((e) => !e.batch_id && e.telephony_data?.to_number === number);
}

for (const routes of ['live', 'both'] as RoutesMode[]) {
  test.describe(`routes=${routes}`, () => {
    test.use({ sandboxOptions: { speed: 60, routes } });

    test('with the option on, the call goes out via POST /call and reaches completed; the call view says "Started now"', async ({ sandbox, openPage }) => {
      const popup = await setUpStartNow(openPage, sandbox.url, { axe: routes === 'live' });
      await dial(popup, '+14155552671');
      await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
      await expect(popup.locator('.call-via')).toHaveText('Started now');

      const requests = await sandboxRequests(sandbox);
      expect(requests.filter((r) => r.method === 'POST' && r.path === '/call').map((r) => r.status)).toEqual([200]);
      expect(requests.filter((r) => r.path.startsWith('/batches'))).toEqual([]);
      const placed = await placedCalls(sandbox, '+14155552671');
      expect(placed.map((e) => e.status)).toEqual(['completed']);
      const [stored] = await storedCallsIn<CallRecord>(popup);
      expect(stored).toMatchObject({ via: 'call', executionId: placed[0]!.id, batchId: null, status: 'completed' });

      const panel = await openPage('sidepanel.html');
      const facts = panel.locator('.details-row').filter({ hasText: 'Placed as' });
      await expect(facts.locator('dd')).toHaveText('Started now');
      await expect(panel.getByRole('region', { name: 'Transcript' })).toBeVisible();
      if (routes === 'live') await axeClean(panel);
    });
  });
}

test.describe('routes=live: Stop and lost answers', () => {
  test.use({ sandboxOptions: { speed: 60, routes: 'live' } });

  test('Stop while queued ends with the execution stopped at the service (POST /call/{id}/stop), and it never rings', async ({ sandbox, openPage }) => {
    const popup = await setUpStartNow(openPage, sandbox.url);
    // The sandbox's clock slowed to a crawl: a call stays queued for about half an hour.
    await control(sandbox, 'clock', { speed: 0.001 });
    await dial(popup, '+14155552671');
    await expect(popup.locator('.call-status')).toHaveText('Queued', { timeout: 30_000 });
    await axeClean(popup);
    await popup.getByRole('button', { name: 'Stop call' }).click();
    await expect(popup.locator('.call-status')).toHaveText(/Stopped/, { timeout: 30_000 });

    const [placed] = await placedCalls(sandbox, '+14155552671');
    expect(placed?.status).toBe('stopped');
    const requests = await sandboxRequests(sandbox);
    expect(requests.filter((r) => r.method === 'POST' && r.path === `/call/${placed!.id}/stop`).map((r) => r.status)).toEqual([200]);
    const events = (await (await fetch(`${sandbox.url}/__sandbox/events?execution_id=${placed!.id}`)).json()) as { status: string }[];
    expect(events.map((e) => e.status)).toEqual(['queued', 'stopped']);
    const [stored] = await storedCallsIn<CallRecord>(popup);
    expect(stored).toMatchObject({ via: 'call', step: 'finished', status: 'stopped', stopRefused: null });
  });

  test('once the call is under way the service refuses the stop: the call view says why and follows the call to its end', async ({ sandbox, openPage }) => {
    const popup = await setUpStartNow(openPage, sandbox.url);
    await control(sandbox, 'clock', { speed: 0.001 });
    await dial(popup, '+14155552671');
    await expect(popup.locator('.call-status')).toHaveText('Queued', { timeout: 30_000 });
    // Each advance moves the call one status on: queued → initiated → ringing → in progress.
    for (let i = 0; i < 3; i++) await control(sandbox, 'clock', { advance: true });
    await expect(popup.locator('.call-status')).toHaveText('In progress', { timeout: 30_000 });
    await popup.getByRole('button', { name: 'Stop call' }).click();
    await expect(popup.locator('.stop-refused')).toHaveText(/The service did not stop the call: .*only a queued or scheduled call can be stopped/, { timeout: 30_000 });
    await expect(popup.locator('.call-status')).toHaveText('In progress');
    for (let i = 0; i < 2; i++) await control(sandbox, 'clock', { advance: true });
    await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 30_000 });
    const [placed] = await placedCalls(sandbox, '+14155552671');
    expect(placed?.status).toBe('completed');
  });

  test('a lost answer to POST /call: the call goes on, and exactly one call was placed', async ({ sandbox, openPage }) => {
    const popup = await setUpStartNow(openPage, sandbox.url);
    await control(sandbox, 'faults', { method: 'POST', path: '^/call$', dropAfter: true });
    await dial(popup, '+14155552671');
    await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
    expect((await placedCalls(sandbox, '+14155552671')).map((e) => e.status)).toEqual(['completed']);
    const starts = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/call');
    // The one POST /call whose answer was dropped (status 0); the retry looked instead of calling again.
    expect(starts.map((r) => r.status)).toEqual([0]);
  });
});

test.describe('routes=spec (no POST /call)', () => {
  test.use({ sandboxOptions: { speed: 60, routes: 'spec' } });

  test('with the option on, the call falls back to the single-call batch, and the next call goes straight there', async ({ sandbox, openPage }) => {
    const popup = await setUpStartNow(openPage, sandbox.url);
    await dial(popup, '+14155552671');
    await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
    await expect(popup.locator('.call-via')).toHaveText('Single-call batch');
    let requests = await sandboxRequests(sandbox);
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/call').map((r) => r.status)).toEqual([404]);
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/batches').map((r) => r.status)).toEqual([201]);
    const [first] = await storedCallsIn<CallRecord>(popup);
    expect(first).toMatchObject({ via: 'batch', status: 'completed', failure: null });
    expect(first!.batchId).not.toBeNull();

    // Remembered for this service: no second POST /call.
    await popup.getByRole('button', { name: 'New call' }).click();
    await dial(popup, '+14155550123');
    await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
    requests = await sandboxRequests(sandbox);
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/call')).toHaveLength(1);
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/batches')).toHaveLength(2);
  });
});
