/**
 * The content script as built (npm run build; `npm test` builds before the unit suite): its two files —
 * the first stage every page of a switched-on site loads, and the finder the background injects where a
 * number may be — carry no phone library (the background parses) and stay within 50 KB gzipped
 * together, at gzip's default level and at -9.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const OUTPUT = join(__dirname, '../../../.output');
// Names every part of libphonenumber-js uses, and a country's metadata.
const LIBRARY = /nationalNumber|countryCallingCode|"GB":\["44"/;

describe.each(['chrome-mv3', 'firefox-mv2', 'firefox-mv3'])('the content script built for %s', (target) => {
  const file = (path: string) => join(OUTPUT, target, path);
  it.skipIf(!existsSync(file('finder.js')))('carries no phone library and is under 50 KB gzipped with both its files', () => {
    const stages = [readFileSync(file('content-scripts/content.js'), 'utf8'), readFileSync(file('finder.js'), 'utf8')];
    for (const code of stages) expect(code).not.toMatch(LIBRARY);
    expect(readFileSync(file('background.js'), 'utf8')).toMatch(LIBRARY); // the control: the background parses
    for (const level of [6, 9]) {
      const total = stages.reduce((n, code) => n + gzipSync(code, { level }).length, 0);
      expect(total).toBeLessThan(50_000);
    }
  });
});
