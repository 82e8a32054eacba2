/**
 * UI text through the browser's own i18n (`_locales/<lang>/messages.json`, copied from public/).
 * `t(key, ...subs)` answers in the browser's UI language, falling back to English (the manifest's
 * default_locale) for a key a locale lacks, as the browser does.
 *
 * Keys are checked at compile time: `MessageKey` is the English catalogue's own keys (a type-only
 * JSON import, so no catalogue is bundled into the pages). Where `browser.i18n` is absent (unit
 * tests), `useCatalogues` supplies the catalogues; tests/setup/i18n.ts installs English.
 */
import type en from '../public/_locales/en/messages.json';

export { uiLocale } from './locale';

export type MessageKey = keyof typeof en;

export interface CatalogueEntry {
  message: string;
  description?: string;
  placeholders?: Record<string, { content: string; example?: string }>;
}
export type Catalogue = Record<string, CatalogueEntry>;

/** Catalogues to answer from instead of the browser's, first match wins (tests: a locale, then en). */
let catalogues: Catalogue[] | null = null;

export function useCatalogues(...list: Catalogue[]): void {
  catalogues = list.length ? list : null;
}

/** A message with `$1`…`$9` (or its named placeholders) filled in; the key itself if none is found. */
export function t(key: MessageKey, ...subs: (string | number)[]): string {
  const strings = subs.map(String);
  if (catalogues) {
    for (const catalogue of catalogues) {
      const entry = catalogue[key];
      if (entry) return fillMessage(entry, strings);
    }
    return key;
  }
  try {
    // getMessage answers '' for an unknown key. It is synchronous and the same in Chrome and Firefox,
    // so no polyfill is loaded for it: modules with text stay importable in Node (the qa command, specs).
    return platformI18n()?.getMessage(key, strings) || key;
  } catch {
    return key;
  }
}

type GetMessage = { getMessage(key: string, subs?: string[]): string };
function platformI18n(): GetMessage | undefined {
  const g = globalThis as { browser?: { i18n?: GetMessage }; chrome?: { i18n?: GetMessage } };
  return g.browser?.i18n ?? g.chrome?.i18n;
}

/** chrome.i18n's substitution: named `$NAME$` → its placeholder's content, then `$1`…`$9`, `$$` → `$`. */
export function fillMessage(entry: CatalogueEntry, subs: readonly string[]): string {
  const placeholders = Object.fromEntries(Object.entries(entry.placeholders ?? {}).map(([name, p]) => [name.toLowerCase(), p.content]));
  const named = entry.message.replace(/\$([A-Za-z0-9_@]+)\$/g, (whole, name: string) => placeholders[name.toLowerCase()] ?? whole);
  return named.replace(/\$(\$|[1-9])/g, (_, what: string) => (what === '$' ? '$' : (subs[Number(what) - 1] ?? '')));
}

/** The placeholder names a message uses, lower-cased and sorted (for the catalogue checks). */
export function placeholderNames(entry: CatalogueEntry): string[] {
  return [...new Set([...entry.message.matchAll(/\$([A-Za-z0-9_@]+)\$/g)].map((m) => m[1]!.toLowerCase()))].sort();
}

/**
 * Declares the page's language as the one its text is in: the catalogue's own (a browser in a
 * language without one shows English, and says so), so screen readers read German as German.
 */
export function markDocumentLanguage(doc: Document): void {
  doc.documentElement.lang = t('ui_language');
}
