/**
 * The content script must stay under 50 KB gzipped in total. It carries no phone library: the first
 * stage only looks for digit runs, and the finder it loads sends texts to the background, which
 * parses (lib/phone/find-rows.ts). These fail if the library (or the "max" metadata, ./normalize.ts)
 * comes back into either's import graph.
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

// Names every part of libphonenumber-js uses, and a country's metadata; the control (lib/phone/scan.ts) has them.
const LIBRARY = /nationalNumber|countryCallingCode|"GB":\["44"/;

describe('bundle size', () => {
  // 25 KB (half the content script's 50 KB budget) until the same session added the words of fifteen
  // languages, other scripts' digits (issue 20) and paced, sliced page/find requests (issue 18): 25.4 KB.
  it('the finder the background injects (lib/page/click-to-call.ts) carries no phone library and stays under 27 KB gzipped', async () => {
    const code = await bundleCode('lib/page/click-to-call.ts');
    expect(code).not.toMatch(LIBRARY);
    expect(await bundleCode('lib/phone/scan.ts')).toMatch(LIBRARY);
    expect(gzipSync(code, { level: 9 }).length).toBeLessThan(27_000);
  });

  it('the first stage every page loads (lib/page/content.ts) carries no phone library and stays under 5 KB gzipped', async () => {
    const code = await bundleCode('lib/page/content.ts');
    expect(code).not.toMatch(LIBRARY);
    expect(gzipSync(code, { level: 9 }).length).toBeLessThan(5_000);
  });

  // 47 KB until it read long texts in slices and paced its page/find requests as the page's does (about
  // 2 KB), and issue 20 added the phone, column and identifier words of fifteen languages (about 3 KB);
  // 52 KB until the answers a frame had were kept for texts met again (scan-away.ts, 0.2 KB).
  it('the scanner with the phone library (lib/phone/scan.ts: tests, benches) stays under 53 KB gzipped', async () => {
    const size = await gzippedBundle('lib/phone/scan.ts');
    expect(size).toBeGreaterThan(30_000); // sanity: libphonenumber-js is in there
    expect(size).toBeLessThan(53_000);
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
