/**
 * The German UI in e2e specs: German text found through the catalogue by its English text (so a
 * changed translation does not break the specs), and what a German screen still shows in English.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { OWNER_KEY } from '../../sandbox/keys';

const catalogue = (lang: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../public/_locales/${lang}/messages.json`, import.meta.url)), 'utf8')) as Record<string, { message: string }>;
export const EN = catalogue('en');
export const DE = catalogue('de');

/**
 * The German text of the message whose English text is `english` (the first key that has it), its
 * placeholders filled from `subs` by name (`{ CASE: 'x' }` for `$CASE$`).
 */
export function de(english: string, subs: Record<string, string> = {}): string {
  const key = Object.keys(EN).find((k) => EN[k]!.message === english);
  if (!key || !DE[key]) throw new Error(`no German text for "${english}"`);
  return DE[key]!.message.replace(/\$([A-Z0-9_]+)\$/gi, (whole, name: string) => subs[name.toUpperCase()] ?? whole);
}

/** Regular-expression source of a filled message: its placeholders match any text. */
const template = (message: string) => message.split(/\$[A-Z0-9_]+\$/i).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+');

/** The German message whose English text is `english`, as a whole-text pattern: its placeholders match any text. */
export function dePattern(english: string): RegExp {
  return new RegExp(`^${template(de(english))}$`);
}

/** English catalogue messages whose German differs and that say something (not just a placeholder or a symbol). */
const ENGLISH = Object.keys(EN)
  .filter((k) => DE[k] && DE[k]!.message !== EN[k]!.message && /[a-z]{3}/i.test(EN[k]!.message.replace(/\$[A-Z0-9_]+\$/gi, '')))
  .map((k) => ({ key: k, pattern: new RegExp(`^${template(EN[k]!.message)}$`, 's') }));

/**
 * Words a German screen never says itself. What the person typed and the service's own data are
 * passed as `allowed` and taken out first; the rest must be German.
 */
const ENGLISH_WORDS =
  /\b(the|and|with|your|you|this|that|of|to|is|at|for|by|from|not|stay|silent|say|press|hang|interrupt|step|wrong|done|waiting|elapsed|marked|save|cancel|confirm|number|phone|call|calls|asks|asked|share|page|goes|once|variables|script|case|checks|choose|ready|made|guided)\b/gi;

/**
 * Text shown inside `selector` (visible text, and the names and hints assistive technology reads:
 * aria-label, placeholder, title, options) that is still English: a whole English catalogue message
 * (a German one missing, or a label not run through t()), or an English word left in a sentence.
 */
export async function englishLeft(page: Page, selector: string, allowed: readonly string[] = []): Promise<string[]> {
  const shown = await page.evaluate((selector) => {
    const texts: string[] = [];
    for (const root of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest('script, style, textarea, [hidden]')) continue;
        if (parent.tagName !== 'OPTION' && (parent.getClientRects().length === 0 || getComputedStyle(parent).visibility === 'hidden') && !parent.closest('.visually-hidden')) continue;
        if (node.textContent!.trim()) texts.push(node.textContent!.trim());
      }
      for (const el of [root, ...root.querySelectorAll('*')])
        for (const name of ['aria-label', 'placeholder', 'title', 'alt'])
          if (el.getAttribute(name)?.trim()) texts.push(el.getAttribute(name)!.trim());
    }
    return texts;
  }, selector);
  const left = new Set<string>();
  for (const text of shown) {
    const english = ENGLISH.find((e) => e.pattern.test(text));
    if (english) left.add(`"${text}" (${english.key})`);
    let rest = text;
    for (const a of allowed) rest = rest.split(a).join(' ');
    const words = [...rest.matchAll(ENGLISH_WORDS)].map((m) => m[0]);
    if (words.length) left.add(`"${text}": ${words.join(', ')}`);
  }
  return [...left];
}

/** Options in German: the sandbox's URL and key saved (and click-to-call on pages switched on). */
export async function setUpInGerman(openPage: (path: string) => Promise<Page>, baseUrl: string, clickToCall = false): Promise<void> {
  const options = await openPage('options.html');
  await options.getByLabel(de('API base URL')).fill(baseUrl);
  await options.getByLabel(de('API key')).fill(OWNER_KEY);
  await options.getByRole('button', { name: de('Save') }).click();
  await expect(options.getByText(/••••/)).toBeVisible();
  if (clickToCall) {
    await options.getByRole('switch', { name: de('Click-to-call on pages') }).click();
    await expect(options.getByText(dePattern('Click-to-call on pages is on. The browser gave access to $SITES$.'))).toBeVisible();
  }
  await options.close();
}

/** The side panel's Test plans section at the panel's real width (360 px), `agent` picked. */
export async function plansSectionInGerman(openPage: (path: string) => Promise<Page>, agent: string) {
  const panel = await openPage('sidepanel.html?section=plans');
  await panel.setViewportSize({ width: 360, height: 800 });
  const section = panel.getByRole('region', { name: de('Test plans') });
  const picker = section.getByLabel(de('Agent'), { exact: true });
  await expect(picker.locator(`option[value="${agent}"]`)).toBeAttached();
  await picker.selectOption(agent);
  return { panel, section };
}
