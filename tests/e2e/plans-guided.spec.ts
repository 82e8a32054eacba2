/**
 * A guided call from the side panel, on the production build against the real sandbox: a case whose
 * caller script is typed and completed with a ready-made one, run to "my phone"; the script shows
 * while the call is under way, steps are marked (one wrong, with a note), a closed and reopened panel
 * keeps the marks, and the verdict, the results and the JUnit download carry the note. At 360 px.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { parseStringPromise } from 'xml2js';
import { expectAxeClean } from './axe';
import { test, expect, setUp } from './fixtures';
import { SEED } from '../../sandbox/seed';

// Slow enough that the script is marked while the run waits for its start (2 min 15 s lead / 20 ≈ 7 s).
test.use({ sandboxOptions: { speed: 20 } });

const AGENT = SEED.A.agents.sales;
const NOTE = 'The agent talked over my silence';

async function openPlans(openPage: (p: string) => Promise<Page>): Promise<Page> {
  const panel = await openPage('sidepanel.html?section=plans');
  await panel.setViewportSize({ width: 360, height: 800 });
  const picker = panel.getByRole('region', { name: 'Test plans' }).getByLabel('Agent', { exact: true });
  await expect(picker.locator(`option[value="${AGENT}"]`)).toBeAttached();
  await picker.selectOption(AGENT);
  return panel;
}

test('a guided call: the script shows during the call, marks survive a reopened panel, a wrong step fails the case with its note', async ({ sandbox, openPage }) => {
  test.setTimeout(120_000);
  const options = await openPage('options.html');
  await setUp(options, sandbox.url);
  await options.close();
  let panel = await openPlans(openPage);

  await panel.getByRole('button', { name: 'New plan' }).click();
  const editor = panel.getByRole('form', { name: 'Plan editor' });
  await editor.getByLabel('Plan name').fill('Guided');
  const group = editor.getByRole('group', { name: 'Case 1', exact: true });
  await group.getByLabel('Case label').fill('Books Friday');
  await group.getByLabel('Number to call').fill('+14155550123');
  await group.getByLabel(/^Caller script/).fill('say: Friday at 3pm works for me');
  await group.getByLabel('Insert a ready-made script').selectOption({ label: 'Silence' });
  await expect(group.getByLabel(/^Caller script/)).toHaveValue('say: Friday at 3pm works for me\nsilent: 15\nsay: Hello?\nsilent: 15');
  await editor.getByRole('button', { name: 'Save plan' }).click();

  const plan = panel.getByRole('region', { name: 'Plan Guided' });
  await plan.getByRole('button', { name: 'Guided call with “Books Friday”' }).click();
  const start = plan.getByRole('form', { name: 'Guided call: Books Friday' });
  await start.getByLabel('Your phone number').fill('+1 415 555 0188');
  await start.getByRole('button', { name: 'Call me' }).click();

  // While the run is under way: the script, step by step, with the call's time (or the wait for it).
  let script = plan.getByRole('region', { name: 'Caller script' });
  await expect(script.getByText(/^(Waiting for the call to start|Elapsed \d+:\d\d)$/)).toBeVisible();
  await expect(script.getByRole('listitem')).toHaveCount(4);
  await expect(script.getByRole('heading')).toHaveText('Guided call to +14155550188');
  await script.getByRole('button', { name: 'Step 1 done' }).click();
  await script.getByRole('button', { name: 'Step 2 went wrong' }).click();
  await script.getByLabel('What went wrong (short)').fill(NOTE);
  await script.getByRole('button', { name: 'Save mark' }).click();
  await expect(script.getByRole('listitem').nth(1)).toContainText(new RegExp(`Wrong at \\d+:\\d\\d: ${NOTE}`));
  // Nothing wider than the narrowest panel.
  expect(await panel.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // A closed and reopened panel shows the marks again (kept with the run by the background).
  await panel.close();
  panel = await openPlans(openPage);
  await panel.getByRole('button', { name: 'Guided', exact: true }).click();
  script = panel.getByRole('region', { name: 'Plan Guided' }).getByRole('region', { name: 'Caller script' });
  await expect(script.getByRole('listitem').nth(0)).toContainText(/Done at \d+:\d\d/);
  await expect(script.getByRole('listitem').nth(1)).toContainText(NOTE);

  // The verdict takes the marks: the wrong step fails the case, its note the reason.
  const results = panel.getByRole('region', { name: 'Run results' });
  await expect(results.getByText(/^Verdict:/)).toHaveText('Verdict: Fail. 0 passed, 1 failed, 0 in error.', { timeout: 60_000 });
  await results.getByText('Books Friday: Fail').click();
  const wrong = results.getByRole('table', { name: 'Expectations of Books Friday' }).getByRole('row', { name: /caller script step 2/ });
  await expect(wrong).toContainText('stay silent 15 s');
  await expect(wrong).toContainText(NOTE);
  await expect(wrong).toContainText('Does not hold');
  expect(await panel.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAxeClean(panel);

  const [download] = await Promise.all([panel.waitForEvent('download'), results.getByRole('button', { name: 'Download JUnit XML' }).click()]);
  const xml = await parseStringPromise(await readFile((await download.path())!, 'utf8'), { strict: true });
  const testcase = xml.testsuites.testsuite[0].testcase[0];
  expect(testcase.failure[0].$.message).toMatch(new RegExp(`^caller script step 2: expected stay silent 15 s, got wrong at \\d+:\\d\\d: ${NOTE}$`));
  expect(testcase.properties[0].property.map((p: { $: { name: string; value: string } }) => p.$)).toContainEqual({ name: 'caller_script', value: '4 steps: 1 done, 1 wrong, 2 not marked' });
});
