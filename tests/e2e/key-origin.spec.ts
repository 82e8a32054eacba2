/**
 * The key belongs to the origin it was entered for, in real Chromium against two sandboxes on two
 * ports (two origins): sandbox A from the fixture, sandbox B started here. The sandboxes log the
 * account of every key they were sent (`account`: A for va_test_owner, B for va_test_other), so "the
 * key was never sent there" is read from B's own request log.
 */
import type { Page } from '@playwright/test';
import { test, expect, setUp, sandboxRequests, launchExtension } from './fixtures';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { OTHER_KEY } from '../../sandbox/keys';
import type { CallRecord } from '../../lib/calls/call-record';
import { storedCallsIn } from '../support/data-store';

/** Runs inside extension pages, where Chromium's `chrome` API exists. */
declare const chrome: any;

let sandboxB: Sandbox;
test.beforeEach(async () => {
  sandboxB = await startSandbox({ port: 0, speed: 60 });
});
test.afterEach(async () => {
  await sandboxB.close();
});

/** Accounts whose keys reached a sandbox (undefined: a request with no valid key). */
async function accountsSeen(sandbox: Sandbox): Promise<(string | undefined)[]> {
  return (await sandboxRequests(sandbox)).map((r) => r.account);
}

async function optionsSetUpFor(openPage: (path: string) => Promise<Page>, url: string): Promise<Page> {
  const options = await openPage('options.html');
  await setUp(options, url);
  await expect(options.getByText(`Saved key for ${url}`, { exact: false })).toBeVisible();
  return options;
}

test('changing the base URL to another sandbox asks for its key; the old key is never sent there', async ({ sandbox, openPage }) => {
  const options = await optionsSetUpFor(openPage, sandbox.url);

  // Another origin, no key typed: Save asks for B's key (or a move naming both), and saves nothing.
  await options.getByLabel('API base URL').fill(sandboxB.url);
  await options.getByRole('button', { name: 'Save' }).click();
  await expect(options.getByText(`The saved key is for ${sandbox.url}. Paste the API key for ${sandboxB.url}`)).toBeVisible();
  await expect(options.getByRole('button', { name: `Move the key to ${sandboxB.url}` })).toBeVisible();
  // Test connection with the typed, unsaved URL: no key of B's, so nothing is sent.
  await options.getByRole('button', { name: 'Test connection' }).click();
  await expect(options.getByText(`No key is saved for ${sandboxB.url}: paste its API key to test it.`)).toBeVisible();
  await expect(options.getByLabel('API base URL')).toHaveValue(sandboxB.url);

  // B's own key: saved for B, and the agent list is fetched there with it.
  await options.getByLabel('API key').fill(OTHER_KEY);
  await options.getByRole('button', { name: 'Save' }).click();
  await expect(options.getByText(`Saved key for ${sandboxB.url}`, { exact: false })).toBeVisible();
  await expect.poll(async () => (await sandboxRequests(sandboxB)).length).toBeGreaterThan(0);
  const popup = await openPage('popup.html');
  await expect(popup.getByLabel('Agent').locator('option').nth(1)).toBeAttached();
  // Everything B ever received carried B's key: A's key never went there, not even before B's was saved.
  const seen = await accountsSeen(sandboxB);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((account) => account === 'B')).toBe(true);
  // And A's key stays A's: listed as a key for another origin.
  await expect(options.getByText(sandbox.url, { exact: true })).toBeVisible();
  expect((await accountsSeen(sandbox)).every((account) => account === 'A')).toBe(true);
});

test('on an explicit confirmation naming both origins the key moves, and from then on goes only to the new one', async ({ sandbox, openPage }) => {
  const options = await optionsSetUpFor(openPage, sandbox.url);
  await options.getByLabel('API base URL').fill(sandboxB.url);
  await options.getByRole('button', { name: 'Save' }).click();
  const confirmation = options.getByRole('group', { name: 'Move the saved key' });
  await expect(confirmation).toContainText(sandbox.url);
  await expect(confirmation).toContainText(sandboxB.url);
  expect(await sandboxRequests(sandboxB)).toEqual([]);
  await options.getByRole('button', { name: `Move the key to ${sandboxB.url}` }).click();
  await expect(options.getByText(`Saved key for ${sandboxB.url}`, { exact: false })).toBeVisible();
  await expect.poll(async () => (await sandboxRequests(sandboxB)).length).toBeGreaterThan(0);
  expect((await accountsSeen(sandboxB)).every((account) => account === 'A')).toBe(true);
  // A no longer has a key: no other origin is listed.
  await expect(options.getByText('Keys also saved for', { exact: false })).toHaveCount(0);
});

test.describe('a call placed at sandbox A', () => {
  // Slow enough that the long call (…1007) is still in progress when the settings move to B.
  test.use({ sandboxOptions: { speed: 15 } });
  test('keeps being followed, and is stopped, at A with A’s key after the settings moved to B', async ({ sandbox, openPage }) => {
    const options = await optionsSetUpFor(openPage, sandbox.url);
    const popup = await openPage('popup.html');
    const agent = popup.getByLabel('Agent');
    await expect(agent.locator('option').nth(1)).toBeAttached();
    if (!(await agent.inputValue())) await agent.selectOption({ index: 1 });
    await popup.getByLabel('Phone number').fill('+14155551007');
    await popup.getByRole('button', { name: 'Call' }).click();
    await popup.getByRole('button', { name: 'Confirm' }).click();
    await expect(popup.locator('.call-status')).toHaveText(/In progress/, { timeout: 60_000 });
    const callId = (await storedCallsIn<CallRecord>(popup))[0]!.id;
    await popup.close();

    // The settings move to B, with B's key.
    await options.getByLabel('API base URL').fill(sandboxB.url);
    await options.getByLabel('API key').fill(OTHER_KEY);
    await options.getByRole('button', { name: 'Save' }).click();
    await expect(options.getByText(`Saved key for ${sandboxB.url}`, { exact: false })).toBeVisible();

    // From now on A still sees the call's polls, with A's key.
    await fetch(`${sandbox.url}/__sandbox/requests`, { method: 'DELETE' });
    await expect
      .poll(async () => (await sandboxRequests(sandbox)).filter((r) => r.method === 'GET' && /execution/.test(r.path)).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect((await accountsSeen(sandbox)).every((account) => account === 'A')).toBe(true);

    // Stop call from the side panel: the stop goes to A, with A's key.
    const panel = await openPage(`sidepanel.html?call=${encodeURIComponent(callId)}`);
    await panel.getByRole('button', { name: 'Stop call' }).click();
    await expect(panel.locator('.call-status')).toHaveText(/Stopped/, { timeout: 30_000 });
    const stops = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && /\/stop$/.test(r.path));
    expect(stops.map((r) => r.account)).toEqual(['A']);

    // B heard nothing of the call, and never A's key.
    const atB = await sandboxRequests(sandboxB);
    expect(atB.filter((r) => /batches|execution/.test(r.path))).toEqual([]);
    expect((await accountsSeen(sandboxB)).every((account) => account === 'B')).toBe(true);
  });
});
