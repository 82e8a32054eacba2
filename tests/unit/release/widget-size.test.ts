/**
 * The element's script as built (npm run build; `npm test` builds before the unit suite): what a host
 * page downloads. It carries no schema library (zod would be two thirds of it: lib/widget/check.ts
 * says why) and no key, and stays under 25 KB gzipped (18.8 KB when this guard was set).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const FILE = join(__dirname, '../../../.output/widget/voice-agent-call.js');

describe('the widget element as built', () => {
  it.skipIf(!existsSync(FILE))('carries no zod and is under 25 KB gzipped', () => {
    const code = readFileSync(FILE, 'utf8');
    // zod's own error texts: present whenever any of its schemas is bundled.
    expect(code).not.toMatch(/Invalid input: expected|ZodError/);
    expect(code).not.toMatch(/va_test_|api[_-]?key=/i);
    expect(gzipSync(code).length).toBeLessThan(25_000);
  });
});
