/**
 * The fixture pages (tests/fixtures/pages) as the e2e servers hand them out, for the Chromium specs
 * (tests/e2e/page-fixtures.ts) and the Firefox smoke (tests/e2e-firefox/frames.ts) alike.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PAGES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/pages');

/** The page `name` ("crm-list.html"), or undefined for a name that is not one (no paths, no other files). */
export function fixturePage(name: string): string | undefined {
  if (!/^[\w-]+\.html$/.test(name)) return undefined;
  try {
    return readFileSync(join(PAGES_DIR, name), 'utf8');
  } catch {
    return undefined;
  }
}
