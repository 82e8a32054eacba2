/**
 * The screens at the widths people use, in every shipped language and both colour schemes: every side
 * panel section, the popup and the options page, production build against the real sandbox.
 * - Layout checks (each screen, each width and scheme): nothing scrolls sideways, and no word is broken
 *   across two lines (each word of each visible text node is measured with a Range: one line box).
 * - Screenshots compared with the kept baselines beside this file (tests/e2e/visual.spec.ts-snapshots/).
 *   What changes from run to run (dates and clock times the sandbox derives from "now", date inputs)
 *   is replaced with fixed text or masked, after the layout checks have seen the real values.
 *   A deliberate change of the look: `npx playwright test tests/e2e/visual.spec.ts --update-snapshots`,
 *   then look at the new pictures before committing them.
 * One browser per language; schemes are switched with emulateMedia and widths with the viewport.
 */
import type { Page } from '@playwright/test';
import { AGENT_ID } from '../../sandbox/seed';
import { OWNER_KEY } from '../../sandbox/keys';
import { test, expect } from './fixtures';
import { layoutProblems } from './layout';

const WIDTHS = [360, 800] as const;
const SCHEMES = ['light', 'dark'] as const;
/** The popup is a fixed 380 px window in the browser: it is shown at that width instead of 360. */
const POPUP_WIDTHS = [380, 800] as const;
const HEIGHT = 900;

const SECTIONS = ['calls', 'agents', 'batches', 'executions', 'numbers', 'knowledgebases', 'plans', 'account'] as const;
type Section = (typeof SECTIONS)[number];

/** What shows that a section has its data (agent chosen where it needs one). */
const READY: Record<Section, string> = {
  calls: 'form input[type="tel"]',
  agents: '.agent-task',
  batches: 'table.batches',
  executions: 'table.executions',
  numbers: 'table.owned-numbers',
  knowledgebases: 'table.knowledgebases',
  plans: '[role="tabpanel"] button.primary',
  account: '[data-testid="wallet-balance"]',
};

/** Replaces what the sandbox derives from the clock with fixed text of the same form (after the checks). */
function freezeVolatileText(): void {
  const patterns: [RegExp, string][] = [
    [/\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{1,2}:\d{2}\s?[AP]M\b/g, 'Jan 1, 12:00 PM'],
    [/\b\d{1,2}\. (?:Jan|Feb|März|Mär|Apr|Mai|Juni|Jun|Juli|Jul|Aug|Sept|Sep|Okt|Nov|Dez)\.?, \d{2}:\d{2}\b/g, '1. Jan., 12:00'],
    [/\b\d{1,2}:\d{2}(?::\d{2})?(\s?[AP]M)?\b/g, '12:00$1'],
    [/\b\d{1,2}\/\d{1,2}\/\d{4}\b/g, '1/1/2026'],
    [/\b\d{1,2}\.\d{1,2}\.\d{4}\b/g, '1.1.2026'],
    // The sandbox's port (a new one each run) and the extension's id (from the folder the build is in).
    [/\b127\.0\.0\.1:\d+/g, '127.0.0.1:8787'],
    [/\b[a-p]{32}\b/g, 'abcdefghijklmnopabcdefghijklmnop'],
  ];
  for (const input of document.querySelectorAll('input')) {
    if (/\b127\.0\.0\.1:\d+/.test(input.value)) input.value = input.value.replace(/\b127\.0\.0\.1:\d+/g, '127.0.0.1:8787');
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    let text = node.data;
    for (const [pattern, fixed] of patterns) text = text.replace(pattern, fixed);
    if (text !== node.data) node.data = text;
  }
}

/** Lets the resize reach ResizeObservers and the re-render settle. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

async function checkAndShoot(page: Page, name: string, widths: readonly number[]): Promise<void> {
  const problems: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of widths) {
      await page.setViewportSize({ width, height: HEIGHT });
      await settle(page);
      const found = await page.evaluate(layoutProblems);
      for (const s of found.sideways) problems.push(`${name} ${width}px ${scheme}: scrolls sideways: ${s}`);
      for (const w of found.brokenWords) problems.push(`${name} ${width}px ${scheme}: word broken across lines: ${w}`);
    }
  }
  expect(problems).toEqual([]);
  await page.evaluate(freezeVolatileText);
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of widths) {
      await page.setViewportSize({ width, height: HEIGHT });
      await settle(page);
      await expect(page).toHaveScreenshot(`${name}-${width}-${scheme}.png`, {
        animations: 'disabled',
        caret: 'hide',
        mask: [page.locator('input[type="date"], input[type="datetime-local"], audio')],
        maxDiffPixelRatio: 0.003,
      });
    }
  }
}

async function chooseAgent(page: Page): Promise<void> {
  const picker = page.locator('select').filter({ has: page.locator(`option[value="${AGENT_ID}"]`) }).first();
  await expect(picker).toBeVisible();
  if ((await picker.inputValue()) !== AGENT_ID) await picker.selectOption(AGENT_ID);
}

for (const lang of ['en', 'de'] as const) {
  test.describe(`screens in ${lang}`, () => {
    test.use({ extensionLaunch: { lang }, viewport: { width: 800, height: HEIGHT }, timezoneId: 'UTC' });

    test(`every side panel section, the popup and the options page at 360 and 800 px, light and dark (${lang})`, async ({ sandbox, openPage }) => {
      test.setTimeout(300_000);
      const options = await openPage('options.html');
      // Set up by the fields' ids: the labels are in the language under test.
      await options.locator('#setup-base-url').fill(sandbox.url);
      await options.locator('#setup-api-key').fill(OWNER_KEY);
      await options.locator('form button[type="submit"]').first().click();
      await expect(options.getByText(/••••/)).toBeVisible();
      // The language really is the one under test (the browser's UI language, which t() answers in).
      await expect(options.locator('form button[type="submit"]').first()).toHaveText(lang === 'de' ? 'Speichern' : 'Save');
      await checkAndShoot(options, `${lang}-options`, WIDTHS);
      await options.close();

      const panel = await openPage(`sidepanel.html?section=calls`);
      for (const section of SECTIONS) {
        await panel.goto(panel.url().replace(/\?.*$/, `?section=${section}`));
        await panel.setViewportSize({ width: 800, height: HEIGHT });
        if (section !== 'calls' && section !== 'numbers' && section !== 'knowledgebases' && section !== 'account') await chooseAgent(panel);
        await expect(panel.locator(READY[section]).first()).toBeVisible();
        await expect(panel.locator('[aria-busy="true"]')).toHaveCount(0);
        await checkAndShoot(panel, `${lang}-panel-${section}`, WIDTHS);
      }

      const popup = await openPage('popup.html');
      await expect(popup.locator('form input[type="tel"]')).toBeVisible();
      await checkAndShoot(popup, `${lang}-popup`, POPUP_WIDTHS);
    });
  });
}
