import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import matchesEntirely from '../../../lib/phone/matches-entirely';
import { isLibphonenumberMatchesEntirely, MATCHES_ENTIRELY_REPLACEMENT } from '../../../lib/phone/libphonenumber-plugin';
import config from '../../../wxt.config';

// From disk, untrimmed: vitest.config.ts applies the build plugin, which drops the formats from an import.
const metadata = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('libphonenumber-js/metadata.min.json'), 'utf8')) as unknown;

/** What libphonenumber-js's own helper answers: a fresh anchored RegExp per call. */
const reference = (text: string | undefined, pattern: string) => new RegExp('^(?:' + pattern + ')$').test(text || '');

describe('matchesEntirely (the RegExp memo)', () => {
  it('answers as the original on every pattern of the metadata, asked twice', () => {
    const patterns = new Set<string>();
    const collect = (value: unknown): void => {
      if (typeof value === 'string' && /\\d|\[/.test(value)) patterns.add(value);
      else if (Array.isArray(value)) value.forEach(collect);
    };
    collect(Object.values((metadata as unknown as { countries: Record<string, unknown[]> }).countries));
    expect(patterns.size).toBeGreaterThan(500);
    let checked = 0;
    for (const pattern of patterns) {
      for (const text of ['4155550132', '2079460958', '123', '', '030123456', '8005550199']) {
        const want = reference(text, pattern);
        expect(matchesEntirely(text, pattern)).toBe(want);
        expect(matchesEntirely(text, pattern)).toBe(want); // the cached RegExp keeps no state
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('anchors the whole alternation and treats a missing text as empty', () => {
    expect(matchesEntirely('ab', 'a|b')).toBe(false);
    expect(matchesEntirely('b', 'a|b')).toBe(true);
    expect(matchesEntirely(undefined, '\\d*')).toBe(true);
    expect(matchesEntirely(undefined, '\\d+')).toBe(false);
  });
});

describe('libphonenumberRegExpMemo (the Vite plugin)', () => {
  it("redirects only libphonenumber-js's own import of the helper", () => {
    const importer = '/x/node_modules/libphonenumber-js/es6/helpers/getNumberType.js';
    expect(isLibphonenumberMatchesEntirely('./matchesEntirely.js', importer)).toBe(true);
    expect(isLibphonenumberMatchesEntirely('./helpers/matchesEntirely.js', '/x/node_modules/libphonenumber-js/es6/parse.js')).toBe(true);
    expect(isLibphonenumberMatchesEntirely('./matchesEntirely.js', '/x/lib/other.ts')).toBe(false);
    expect(isLibphonenumberMatchesEntirely('./extractExtension.js', importer)).toBe(false);
    expect(MATCHES_ENTIRELY_REPLACEMENT).toMatch(/lib[\\/]phone[\\/]matches-entirely\.ts$/);
  });

  it('is part of the extension build (wxt.config.ts)', async () => {
    const vite = (config as { vite?: (env: unknown) => { plugins?: unknown[] } | Promise<{ plugins?: unknown[] }> }).vite;
    const options = await vite?.({ browser: 'chrome', manifestVersion: 3, mode: 'production', command: 'build' });
    const names = (options?.plugins ?? []).flat().map((p) => (p as { name?: string })?.name);
    expect(names).toContain('libphonenumber-regexp-memo');
  });
});
