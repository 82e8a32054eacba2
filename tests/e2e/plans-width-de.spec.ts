/**
 * The plan results of a repeat run in German at the side panel's real width (360 px), in dark mode:
 * German words are longer, and the results view (pass rates, causes, retries, the baseline) must not
 * scroll sideways in any language, and must pass axe (contrast included) in dark mode too. The English run is tests/e2e/plans-repeats.spec.ts; this one only reads the layout.
 * Labels come from the German catalogue, found by their English text; no English is left in the
 * results (the checks' wording included), the plan's and the service's own words aside.
 */
import { fileURLToPath } from 'node:url';
import { expectAxeClean } from './axe';
import { test, expect } from './fixtures';
import { SEED } from '../../sandbox/seed';
import { layoutProblems } from './layout';
import { de, DE, englishLeft, plansSectionInGerman, setUpInGerman } from './german';
import { EXPECTABLE_STATUSES } from '../../lib/plans/schema';

const AGENT = SEED.A.agents.sales;
const PLAN = fileURLToPath(new URL('../fixtures/plans/sandbox-repeats.json', import.meta.url));
/**
 * What the results may show as written: the plan author's own words (its name, case labels, field
 * name), the service's statuses and extracted values, and the export formats' names.
 */
const AS_WRITTEN = ['Sales agent: repeats on the sandbox', 'Books a call back at the time asked', 'Takes a no politely', 'A line that is always busy', 'interested', 'true', 'false', ...EXPECTABLE_STATUSES];
test.use({ extensionLaunch: { lang: 'de' }, colorScheme: 'dark' });

test('German, dark: a repeat run’s results, figures and baseline fit the panel at 360 px and pass axe', async ({ sandbox, openPage }) => {
  test.setTimeout(180_000);
  await setUpInGerman(openPage, sandbox.url);
  const { panel, section } = await plansSectionInGerman(openPage, AGENT);
  await section.locator('input[type="file"]').setInputFiles(PLAN);
  await panel.getByRole('form', { name: de('Plan editor') }).getByRole('button', { name: de('Save plan') }).click();

  const plan = panel.getByRole('region', { name: DE.plans_planNamed!.message.replace('$NAME$', 'Sales agent: repeats on the sandbox') });
  await plan.getByRole('button', { name: de('Run plan') }).click();
  await plan.getByRole('region', { name: de('Confirm the run') }).getByRole('button', { name: DE.plans_placeCountOther!.message.replace('$COUNT$', '8') }).click();
  const results = plan.getByRole('region', { name: de('Run results') });
  // Finished: it offers to pin the run as the baseline. Open every case's details, the widest state.
  await expect(results.getByRole('button', { name: de('Pin as baseline') })).toBeVisible({ timeout: 120_000 });
  for (const summary of await results.locator('summary').all()) await summary.click();

  expect((await panel.evaluate(layoutProblems)).sideways).toEqual([]);
  // Our own words in German: the checks' names, expected and found sides, and the failure reasons (the exports keep English).
  expect(await englishLeft(panel, '.plans-run', AS_WRITTEN)).toEqual([]);
  // In dark mode, as the panel follows the system: the results, opened, pass axe (contrast included).
  expect(await panel.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
  await expectAxeClean(panel, { include: '.plans-run', screen: 'German plan results, dark, 360 px' });
});
