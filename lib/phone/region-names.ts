/**
 * Every country's name in the languages a page is written in, from the browser's own data
 * (Intl.DisplayNames, CLDR), for the page's place index (./place-names.ts addPlaceNames). Built in
 * the background, once per language, and handed to a frame with its config: a page never pays for
 * the ICU data (constructing a DisplayNames costs milliseconds) nor carries a hand list.
 */
import { countryCodes } from './countries';

/** Languages the finder reads phone words in (./reject.ts), besides English: the ones a page is likely to name countries in. */
export const PLACE_LANGUAGES = ['de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'sv', 'tr', 'ja', 'zh', 'zh-Hant', 'ko', 'ar', 'fa', 'he', 'hi', 'ru'] as const;

const MAX_LANGUAGES = 16;
const built = new Map<string, string>();

/** The language a tag names as PLACE_LANGUAGES spells it ("de-AT" → "de", "zh-TW" → "zh-Hant"), or null for English and others. */
export function placeLanguage(tag: string): string | null {
  const lower = tag.toLowerCase();
  const base = lower.split('-')[0]!;
  if (base === 'zh') return /-(?:hant|tw|hk|mo)\b/.test(lower) ? 'zh-Hant' : 'zh';
  return (PLACE_LANGUAGES as readonly string[]).includes(base) ? base : null;
}

/** "CCname|CCname|…": every country's name in `language`, '' where the engine has no such data. */
function namesIn(language: string): string {
  let names = built.get(language);
  if (names === undefined) {
    try {
      const display = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
      names = countryCodes()
        .map((code) => {
          const name = display.of(code);
          // An engine without the language's data answers in English (or the code): nothing to add.
          return name && name !== code ? `${code}${name.replace(/\|/g, ' ')}` : '';
        })
        .filter(Boolean)
        .join('|');
    } catch {
      names = '';
    }
    built.set(language, names);
  }
  return names;
}

/** The country names a page in `tags` (its document's, its elements', the browser's languages) needs besides English. */
export function regionNames(tags: readonly string[]): string {
  const languages = [...new Set(tags.map(placeLanguage).filter((l): l is string => l !== null))].slice(0, MAX_LANGUAGES);
  return languages.map(namesIn).filter(Boolean).join('|');
}
