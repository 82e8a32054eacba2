/**
 * Two screens in German at the side panel's real width (360 px), in dark mode, on the production
 * build against the real sandbox: (1) the plan editor with a guided case, then the guided call's
 * caller script while the call is under way (steps marked done and wrong with a German note); (2) the
 * extension's confirmation of a page's `<voice-agent-call>` request (Confirm and Cancel both used).
 * Each screen: declared German, nothing scrolls sideways, nothing is cut off or broken inside a word, no English left
 * (catalogue messages or English words; what the person typed and the service's data aside), axe
 * clean. German text comes from the catalogue, found by its English text (./german.ts). The English
 * runs of the same screens are plans-guided.spec.ts and widget.spec.ts.
 */
import type { Page, Worker } from '@playwright/test';
import { EXPECTABLE_STATUSES } from '../../lib/plans/schema';
import { SEED } from '../../sandbox/seed';
import { readDataRecordScript } from '../support/data-store';
import { expectAxeClean } from './axe';
import { de, dePattern, englishLeft, plansSectionInGerman, setUpInGerman } from './german';
import { layoutProblems } from './layout';
import { EXTRA_PAGES, expect, test } from './page-fixtures';
import { hostPage, placements, serveWidget, widgetConfirmations } from './widget-pages';

// Slow enough that the script is marked while the run waits for its start (2 min 15 s lead / 20 ≈ 7 s).
test.use({ extensionLaunch: { lang: 'de' }, colorScheme: 'dark', sandboxOptions: { speed: 20 } });

const AGENT = SEED.A.agents.sales;
/** The agent's name as the service gives it (English service data, not UI text). */
const AGENT_NAME = 'Sales outreach';
const NOTE = 'Der Agent hat mich unterbrochen';
/** The script's own keywords (a plan's syntax, the same in every language) and the service's status values. */
const SYNTAX = ['say:', 'silent:', 'interrupt', 'press:', 'hang up', ...EXPECTABLE_STATUSES];

/** The options page in German: base URL and key saved, and click-to-call on pages turned on when asked. */
/** Every check of a screen at 360 px: layout, language, axe. */
async function expectFitsInGerman(page: Page, selector: string, screen: string, allowed: readonly string[]): Promise<void> {
  // The panel's width, dark mode, and the page declared German (screen readers read it as German).
  expect(await page.evaluate(() => [document.documentElement.clientWidth, matchMedia('(prefers-color-scheme: dark)').matches, document.documentElement.lang])).toEqual([360, true, 'de']);
  const layout = await page.evaluate(layoutProblems);
  expect({ screen, ...layout }).toEqual({ screen, sideways: [], brokenWords: [], clipped: [] });
  expect({ screen, english: await englishLeft(page, selector, allowed) }).toEqual({ screen, english: [] });
  await expectAxeClean(page, { include: selector, screen });
}

test('German, dark, 360 px: the plan editor with a guided case, and the caller script during the call, marked done and wrong with a note', async ({ sandbox, openPage }) => {
  test.setTimeout(150_000);
  await setUpInGerman(openPage, sandbox.url);
  const { panel, section } = await plansSectionInGerman(openPage, AGENT);

  // The editor in its widest state: a variable, a check, a script with a ready-made part.
  await section.getByRole('button', { name: de('New plan') }).click();
  const editor = panel.getByRole('form', { name: de('Plan editor') });
  await editor.getByLabel(de('Plan name')).fill('Geführt');
  const group = editor.getByRole('group', { name: de('Case $NUMBER$', { NUMBER: '1' }), exact: true });
  await group.getByLabel(de('Case label')).fill('Termin Freitag');
  await group.getByLabel(de('Number to call')).fill('+14155550123');
  await group.getByRole('button', { name: de('Add variable') }).click();
  await group.getByLabel(de('Variable name')).fill('kunde');
  await group.getByLabel(de('Variable value')).fill('Ada Lovelace');
  await group.getByRole('button', { name: de('Add extracted data check') }).click();
  await group.getByLabel(de('Field')).fill('termin_bestaetigt');
  await group.getByLabel(de('Caller script (for a guided call: what you do when you answer)')).fill('say: Freitag um 15 Uhr passt mir');
  await group.getByLabel(de('Insert a ready-made script')).selectOption({ label: de('Silence') });
  await expect(group.getByLabel(de('Caller script (for a guided call: what you do when you answer)'))).toHaveValue(`say: Freitag um 15 Uhr passt mir\nsilent: 15\nsay: ${de('Hello?')}\nsilent: 15`);
  await expectFitsInGerman(panel, '.plans-editor', 'German plan editor, dark, 360 px', [AGENT_NAME, AGENT, ...SYNTAX]);
  await editor.getByRole('button', { name: de('Save plan') }).click();

  const plan = panel.getByRole('region', { name: de('Plan $NAME$', { NAME: 'Geführt' }) });
  await plan.getByRole('button', { name: de('Guided call with “$CASE$”', { CASE: 'Termin Freitag' }) }).click();
  const start = plan.getByRole('form', { name: de('Guided call: $CASE$', { CASE: 'Termin Freitag' }) });
  await start.getByLabel(de('Your phone number')).fill('+1 415 555 0188');
  await expectFitsInGerman(panel, '.plans-confirm', 'German guided call start, dark, 360 px', ['Termin Freitag']);
  await start.getByRole('button', { name: de('Call me') }).click();

  // While the run is under way: the script in German, step by step, with the call's time (or the wait for it).
  const script = plan.getByRole('region', { name: de('Caller script') });
  await expect(script.getByText(dePattern('Waiting for the call to start')).or(script.getByText(dePattern('Elapsed $TIME$')))).toBeVisible();
  await expect(script.getByRole('heading')).toHaveText(de('Guided call to $NUMBER$', { NUMBER: '+14155550188' }));
  const steps = script.getByRole('listitem');
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(0)).toContainText('Freitag um 15 Uhr passt mir');
  await expect(steps.nth(1)).toContainText(de('Stay silent for $SECONDS$ s', { SECONDS: '15' }));
  await script.getByRole('button', { name: de('Step $N$ done', { N: '1' }) }).click();
  await expect(steps.nth(0)).toContainText(de('Done at $TIME$', { TIME: '' }).trim());
  await script.getByRole('button', { name: de('Step $N$ went wrong', { N: '2' }) }).click();
  await script.getByLabel(de('What went wrong (short)')).fill(NOTE);
  // The note's form open, the widest state: it fits as well.
  await expectFitsInGerman(panel, '.plans-guided', 'German guided call with the note open, dark, 360 px', [NOTE, '+14155550188', 'Freitag um 15 Uhr passt mir', de('Hello?')]);
  await script.getByRole('button', { name: de('Save mark') }).click();
  await expect(steps.nth(1)).toContainText(new RegExp(de('Wrong at $TIME$: $NOTE$', { TIME: '\\d+:\\d\\d', NOTE })));
  await expectFitsInGerman(panel, '.plans-guided', 'German guided call, marked, dark, 360 px', [NOTE, '+14155550188', 'Freitag um 15 Uhr passt mir', de('Hello?')]);
});

test('German, dark, 360 px: the extension’s confirmation of a page’s call request fits, and Cancel and Confirm both work', async ({ context, sandbox, openPage, pages, serviceWorker }) => {
  test.setTimeout(120_000);
  await setUpInGerman(openPage, sandbox.url, true);
  // The popup fetches the agent list: the confirmation names the agent from it.
  const popup = await openPage('popup.html');
  const sw: Worker = await serviceWorker();
  const cachedName = () =>
    sw.evaluate(readDataRecordScript('agents.cache')).then((c) => (c as { agents?: { id: string; name: string }[] } | undefined)?.agents?.find((a) => a.id === AGENT)?.name ?? null);
  await expect.poll(cachedName, { timeout: 20_000 }).not.toBeNull();
  const agentName = (await cachedName())!;
  await popup.close();

  await serveWidget(context);
  EXTRA_PAGES['widget-de.html'] = hostPage(
    `<voice-agent-call id="w" agent="${AGENT}" number="+14155550123" via="call" variables='{"kunde":"Ada Lovelace","termin":"Freitag 15 Uhr"}'></voice-agent-call>`,
    'de',
  );
  const before = (await placements(sandbox)).length;
  const page = await context.newPage();
  await page.goto(`${pages.url}/widget-de.html`);
  // The element's Call (or Call again) button: shown again once the request is over.
  const call = page.locator('#w form button[type=submit]');

  /** Asks from the page, and returns the confirmation at the panel's width. */
  const ask = async () => {
    await call.click();
    await expect.poll(() => widgetConfirmations(context).length, { timeout: 20_000 }).toBe(1);
    const confirmation = widgetConfirmations(context)[0]!;
    await confirmation.setViewportSize({ width: 360, height: 640 });
    await expect(confirmation.getByRole('dialog', { name: de('A page asks for a test call') })).toBeVisible();
    return confirmation;
  };

  // First: Cancel. The window closes and nothing is placed.
  let confirmation = await ask();
  const dialog = confirmation.getByRole('dialog', { name: de('A page asks for a test call') });
  await expect(dialog.getByText(de('Asked by: $SITE$', { SITE: '127.0.0.1' }), { exact: true })).toBeVisible();
  await expect(dialog.getByText(de('Agent: $AGENT$', { AGENT: agentName }), { exact: true })).toBeVisible();
  await expect(dialog.getByText(de('Number: $NUMBER$', { NUMBER: '+14155550123' }), { exact: true })).toBeVisible();
  await expect(dialog.getByText(de('Goes out at once.'))).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: de('Share this call’s transcript and recording with $SITE$', { SITE: '127.0.0.1' }) })).toBeVisible();
  const confirm = dialog.getByRole('button', { name: de('Confirm call') });
  const cancel = dialog.getByRole('button', { name: de('Cancel') });
  for (const button of [confirm, cancel]) {
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= 360).toBe(true);
  }
  await expectFitsInGerman(confirmation, 'main', 'German widget confirmation, dark, 360 px', ['Click-to-Call', agentName, '127.0.0.1', 'Ada Lovelace', 'Freitag 15 Uhr', 'kunde', 'termin']);
  await Promise.all([confirmation.waitForEvent('close'), cancel.click()]);
  expect((await placements(sandbox)).length).toBe(before);

  // Then: Confirm (armed a moment after the window is shown). The call is placed, once.
  confirmation = await ask();
  await confirmation.getByRole('button', { name: de('Confirm call') }).click();
  await expect.poll(async () => (await placements(sandbox)).length, { timeout: 30_000 }).toBe(before + 1);
  await expect(confirmation.getByRole('dialog', { name: de('A page asks for a test call') })).toHaveCount(0);
  expect((await confirmation.evaluate(layoutProblems)).sideways).toEqual([]);
});
