/**
 * The content script must stay under 50 KB gzipped in total. The finder + scanner (libphonenumber-js
 * "min" metadata) is most of it; this guards the budget left for the overlay and messaging, and
 * fails if someone pulls the "max" metadata (./normalize.ts) into the scanner's import graph.
 */
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { libphonenumberRegExpMemo } from '../../../lib/phone/libphonenumber-plugin';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

async function bundleCode(entry: string, minify = true): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root: ROOT,
    plugins: [libphonenumberRegExpMemo()], // as wxt.config.ts builds the extension
    build: {
      write: false,
      minify,
      // iife: Vite keeps whitespace in ES library builds; a content script is a classic script anyway.
      lib: { entry: join(ROOT, entry), formats: ['iife'], name: 'phone', fileName: 'phone' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs
    .flatMap((o) => o.output)
    .map((chunk) => (chunk.type === 'chunk' ? chunk.code : ''))
    .join('\n');
}

async function gzippedBundle(entry: string): Promise<number> {
  return gzipSync(await bundleCode(entry), { level: 9 }).length;
}

describe('bundle size', () => {
  it('lib/phone/scan.ts (finder + scanner, all exports) stays under 46 KB gzipped', async () => {
    const size = await gzippedBundle('lib/phone/scan.ts');
    expect(size).toBeGreaterThan(30_000); // sanity: libphonenumber-js is in there
    expect(size).toBeLessThan(46_000);
  });

  it('the first stage every page loads (lib/page/content.ts) carries no phone library and stays under 5 KB gzipped', async () => {
    const code = await bundleCode('lib/page/content.ts');
    // Names every part of libphonenumber-js uses, and a country's metadata; the control below has them.
    const library = /nationalNumber|countryCallingCode|"GB":\["44"/;
    expect(code).not.toMatch(library);
    expect(await bundleCode('lib/page/click-to-call.ts')).toMatch(library);
    expect(gzipSync(code, { level: 9 }).length).toBeLessThan(5_000);
  });

  it("the scanner bundle takes libphonenumber-js's matchesEntirely from the RegExp memo, its ParseError from lib/phone", async () => {
    const code = await bundleCode('lib/phone/scan.ts', false);
    expect(code).toContain('lib/phone/matches-entirely.ts');
    expect(code).not.toContain('libphonenumber-js/es6/helpers/matchesEntirely.js');
    // And its ParseError from the plain subclass (lib/phone/parse-error.ts).
    expect(code).toContain('lib/phone/parse-error.ts');
    expect(code).not.toContain('libphonenumber-js/es6/ParseError.js');
  });
});
