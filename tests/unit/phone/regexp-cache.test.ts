/**
 * libphonenumber-js's per-call RegExps from metadata strings are compiled once in the build
 * (lib/phone/regexp-cache.ts, swapped in by lib/phone/libphonenumber-plugin.ts). The swap must
 * reach the real library files, fail loudly if the library changes, and answer exactly as a fresh
 * RegExp does for every pattern of the metadata it is used with.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheRegExps, REGEXP_CALLS } from '../../../lib/phone/libphonenumber-plugin';
import { cachedRegExp } from '../../../lib/phone/regexp-cache';

const require = createRequire(import.meta.url);
const LIBRARY = dirname(require.resolve('libphonenumber-js/package.json'));
const metadata = JSON.parse(readFileSync(join(LIBRARY, 'metadata.min.json'), 'utf8')) as { countries: Record<string, unknown[]> };

describe('the build swap (cacheRegExps)', () => {
  const files = ['getCountryByNationalNumber.js', 'stripIddPrefix.js', 'extractNationalNumberFromPossiblyIncompleteNumber.js'];

  it('rewrites each listed call in the installed library, and nothing else', () => {
    expect(REGEXP_CALLS).toHaveLength(files.length);
    for (const file of files) {
      const id = join(LIBRARY, 'es6/helpers', file);
      const code = readFileSync(id, 'utf8');
      const out = cacheRegExps(code, id, '/cache.ts')!;
      const call = REGEXP_CALLS.find((c) => c.file.test(id))!;
      expect(out.startsWith('import { cachedRegExp } from "/cache.ts";\n'), file).toBe(true);
      expect(out.includes(call.from), file).toBe(false);
      expect(out.includes(call.to), file).toBe(true);
      // The rest of the module is untouched.
      expect(out.slice(out.indexOf('\n') + 1).split(call.to).join(call.from)).toBe(code);
    }
    expect(cacheRegExps('x', join(LIBRARY, 'es6/helpers/matchesEntirely.js'))).toBeNull();
    expect(cacheRegExps('nationalNumber.search(metadata.leadingDigits())', '/work/lib/helpers/getCountryByNationalNumber.js')).toBeNull();
  });

  it('fails the build when the library no longer has the call', () => {
    const id = join(LIBRARY, 'es6/helpers/stripIddPrefix.js');
    expect(() => cacheRegExps('var IDDPrefixPattern = new RegExp(metadata.IDDPrefix(), "u");', id)).toThrow(/libphonenumber-js changed/);
  });
});

describe('cachedRegExp', () => {
  it('is one RegExp per source, answering as a fresh one for every leading-digits, IDD and national-prefix pattern', () => {
    expect(cachedRegExp('^(?:1)')).toBe(cachedRegExp('^(?:1)'));
    const patterns = new Set<string>();
    for (const plan of Object.values(metadata.countries)) {
      // Metadata v4 plan: [calling code, IDD prefix, …, national prefix for parsing (7), …, leading digits (10)].
      for (const value of [plan[1], plan[10]]) if (typeof value === 'string' && value) patterns.add(value);
      if (typeof plan[7] === 'string' && plan[7]) patterns.add('^(?:' + plan[7] + ')');
    }
    expect(patterns.size).toBeGreaterThan(100);
    const numbers = ['4155550132', '2685550100', '0011441234567', '00441234567', '011441234567', '02079460958', '8005550199', '9876543210', ''];
    for (const pattern of patterns) {
      for (const n of numbers) {
        const fresh = new RegExp(pattern);
        const cached = cachedRegExp(pattern);
        // Twice: a shared RegExp must keep no state between uses.
        for (let i = 0; i < 2; i++) {
          expect(n.search(cached)).toBe(n.search(fresh));
          expect(cached.exec(n)?.[0]).toBe(fresh.exec(n)?.[0]);
          expect(n.replace(cached, '#')).toBe(n.replace(fresh, '#'));
        }
      }
    }
  });
});
