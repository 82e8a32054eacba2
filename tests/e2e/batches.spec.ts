/**
 * The side panel's Batches section on the production build against the real sandbox: a contact
 * list with bad rows is refused before upload, fixed in place, created, scheduled (a past time
 * refused first) and run to completion; stop and delete ask first; calls open in the call view; axe.
 */
import { expectAxeClean } from './axe';
import type { Page } from '@playwright/test';
import { toPickerValue } from '../../lib/batches/picker-value';
import { statusLabel } from '../../lib/calls/status';
import { SEED } from '../../sandbox/seed';
import { placeCalls } from '../../sandbox/testing';
import { expect, sandboxRequests, setUp, test } from './fixtures';

async function openBatches(openPage: (p: string) => Promise<Page>, url: string): Promise<Page> {
  const options = await openPage('options.html');
  await setUp(options, url);
  await options.close();
  const panel = await openPage('sidepanel.html');
  await panel.getByRole('tab', { name: 'Batches' }).click();
  const picker = panel.getByLabel('Agent');
  await expect(picker.locator(`option[value="${SEED.A.agents.sales}"]`)).toBeAttached();
  await picker.selectOption(SEED.A.agents.sales);
  return panel;
}

async function chooseCsv(panel: Page, name: string, text: string): Promise<void> {
  await panel.getByLabel('Contact list (CSV file)').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
}

/** A start the service accepts: whole minutes, 3 to 4 minutes from now, in the browser's (and this process's) zone. */
const soon = () => toPickerValue(new Date(Date.now() + 4 * 60_000));

const posts = async (sandbox: { url: string }, path: RegExp) =>
  (await sandboxRequests(sandbox as never)).filter((r) => r.method === 'POST' && path.test(r.path));

const noSeriousViolations = (page: Page) => expectAxeClean(page);

test('a CSV with bad rows is refused before upload, fixed, scheduled and run to completion; a call opens', async ({ sandbox, openPage }) => {
  const panel = await openBatches(openPage, sandbox.url);
  // Excel's export: BOM, CRLF, a quoted comma; one bad number, one duplicate in another format, a blank line.
  await chooseCsv(
    panel,
    'leads.csv',
    '\uFEFFcontact_number,first_name,company\r\n+14155552671,Ana,"Acme, Inc."\r\n(415) 555-2672,Bo,Globex\r\nnot a number,Cy,Initech\r\n\r\n+1 415 555 2671,Ana again,Acme\r\n',
  );
  const problems = panel.getByRole('table', { name: 'Rows with problems' });
  await expect(problems.locator('tbody tr')).toHaveCount(2);
  await expect(problems.getByRole('row', { name: /^4 not a number/ })).toContainText('contact_number "not a number"');
  await expect(problems.getByRole('row', { name: /^6 / })).toContainText('The same number as line 2 (+14155552671).');
  await expect(panel.getByText('4 contacts: 2 ready, 2 with problems.', { exact: false })).toBeVisible();
  await expect(panel.getByText('Variables from the other columns: first_name, company.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Create batch' })).toBeDisabled();
  expect(await posts(sandbox, /^\/batches$/)).toEqual([]);

  // Fixed in place: the bad line corrected, the duplicate removed.
  const text = panel.getByLabel(/Contents of leads.csv/);
  await text.fill('contact_number,first_name,company\n+14155552671,Ana,"Acme, Inc."\n(415) 555-2672,Bo,Globex\n+44 20 7946 0958,Cy,Initech\n');
  await expect(panel.getByText('The list changed: press Check again')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Create batch' })).toBeDisabled();
  await panel.getByRole('button', { name: 'Check again' }).click();
  await expect(panel.getByText('All 3 contacts are ready.')).toBeVisible();
  await expect(panel.getByRole('table', { name: 'Contacts to call' }).locator('tbody tr')).toHaveCount(3);
  await panel.getByRole('button', { name: 'Create batch' }).click();

  await expect(panel.getByRole('heading', { name: /^Batch “leads.csv”/ })).toBeVisible();
  await expect(panel.locator('.batch-status')).toHaveText('Status: Created, not scheduled.');
  expect(await posts(sandbox, /^\/batches$/)).toHaveLength(1);
  await expect(panel.getByRole('table', { name: 'Calls of the batch' }).locator('tbody tr')).toHaveCount(3);
  await expect(panel.getByLabel('Calls by status')).toContainText('Prepared: 3');

  // A past time is refused before anything is sent.
  await panel.getByLabel('Start').fill('2020-01-01T10:00');
  await expect(panel.getByText(/Time zone: .+\(UTC[+−]\d\d:\d\d\)/)).toBeVisible();
  await panel.getByRole('button', { name: 'Schedule' }).click();
  await expect(panel.getByRole('alert')).toContainText('That time has already passed');
  expect(await posts(sandbox, /schedule/)).toEqual([]);

  await panel.getByLabel('Start').fill(soon());
  await expect(panel.locator('#batch-start-real')).toContainText(/calls begin at /i);
  await panel.getByRole('button', { name: 'Schedule' }).click();
  await expect(panel.locator('.batch-status')).toHaveText('Status: Scheduled.');
  // The counts follow the run without a click, until the batch completes.
  await expect(panel.locator('.batch-status')).toHaveText('Status: Completed.', { timeout: 60_000 });
  await expect(panel.getByLabel('Calls by status')).toHaveText('Completed: 3');
  const calls = panel.getByRole('table', { name: 'Calls of the batch' });
  await expect(calls.getByRole('row', { name: /\+14155552671 Completed/ })).toBeVisible();

  await calls.getByRole('button', { name: 'Open the call to +14155552671' }).click();
  const details = panel.getByRole('region', { name: 'Execution details' });
  await expect(details).toBeVisible();
  await expect(details.getByRole('region', { name: 'Transcript' })).toBeVisible();
  await panel.getByRole('button', { name: 'Back to the list' }).click();
  await expect(panel.getByRole('heading', { name: /^Batch “leads.csv”/ })).toBeVisible();
});

test('stop and delete each ask first, naming the batch', async ({ sandbox, openPage }) => {
  const panel = await openBatches(openPage, sandbox.url);
  await chooseCsv(panel, 'long-calls.csv', 'contact_number\n+14155551007\n+14155552007\n');
  await expect(panel.getByText('All 2 contacts are ready.')).toBeVisible();
  await panel.getByRole('button', { name: 'Create batch' }).click();
  await expect(panel.getByRole('heading', { name: /^Batch “long-calls.csv”/ })).toBeVisible();
  // A new batch with its schedule picker, for axe too.
  await expect(panel.getByRole('table', { name: 'Calls of the batch' })).toBeVisible();
  await noSeriousViolations(panel);
  await panel.getByLabel('Start').fill(soon());
  await panel.getByRole('button', { name: 'Schedule' }).click();
  await expect(panel.locator('.batch-status')).toHaveText(/Status: (Scheduled|Running)\./);

  await panel.getByRole('button', { name: 'Stop…' }).click();
  const stopQuestion = panel.getByRole('group', { name: /Stop the batch “long-calls.csv” of .+\? Calls not yet placed are cancelled/ });
  await expect(stopQuestion).toBeVisible();
  await expect(stopQuestion.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await stopQuestion.getByRole('button', { name: 'Cancel' }).press('Enter');
  await expect(panel.getByRole('button', { name: 'Stop…' })).toBeFocused();
  expect(await posts(sandbox, /\/stop$/)).toEqual([]);
  await panel.getByRole('button', { name: 'Stop…' }).click();
  await panel.getByRole('button', { name: 'Stop batch' }).click();
  await expect(panel.locator('.batch-status')).toHaveText('Status: Stopped.');
  await expect(panel.getByLabel('Calls by status')).toContainText('Stopped');
  expect(await posts(sandbox, /\/stop$/)).toHaveLength(1);

  await panel.getByRole('button', { name: 'Delete…' }).click();
  const deleteQuestion = panel.getByRole('group', { name: /Delete the batch “long-calls.csv” of .+\? The batch is removed from the service/ });
  await expect(deleteQuestion).toBeVisible();
  await noSeriousViolations(panel);
  await deleteQuestion.getByRole('button', { name: 'Delete batch' }).click();
  await expect(panel.getByRole('heading', { name: 'Batches', exact: true })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'long-calls.csv' })).toHaveCount(0);
  const deletes = (await sandboxRequests(sandbox)).filter((r) => r.method === 'DELETE' && r.path.startsWith('/batches/'));
  expect(deletes).toHaveLength(1);
});

test('axe: the batch list, a checked list with problems and a batch have no serious or critical violations', async ({ sandbox, openPage }) => {
  const panel = await openBatches(openPage, sandbox.url);
  await expect(panel.getByRole('button', { name: 'leads-week-1.csv' })).toBeVisible();
  await chooseCsv(panel, 'mixed.csv', 'contact_number,name\n+14155552671,Ana\nnope,Bo\n');
  await expect(panel.getByRole('table', { name: 'Rows with problems' })).toBeVisible();
  await noSeriousViolations(panel);
  await panel.getByRole('button', { name: 'Discard list' }).click();
  await panel.getByRole('button', { name: 'leads-week-1.csv' }).click();
  await expect(panel.getByRole('heading', { name: /^Batch / })).toBeVisible();
  await expect(panel.getByRole('table', { name: 'Calls of the batch' })).toBeVisible();
  await noSeriousViolations(panel);
});

test.describe('with the sandbox clock stopped', () => {
  // Nothing moves by itself; each `advance` moves the batch and every call one step.
  test.use({ sandboxOptions: { speed: 0.0001 } });

  test('the open batch follows its run step by step without a click: status and counts', async ({ sandbox, openPage }) => {
    await placeCalls(sandbox.url, SEED.A.agents.sales, [{ contact_number: '+14155552671' }, { contact_number: '+14155552672' }]);
    const panel = await openBatches(openPage, sandbox.url);
    await panel.getByRole('button', { name: 'contacts.csv' }).click();
    const status = panel.locator('.batch-status');
    const counts = panel.getByLabel('Calls by status');
    await expect(status).toHaveText('Status: Scheduled.');
    await expect(counts).toHaveText('Scheduled: 2');
    const advance = () => fetch(`${sandbox.url}/__sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advance":true}' });
    const seen: string[] = [];
    // Each step must show up in the panel before the next one is taken: the counts follow the service.
    for (const step of ['queued', 'initiated', 'ringing', 'in-progress', 'call-disconnected', 'completed']) {
      await advance();
      await expect(counts).toHaveText(`${statusLabel(step)}: 2`);
      seen.push(step);
      if (seen.length === 1) await expect(status).toHaveText('Status: Running.');
    }
    await expect(status).toHaveText('Status: Completed.');
    await expect(panel.getByRole('table', { name: 'Calls of the batch' }).getByRole('row', { name: /Completed/ })).toHaveCount(2);
  });
});
