import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import de from '../../../public/_locales/de/messages.json';
import en from '../../../public/_locales/en/messages.json';
import { fillMessage, placeholderNames, t, useCatalogues, type Catalogue } from '../../../lib/i18n';

const ROOT = join(__dirname, '../../..');
const EN: Catalogue = en;
const DE: Catalogue = de;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const files = () => [...['components', 'entrypoints', 'lib'].flatMap((d) => sourceFiles(join(ROOT, d))), join(ROOT, 'wxt.config.ts')];
const sources = () => files().map((file) => readFileSync(file, 'utf8'));

/** Every key the code names: t('…'), tNodes('…') and the manifest's __MSG_…__. */
function usedKeys(): Map<string, string> {
  const used = new Map<string, string>();
  for (const file of files()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt(?:Nodes)?\(\s*'([A-Za-z0-9_]+)'|__MSG_([A-Za-z0-9_]+)__/g)) used.set(m[1] ?? m[2]!, relative(ROOT, file));
  }
  return used;
}

afterEach(() => {
  useCatalogues(EN);
  vi.restoreAllMocks();
});

describe('message catalogues', () => {
  it('every key the code uses exists in English', () => {
    const used = usedKeys();
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter(([key]) => !(key in EN)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('English has no key the code does not use', () => {
    // Keys picked from a table or a condition are quoted literals, not t('…') calls.
    const quoted = new Set(sources().flatMap((text) => [...text.matchAll(/'([A-Za-z0-9_]+)'/g)].map((m) => m[1]!)));
    const used = usedKeys();
    expect(Object.keys(EN).filter((key) => !used.has(key) && !quoted.has(key))).toEqual([]);
  });

  it('every German key exists in English with the same placeholders', () => {
    for (const [key, entry] of Object.entries(DE)) {
      expect(EN[key], `de key ${key} is not in en`).toBeDefined();
      expect(placeholderNames(entry), key).toEqual(placeholderNames(EN[key]!));
      expect(entry.placeholders ?? {}, key).toEqual(EN[key]!.placeholders ?? {});
    }
  });

  it.each([
    ['en', EN],
    ['de', DE],
  ])('%s: every $NAME$ in a message is declared, every declared placeholder is used, names are valid', (_lang, catalogue) => {
    for (const [key, entry] of Object.entries(catalogue)) {
      expect(key, 'message names are ASCII letters, digits and _').toMatch(/^[A-Za-z0-9_]+$/);
      expect(placeholderNames(entry), key).toEqual(Object.keys(entry.placeholders ?? {}).map((n) => n.toLowerCase()).sort());
      expect(entry.message.trim(), key).not.toBe('');
    }
  });

  it('German covers at least the popup and the manifest', () => {
    const manifest = ['extName', 'extDescription', 'commandCallSelection'];
    // The popup's own text and the pieces it shows: first-run setup, On this page, calls under way, the number field.
    const inPopup = ['popup_', 'setup_', 'page_', 'countries_', 'phone_', 'variables_', 'countdown_'];
    const popupKeys = Object.keys(EN).filter((k) => inPopup.some((p) => k.startsWith(p)) || manifest.includes(k) || k === 'calls_underWay' || k === 'calls_show');
    expect(popupKeys.filter((k) => !(k in DE))).toEqual([]);
  });
});

describe('t', () => {
  it('fills positional and named placeholders the way browser.i18n does', () => {
    const entry = { message: 'Call $NUMBER$ with $Agent$ for $$5 ($1)', placeholders: { number: { content: '$1' }, agent: { content: '$2' } } };
    expect(fillMessage(entry, ['+14155550132', 'Sam'])).toBe('Call +14155550132 with Sam for $5 (+14155550132)');
    expect(fillMessage({ message: 'No subs: $1.' }, [])).toBe('No subs: .');
    // Text that looks like a placeholder inside a substitution is not expanded again.
    expect(fillMessage(entry, ['$2', 'x'])).toBe('Call $2 with x for $5 ($2)');
  });

  it('answers from the catalogues given, falling back to English for a key a locale lacks', () => {
    useCatalogues({ popup_newCall: { message: 'Neuer Anruf' } }, EN);
    expect(t('popup_newCall')).toBe('Neuer Anruf');
    expect(t('popup_loading')).toBe(EN.popup_loading!.message);
    expect(t('popup_detailsNotOpened', 'boom')).toBe('The details could not be opened: boom');
  });

  it('without catalogues asks browser.i18n, with the substitutions as strings', () => {
    useCatalogues();
    const getMessage = vi.fn((key: string, subs?: string[]) => (key === 'popup_detailsNotOpened' ? `Nicht geöffnet: ${subs?.[0]}` : ''));
    vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(getMessage as never);
    expect(t('popup_detailsNotOpened', 42)).toBe('Nicht geöffnet: 42');
    expect(getMessage).toHaveBeenCalledWith('popup_detailsNotOpened', ['42']);
    // An unknown key ('' from the browser) shows the key, never an empty label.
    expect(t('popup_newCall')).toBe('popup_newCall');
  });
});
