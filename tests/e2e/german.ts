/**
 * The German UI in e2e specs: German text found through the catalogue by its English text (so a
 * changed translation does not break the specs), and what a German screen still shows in English.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

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
