/**
 * Keyboard and axe over every screen of the production build, against the real sandbox: the popup,
 * the options page and each side panel section (whatever sections its tablist shows), in their main
 * states. Each screen: no serious or critical axe violations, and Tab alone reaches every control.
 */
import { expectAxeClean } from './axe';
import type { Locator, Page } from '@playwright/test';
import { test, expect, setUp, setUpExtension } from './fixtures';

const axeOn = (page: Page, screen: string) => expectAxeClean(page, { screen });

/**
 * Marks every control a keyboard user must be able to reach with Tab: visible, enabled, not taken
 * out of the tab order on purpose (a roving tablist's other tabs, the unchecked radios of a group
 * that has a checked one: arrow keys reach those). Returns each control's description.
 */
async function markControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input, select, textarea, summary, audio[controls], video[controls], [tabindex]';
    const visible = (el: Element) => {
      const box = (el as HTMLElement).getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && !el.closest('[hidden], [inert]');
    };
    const names: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('[data-a11y-i]')) el.removeAttribute('data-a11y-i');
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if ((el as HTMLButtonElement).disabled || !visible(el)) continue;
      if (el.hasAttribute('tabindex') && el.tabIndex < 0) continue;
      if (el instanceof HTMLInputElement && el.type === 'hidden') continue;
      if (el instanceof HTMLInputElement && el.type === 'radio' && !el.checked && el.name) {
        const group = document.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${CSS.escape(el.name)}"]`);
        if ([...group].some((r) => r.checked)) continue;
      }
      el.setAttribute('data-a11y-i', String(names.length));
      const label = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '';
      names.push(`<${el.tagName.toLowerCase()}> ${label.trim().replace(/\s+/g, ' ').slice(0, 60)}`);
    }
    return names;
  });
}

/** Presses Tab from the top of the page until focus comes round again; every marked control must get focus. */
async function expectTabReachesEveryControl(page: Page, screen: string): Promise<void> {
  const controls = await markControls(page);
  expect(controls.length, `${screen}: controls to reach`).toBeGreaterThan(0);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.getSelection()?.removeAllRanges();
  });
  const reached = new Set<number>();
  let first: string | null = null;
  for (let presses = 0; presses < controls.length * 2 + 10; presses++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const el = document.activeElement;
      return el && el !== document.body ? (el.getAttribute('data-a11y-i') ?? `other:${el.tagName}#${el.id}`) : null;
    });
    if (at === null) continue;
    if (at === first) break; // round the page once
    first ??= at;
    if (!at.startsWith('other:')) reached.add(Number(at));
  }
  const missed = controls.filter((_, i) => !reached.has(i));
  expect(missed, `${screen}: controls Tab never reached`).toEqual([]);
}

async function checkScreen(page: Page, screen: string): Promise<void> {
  await axeOn(page, screen);
  await expectTabReachesEveryControl(page, screen);
}

/** Waits until nothing on the page says it is loading (the screen is in its settled state). */
async function settled(scope: Locator): Promise<void> {
  await expect(scope.getByText(/^Loading…$|^Loading\b/)).toHaveCount(0);
  await expect(scope.locator('[aria-busy="true"]')).toHaveCount(0);
}

test('first run: popup, options and side panel show the setup form, usable by keyboard, axe clean', async ({ openPage }) => {
  for (const path of ['popup.html', 'options.html', 'sidepanel.html']) {
    const page = await openPage(path);
    await expect(page.getByLabel('API base URL')).toBeVisible();
    await settled(page.locator('body'));
    await checkScreen(page, `${path} (no key)`);
    await page.close();
  }
});

test('options after setup: saved key, sites settings, usable by keyboard, axe clean', async ({ sandbox, openPage }) => {
  const options = await openPage('options.html');
  await setUp(options, sandbox.url);
  await expect(options.getByRole('status').filter({ hasText: /^Saved\./ })).toBeVisible();
  await checkScreen(options, 'options.html (key saved)');
  // A validation error is announced and its field stays reachable.
  await options.getByLabel('API base URL').fill('http://api.example.com');
  await options.getByRole('button', { name: 'Save' }).click();
  await expect(options.getByRole('alert').first()).toBeVisible();
  await checkScreen(options, 'options.html (an error shown)');
});

test('popup after setup: dial form, confirmation and the finished call, usable by keyboard, axe clean', async ({ sandbox, openPage }) => {
  await setUpExtension(openPage, sandbox.url);
  const popup = await openPage('popup.html');
  const agent = popup.getByLabel('Agent');
  await expect(agent.locator('option').nth(1)).toBeAttached();
  await settled(popup.locator('body'));
  await checkScreen(popup, 'popup (dial form)');

  if (!(await agent.inputValue())) await agent.selectOption({ index: 1 });
  await popup.getByLabel('Phone number').fill('+14155552671');
  await popup.getByRole('button', { name: 'Call' }).click();
  await expect(popup.getByRole('dialog')).toBeVisible();
  await checkScreen(popup, 'popup (confirmation)');

  await popup.getByRole('button', { name: 'Confirm' }).click();
  await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });
  await checkScreen(popup, 'popup (finished call)');
});

test('side panel: every section in its tablist, by arrow keys and Tab, axe clean', async ({ sandbox, openPage }) => {
  await setUpExtension(openPage, sandbox.url);
  const panel = await openPage('sidepanel.html');
  const tablist = panel.getByRole('tablist').first();
  const tabs = tablist.getByRole('tab');
  await expect(tabs.first()).toBeVisible();
  const names = await tabs.allTextContents();
  expect(names.length).toBeGreaterThan(1);

  // Arrow keys walk the tabs (wrapping at the end), Home and End jump; focus follows the selection.
  await tabs.first().click();
  for (let i = 1; i <= names.length; i++) {
    await panel.keyboard.press('ArrowRight');
    const expected = tabs.nth(i % names.length);
    await expect(expected).toHaveAttribute('aria-selected', 'true');
    await expect(expected).toBeFocused();
  }
  await panel.keyboard.press('ArrowLeft');
  await expect(tabs.last()).toHaveAttribute('aria-selected', 'true');
  await panel.keyboard.press('Home');
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  await panel.keyboard.press('End');
  await expect(tabs.last()).toBeFocused();

  for (let i = 0; i < names.length; i++) {
    const tab = tabs.nth(i);
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    const id = await tab.getAttribute('id');
    const tabpanel = panel.locator(`[role="tabpanel"][aria-labelledby="${id}"]`);
    await expect(tabpanel).toBeVisible();
    await settled(tabpanel);
    await checkScreen(panel, `side panel section "${names[i]}"`);
  }
});

test('side panel at 360 px: the sections in one row, the rest under More, by keyboard, axe clean', async ({ sandbox, openPage }) => {
  await setUpExtension(openPage, sandbox.url);
  const panel = await openPage('sidepanel.html');
  await panel.setViewportSize({ width: 360, height: 800 });
  const tablist = panel.getByRole('tablist', { name: 'Side panel sections' });
  const tabs = tablist.getByRole('tab');
  const more = panel.getByRole('button', { name: 'More' });
  await expect(more).toBeVisible();
  await expect(more).toHaveAttribute('aria-haspopup', 'menu');
  const shown = await tabs.allTextContents();
  expect(shown.length).toBeGreaterThan(1);
  expect(shown.length).toBeLessThan(8);
  // One row: every tab and the menu button on the same line.
  const tops = await panel.locator('.tabs-nav-one-row > [role="tablist"] > [role="tab"], .tabs-nav-one-row .tabs-more-button').evaluateAll((els) =>
    els.map((el) => Math.round(el.getBoundingClientRect().top)),
  );
  expect(new Set(tops).size).toBe(1);

  // The menu button by keyboard: ArrowDown opens it on its first item, arrows move, Escape closes back.
  await more.focus();
  await panel.keyboard.press('ArrowDown');
  const menu = panel.getByRole('menu');
  const items = menu.getByRole('menuitemradio');
  await expect(items.first()).toBeFocused();
  expect((await items.allTextContents()).length + shown.length).toBe(8);
  await axeOn(panel, 'side panel at 360 px, More menu open');
  await panel.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await panel.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(more).toBeFocused();

  // Choosing a section from the menu shows it; the button names it, and the panel is labelled by it.
  await panel.keyboard.press('Enter');
  await expect(items.first()).toBeFocused();
  const chosen = (await items.last().textContent())!;
  await items.last().click();
  const current = panel.getByRole('button', { name: `More: ${chosen}` });
  await expect(current).toBeVisible();
  await expect(panel.getByRole('tabpanel', { name: chosen })).toBeVisible();
  await expect(tabs).toHaveText(shown);
  await settled(panel.getByRole('tabpanel', { name: chosen }));
  await checkScreen(panel, `side panel at 360 px, "${chosen}" from the More menu`);
});
