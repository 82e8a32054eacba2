/**
 * A repeat plan from the side panel (issue 21), on the production build against the real sandbox: the
 * plan file imported (8 calls: 3 + 3 + 2 repeats), run as one batch plus one retry of the calls that never
 * connected, its pass rates and causes shown at the panel's real width (360 px) without sideways
 * scrolling; then pinned as the plan's baseline, and a second run shown against it.
 */
import { fileURLToPath } from 'node:url';
import { test, expect, setUp, sandboxRequests } from './fixtures';
import { SEED } from '../../sandbox/seed';
import { layoutProblems } from './layout';

const AGENT = SEED.A.agents.sales;
const PLAN = fileURLToPath(new URL('../fixtures/plans/sandbox-repeats.json', import.meta.url));

test('a repeat plan runs from the side panel: one batch plus a retry, pass rates at 360 px, pinned as baseline, the next run against it', async ({ sandbox, openPage }) => {
  test.setTimeout(180_000);
  const options = await openPage('options.html');
  await setUp(options, sandbox.url);
  await options.close();
  const panel = await openPage('sidepanel.html?section=plans');
  await panel.setViewportSize({ width: 360, height: 800 });
  const section = panel.getByRole('region', { name: 'Test plans' });
  const picker = section.getByLabel('Agent', { exact: true });
  await expect(picker.locator(`option[value="${AGENT}"]`)).toBeAttached();
  await picker.selectOption(AGENT);

  await section.locator('input[type="file"]').setInputFiles(PLAN);
  const editor = panel.getByRole('form', { name: 'Plan editor' });
  // The run-level fields came through the import into the editor.
  await expect(editor.getByLabel('Calls per case (repeat)')).toHaveValue('3');
  await expect(editor.getByLabel('Place again calls that never connected (times)')).toHaveValue('1');
  await editor.getByRole('button', { name: 'Save plan' }).click();

  const plan = panel.getByRole('region', { name: 'Plan Sales agent: repeats on the sandbox' });
  await plan.getByRole('button', { name: 'Run plan' }).click();
  const confirm = plan.getByRole('region', { name: 'Confirm the run' });
  await expect(confirm).toContainText('This places 8 real calls');
  await confirm.getByRole('button', { name: 'Place 8 calls' }).click();

  const results = plan.getByRole('region', { name: 'Run results' });
  await expect(results.getByText(/^Verdict:/)).toHaveText('Verdict: Pass. 2 passed, 1 failed, 0 in error.', { timeout: 90_000 });
  const row = (label: string) => results.getByRole('row', { name: new RegExp(`^${label}`) });
  await expect(row('Books a call back').getByRole('cell').nth(1)).toHaveText('3 of 3 (100%)');
  await expect(row('A line that is always busy').getByRole('cell').nth(0)).toHaveText('Fail (advisory)');
  await expect(row('A line that is always busy').getByRole('cell').nth(1)).toHaveText('0 of 2 (0%)');
  await expect(results.getByText('Calls: 6 of 8 passed.')).toBeVisible();
  await expect(results.getByText('Retry 1: 2 calls that never connected were placed again.')).toBeVisible();
  await results.getByText('A line that is always busy: Fail').click();
  await expect(results.getByText('Cause: No connection')).toBeVisible();
  await expect(results.getByRole('list', { name: 'Why calls of A line that is always busy did not pass' })).toHaveText('2× No connection: status: expected completed, got busy');

  // One batch of 8 rows, then one retry batch of the 2 busy calls.
  const created = (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path === '/batches' && r.status < 300);
  expect(created).toHaveLength(2);

  // The panel's real width: nothing scrolls sideways.
  expect((await panel.evaluate(layoutProblems)).sideways).toEqual([]);

  await results.getByRole('button', { name: 'Pin as baseline' }).click();
  await expect(results.getByText("This run is the plan's baseline: later runs are compared with it.")).toBeVisible();

  await plan.getByRole('button', { name: 'Run plan' }).click();
  await plan.getByRole('region', { name: 'Confirm the run' }).getByRole('button', { name: 'Place 8 calls' }).click();
  const second = plan.getByRole('region', { name: 'Run results' });
  await expect(second.getByText('No regressions (pass → fail).')).toBeVisible({ timeout: 90_000 });
  await expect(second.getByText(/^Already failing in the baseline:/)).toHaveText('Already failing in the baseline: A line that is always busy 0% → 0% (advisory)');
  await expect(second.getByRole('button', { name: 'Pin as baseline' })).toBeVisible();
});
