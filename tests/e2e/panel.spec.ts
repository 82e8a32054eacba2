/** The side panel's account views (history, agent executions with paging) and accessibility of every page. */
import { expectAxeClean } from './axe';
import type { Page } from '@playwright/test';
import { test, expect, setUpExtension, callFromPopup } from './fixtures';
import { placeCalls } from '../../sandbox/testing';
import { SEED } from '../../sandbox/seed';

test('agent executions come from the service with paging, and open in full', async ({ sandbox, openPage }) => {
  const rows = Array.from({ length: 21 }, (_, i) => ({ contact_number: `+1415555${String(2600 + i)}` }));
  // Scheduled rows are executions already: the list shows them whatever their status.
  const placed = await placeCalls(sandbox.url, SEED.A.agents.sales, rows);
  expect(placed.executionIds).toHaveLength(21);
  await setUpExtension(openPage, sandbox.url);
  const panel = await openPage('sidepanel.html');
  await panel.getByRole('tab', { name: 'Executions' }).click();
  const region = panel.getByRole('region', { name: 'Agent executions' });
  const picker = region.getByLabel('Agent');
  await expect(picker.locator(`option[value="${SEED.A.agents.sales}"]`)).toBeAttached();
  await picker.selectOption(SEED.A.agents.sales);
  await expect(region.getByText(/Page 1 of 2/)).toBeVisible();
  await expect(region.locator('tbody tr')).toHaveCount(20);
  await region.getByRole('button', { name: 'Next' }).click();
  await expect(region.getByText(/Page 2 of 2/)).toBeVisible();
  const rowsOnPage2 = await region.locator('tbody tr').count();
  expect(rowsOnPage2).toBeGreaterThan(0);
  await expect(region.getByRole('button', { name: 'Next' })).toBeDisabled();
  await region.locator('tbody tr button').first().click();
  await expect(panel.getByRole('region', { name: 'Execution details' })).toBeVisible();
});

test('history: a finished call reopens and can be dialled again, prefilled', async ({ sandbox, openPage }) => {
  await setUpExtension(openPage, sandbox.url);
  const popup = await openPage('popup.html');
  await callFromPopup(popup, '+14155551001', /Busy/);

  const panel = await openPage('sidepanel.html');
  await panel.getByRole('tab', { name: 'History' }).click();
  await panel.getByRole('button', { name: 'Call again' }).first().click();
  await expect(panel.getByLabel('Phone number')).toHaveValue(/4155551001/);
});

for (const path of ['popup.html', 'sidepanel.html', 'options.html']) {
  test(`axe: ${path} has no serious or critical violations`, async ({ sandbox, openPage }) => {
    await setUpExtension(openPage, sandbox.url);
    const page = await openPage(path);
    await expect(page.locator('h1, h2').first()).toBeVisible();
    await page.waitForTimeout(300);
    await expectAxeClean(page);
  });
}

test('axe: a finished call in the side panel has no serious or critical violations', async ({ sandbox, openPage }) => {
  await setUpExtension(openPage, sandbox.url);
  const popup = await openPage('popup.html');
  await callFromPopup(popup, '+14155552671', /Completed/);
  const panel = await openPage('sidepanel.html');
  await expect(panel.getByRole('region', { name: 'Transcript' })).toBeVisible();
  await expectAxeClean(panel);
});
