/**
 * Stop always stops, one intent makes one call, and the service's own pace — in real Chromium on the
 * production build against the sandbox. A step's request is held open by a sandbox fault (a long
 * delay, released by the test), so Stop lands while that request is in flight; lost answers come from
 * a fault that lets the route run, then drops the connection.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { test, expect, setUp, sandboxRequests } from './fixtures';
import type { Sandbox } from '../../sandbox/server';
import { SEED } from '../../sandbox/seed';
import { call } from '../../sandbox/testing';
import { storedCallsIn } from '../support/data-store';
import type { CallRecord } from '../../lib/calls/call-record';

/** Runs inside extension pages, where Chromium's `chrome` API exists. */
declare const chrome: any;

const AGENT = SEED.A.agents.sales;

async function setUpAndOpenPopup(openPage: (p: string) => Promise<Page>, url: string): Promise<Page> {
  const options = await openPage('options.html');
  await setUp(options, url);
  await options.close();
  return openPage('popup.html');
}

async function fillDial(popup: Page, number: string): Promise<void> {
  const agent = popup.getByLabel('Agent');
  await expect(agent.locator('option').nth(1)).toBeAttached();
  await agent.selectOption(AGENT);
  await popup.getByLabel('Phone number').fill(number);
  await expect(popup.getByRole('button', { name: 'Call' })).toBeEnabled();
  await popup.getByRole('button', { name: 'Call' }).click();
}

async function dial(popup: Page, number: string): Promise<void> {
  await fillDial(popup, number);
  await popup.getByRole('button', { name: 'Confirm' }).click();
}

async function storedCalls(page: Page): Promise<CallRecord[]> {
  return storedCallsIn<CallRecord>(page);
}

const control = (sandbox: Sandbox, path: string, body?: unknown) =>
  fetch(`${sandbox.url}/__sandbox/${path}`, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) });

async function armedFaults(sandbox: Sandbox): Promise<unknown[]> {
  return (await (await fetch(`${sandbox.url}/__sandbox/faults`)).json()).faults;
}

/** The batches this agent has whose CSV names the call (the service's view of what the call made). */
async function batchesOfCall(sandbox: Sandbox, callId: string): Promise<{ batch_id: string; status: string }[]> {
  const all = (await call(sandbox.url, 'GET', `/batches/${AGENT}/all`)).body as { batch_id: string; status: string; file_name: string }[];
  return all.filter((b) => b.file_name === `call-${callId}.csv`);
}

async function statusEvents(sandbox: Sandbox): Promise<string[]> {
  return ((await (await fetch(`${sandbox.url}/__sandbox/events`)).json()) as { status: string }[]).map((e) => e.status);
}

const STEPS = [
  // A batch made but never asked to schedule is removed by the Stop (it could not dial, and would linger).
  { step: 'creating the batch', fault: { method: 'POST', path: '^/batches$' }, batch: 'removed' },
  { step: 'scheduling', fault: { method: 'POST', path: '/schedule$' }, batch: 'stopped' },
  { step: 'finding the execution', fault: { method: 'GET', path: '^/batch(es)?/[0-9a-f]{32}/executions$' }, batch: 'stopped' },
  { step: 'tracking', fault: { method: 'GET', path: '^/executions/[^/]+$' }, batch: 'stopped' },
] as const;

test.describe('Stop while a step’s request is held open', () => {
  // Slow enough that a scheduled call cannot start while the test holds and releases a request.
  test.use({ sandboxOptions: { speed: 10 } });
  for (const { step, fault, batch } of STEPS) {
    test(`during ${step}: nothing rings, the batch is ${batch === 'removed' ? 'never scheduled and removed' : 'stopped'}`, async ({ sandbox, openPage }) => {
      const popup = await setUpAndOpenPopup(openPage, sandbox.url);
      await control(sandbox, 'faults', { ...fault, delayMs: 120_000 });
      await dial(popup, '+14155552671');
      // The fault is taken: the step's request is in flight, held by the sandbox.
      await expect.poll(() => armedFaults(sandbox)).toEqual([]);
      await popup.getByRole('button', { name: 'Stop call' }).click();
      await expect(popup.locator('.call-status')).toHaveText('Stopping…');
      await control(sandbox, 'faults/release');
      await expect(popup.locator('.call-status')).toHaveText(/Stopped/, { timeout: 30_000 });

      const [stored] = await storedCalls(popup);
      const batches = await batchesOfCall(sandbox, stored!.id);
      expect(batches.map((b) => b.status)).toEqual(batch === 'removed' ? [] : [batch]);
      const requests = await sandboxRequests(sandbox);
      if (batch === 'removed') expect(requests.filter((r) => /schedule/.test(r.path))).toEqual([]);
      else expect(requests.filter((r) => r.method === 'POST' && /\/stop$/.test(r.path) && r.status === 200)).toHaveLength(1);
      expect(await statusEvents(sandbox)).not.toContain('initiated');
      expect(stored).toMatchObject({ step: 'finished', status: 'stopped', stopRequested: true, failure: null });
    });
  }
});

test('a lost answer to creating the batch: the call goes on with exactly one batch', async ({ sandbox, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url);
  await control(sandbox, 'faults', { method: 'POST', path: '^/batches$', dropAfter: true });
  await dial(popup, '+14155552671');
  await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
  const [stored] = await storedCalls(popup);
  expect((await batchesOfCall(sandbox, stored!.id)).map((b) => b.status)).toEqual(['completed']);
  const creates = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/batches');
  expect(creates.map((r) => r.status)).toEqual([0]);
});

test('a lost answer to scheduling: the call is followed, never shown failed, scheduled once', async ({ sandbox, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url);
  // Every text the call's status line shows, as it changes.
  await popup.evaluate(() => {
    const seen: string[] = ((window as unknown as { __statuses: string[] }).__statuses = []);
    new MutationObserver(() => {
      const text = document.querySelector('.call-status')?.textContent;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await control(sandbox, 'faults', { method: 'POST', path: '/schedule$', dropAfter: true });
  await dial(popup, '+14155552671');
  await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
  const statuses = await popup.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
  expect(statuses.filter((s) => /failed/i.test(s))).toEqual([]);
  const schedules = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && /schedule$/.test(r.path));
  expect(schedules.map((r) => r.status)).toEqual([0]);
});

test('a Retry-After beyond what a request waits is shown in the call view, then honoured', async ({ sandbox, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url);
  await control(sandbox, 'faults', { method: 'POST', path: '/schedule$', status: 429, retryAfter: 12 });
  await dial(popup, '+14155552671');
  await expect(popup.getByRole('status').filter({ hasText: 'asked us to wait' })).toHaveText(/The service asked us to wait 12 s .*; trying again in 0:1\d\./);
  await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
  const schedules = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && /schedule$/.test(r.path));
  expect(schedules.map((r) => r.status)).toEqual([429, 200]);
  const [refused, taken] = schedules.map((r) => Date.parse(String(r.at)));
  expect(taken! - refused!).toBeGreaterThanOrEqual(12_000 - 50);
});

test.describe('a number with a call in progress', () => {
  test.use({ sandboxOptions: { speed: 15 } });
  test('dialling it again asks first; Cancel places nothing, "Call again" places a second call', async ({ sandbox, openPage }) => {
    const popup = await setUpAndOpenPopup(openPage, sandbox.url);
    await dial(popup, '+14155551007');
    await expect(popup.locator('.call-status')).toHaveText(/Scheduled|Queued|In progress|Ringing/);
    await popup.getByRole('button', { name: 'New call' }).click();
    await fillDial(popup, '(415) 555-1007');
    const ask = popup.getByRole('dialog').getByRole('alert');
    await expect(ask).toHaveText('A call to +1 415 555 1007 is in progress — call again?');
    await expect(popup.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
    await popup.getByRole('button', { name: 'Cancel' }).click();
    expect((await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/batches')).toHaveLength(1);
    await popup.getByRole('button', { name: 'Call' }).click();
    await popup.getByRole('button', { name: 'Call again' }).click();
    await expect.poll(async () => (await storedCalls(popup)).length).toBe(2);
    await expect
      .poll(async () => (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/batches' && r.status === 201).length)
      .toBe(2);
  });
});

async function stopServiceWorker(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.send('ServiceWorker.disable');
  await cdp.detach();
}

test('the worker stopped while the batch is being created: when it comes back it finds that batch and makes no other', async ({ sandbox, context, openPage }) => {
  const popup = await setUpAndOpenPopup(openPage, sandbox.url);
  await control(sandbox, 'faults', { method: 'POST', path: '^/batches$', delayMs: 120_000 });
  await dial(popup, '+14155552671');
  await expect.poll(() => armedFaults(sandbox)).toEqual([]);
  const keeper = await openPage('options.html'); // drives CDP and reads storage while nothing else of ours runs
  const [placed] = await storedCalls(keeper);
  await popup.close();
  await stopServiceWorker(context, keeper);
  // The service goes on with the request the worker no longer waits for: the batch is made, its answer lost.
  await control(sandbox, 'faults/release');
  await expect.poll(async () => (await batchesOfCall(sandbox, placed!.id)).length).toBe(1);
  // Opening the popup starts the worker again; its startup resume takes the call from where it was.
  const again = await openPage('popup.html');
  await expect.poll(async () => (await storedCalls(again))[0]?.status, { timeout: 60_000 }).toBe('completed');
  expect((await batchesOfCall(sandbox, placed!.id)).map((b) => b.status)).toEqual(['completed']);
  expect((await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/batches')).toHaveLength(1);
  // The create was tried a second time (by the restarted worker), which looked and found the batch.
  expect((await storedCalls(again))[0]!.createAttempts).toBe(2);
});
