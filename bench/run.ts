/**
 * `npm run bench`: runs every bench in bench/ one after another (benches are figures, not tests),
 * building the extension first when .output is missing.
 *
 *   npm run bench                       every bench
 *   npm run bench -- finder             one (or a few: `-- popup finder`)
 *   npm run bench -- tracker --speed 1  options go to each bench run; env (ROWS=…) passes as is
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBrowsers } from '../scripts/browsers.mjs';
import { benchNames, selectBenches } from './lib/select';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = join(BENCH_DIR, '..');

const selection = selectBenches(benchNames(readdirSync(BENCH_DIR)), process.argv.slice(2));
if ('error' in selection) {
  console.error(selection.error);
  process.exit(2);
}

// Benches that need no browser and no build (the proxy's runs on Node and miniflare only).
const NO_BROWSER = new Set(['proxy']);
if (selection.benches.some((name) => !NO_BROWSER.has(name))) {
  // The other benches drive Chromium with the production build.
  const missing = ensureBrowsers(['chromium']);
  if (missing) {
    console.error(missing);
    process.exit(1);
  }
  if (!existsSync(join(ROOT, '.output/chrome-mv3/manifest.json'))) {
    console.log('No build in .output: building first (npm run build)…');
    if (spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) process.exit(1);
  }
}

const failed: string[] = [];
for (const name of selection.benches) {
  console.log(`\n=== bench ${name}${selection.args.length ? ` ${selection.args.join(' ')}` : ''}`);
  // `node --import tsx` is what `npx tsx` does, without npx's lookup.
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(BENCH_DIR, `${name}.ts`), ...selection.args], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) failed.push(`${name} (exit ${run.status ?? run.signal})`);
}
if (failed.length > 0) {
  console.error(`\nBenches that stopped with an error: ${failed.join(', ')}`);
  process.exit(1);
}
