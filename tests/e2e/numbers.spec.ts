/** The side panel's Numbers section on the real sandbox: search, buy (price confirmed), the dial form's From number, delete. */
import { expectAxeClean } from './axe';
import type { Page } from '@playwright/test';
import { OWNER_KEY } from '../../sandbox/keys';
import { SEED } from '../../sandbox/seed';
import { test, expect, sandboxRequests, setUp } from './fixtures';

async function openNumbers(openPage: (p: string) => Promise<Page>, url: string): Promise<Page> {
  const options = await openPage('options.html');
  await setUp(options, url);
  await options.close();
  const panel = await openPage('sidepanel.html?section=numbers');
  await expect(panel.getByRole('tab', { name: 'Numbers' })).toHaveAttribute('aria-selected', 'true');
  return panel;
}

async function ownedNumbers(url: string): Promise<string[]> {
  const res = await fetch(`${url}/phone-numbers/all`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } });
  return ((await res.json()) as { phone_number: string }[]).map((n) => n.phone_number);
}

/** The numbers the dial form offers as From number (its option values; '' is the service default). */
async function fromNumberChoices(panel: Page): Promise<string[]> {
  await panel.getByRole('tab', { name: 'Calls' }).click();
  await panel.getByRole('tab', { name: 'New call' }).click();
  const picker = panel.getByLabel('From number');
  await expect(picker).toBeVisible();
  await expect(panel.getByText('Loading your numbers…')).toHaveCount(0);
  return picker.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
}

test('search by country and digits, buy after a confirmation with the price; the number is owned and offered as From number', async ({ sandbox, openPage }) => {
  const panel = await openNumbers(openPage, sandbox.url);
  const owned = panel.getByRole('table', { name: 'Numbers of this account' });
  await expect(owned.getByRole('row')).toHaveCount(3); // header + the 2 seeded numbers

  // A bad pattern is refused before any search, and what was typed stays.
  await panel.getByLabel('Country', { exact: true }).selectOption('US');
  const pattern = panel.getByLabel('Digits to look for (optional)');
  await pattern.fill('41a');
  await panel.getByRole('button', { name: 'Search' }).click();
  await expect(panel.getByRole('alert')).toHaveText(/digits only/);
  await expect(pattern).toHaveValue('41a');
  expect((await sandboxRequests(sandbox)).some((r) => r.path.startsWith('/phone-numbers/search'))).toBe(false);

  await pattern.fill('212');
  await panel.getByRole('button', { name: 'Search' }).click();
  const offers = panel.getByRole('table', { name: 'Available numbers' });
  await expect(offers.getByRole('row').nth(1)).toBeVisible();
  const offered = (await offers.getByRole('row').nth(1).getByRole('cell').first().textContent())!.trim();
  expect(offered).toMatch(/^\+1212/);
  await expect(offers.getByRole('row').nth(1)).toContainText('$1.15');

  await offers.getByRole('button', { name: `Buy ${offered}` }).click();
  const confirm = panel.getByRole('dialog', { name: `Buy ${offered}?` });
  await expect(confirm).toContainText('Price');
  await expect(confirm).toContainText('$1.15');
  // Cancel buys nothing.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect(await ownedNumbers(sandbox.url)).not.toContain(offered);

  await offers.getByRole('button', { name: `Buy ${offered}` }).click();
  await panel.getByRole('button', { name: 'Buy for $1.15' }).click();
  await expect(panel.getByRole('status').filter({ hasText: `${offered} was bought` })).toBeVisible();
  await expect(owned.getByRole('cell', { name: offered, exact: true })).toBeVisible();
  expect(await ownedNumbers(sandbox.url)).toContain(offered);
  const buys = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/phone-numbers/buy');
  expect(buys).toHaveLength(1);

  expect(await fromNumberChoices(panel)).toContain(offered);
});

test('delete asks first naming the number; it leaves the account and the dial form', async ({ sandbox, openPage }) => {
  const doomed = SEED.A.phoneNumbers.secondary.phone_number;
  const panel = await openNumbers(openPage, sandbox.url);
  expect(await fromNumberChoices(panel)).toContain(doomed);
  await panel.getByRole('tab', { name: 'Numbers' }).click();

  await panel.getByRole('button', { name: `Delete ${doomed}` }).click();
  const confirm = panel.getByRole('dialog', { name: `Delete ${doomed}?` });
  await expect(confirm).toContainText(`The number ${doomed} is released`);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await panel.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  expect(await ownedNumbers(sandbox.url)).toContain(doomed);

  await panel.getByRole('button', { name: `Delete ${doomed}` }).click();
  await panel.getByRole('dialog', { name: `Delete ${doomed}?` }).getByRole('button', { name: `Delete ${doomed}` }).click();
  await expect(panel.getByRole('status').filter({ hasText: `${doomed} was deleted.` })).toBeVisible();
  await expect(panel.getByRole('table', { name: 'Numbers of this account' }).getByRole('cell', { name: doomed, exact: true })).toHaveCount(0);
  expect(await ownedNumbers(sandbox.url)).not.toContain(doomed);
  expect(await fromNumberChoices(panel)).not.toContain(doomed);
});

test('a refused purchase shows the service’s message in the confirmation', async ({ sandbox, openPage }) => {
  const panel = await openNumbers(openPage, sandbox.url);
  await panel.getByLabel('Country', { exact: true }).selectOption('US');
  await panel.getByRole('button', { name: 'Search' }).click();
  const offers = panel.getByRole('table', { name: 'Available numbers' });
  const offered = (await offers.getByRole('row').nth(1).getByRole('cell').first().textContent())!.trim();
  // Someone else buys it first (the same account, behind the panel's back).
  await fetch(`${sandbox.url}/phone-numbers/buy`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${OWNER_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ country: 'US', phone_number: offered }),
  });
  await offers.getByRole('button', { name: `Buy ${offered}` }).click();
  await panel.getByRole('button', { name: 'Buy for $1.15' }).click();
  await expect(panel.getByRole('dialog').getByRole('alert')).toContainText('already owned');
});

test('axe: the Numbers section, with search results and a confirmation open, has no serious or critical violations', async ({ sandbox, openPage }) => {
  const panel = await openNumbers(openPage, sandbox.url);
  await panel.getByRole('button', { name: 'Search' }).click();
  await panel.getByRole('table', { name: 'Available numbers' }).getByRole('button').first().click();
  await expect(panel.getByRole('dialog')).toBeVisible();
  await expect(panel.getByRole('table', { name: 'Numbers of this account' })).toBeVisible();
  await expectAxeClean(panel);
});
