/**
 * `npm run build:widget`: the element's standalone script, then widget.html (the CRM shell), into
 * .output/widget/, and their sizes (gzipped: what a host page downloads).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const config = 'widget/vite.config.ts';
await build({ configFile: config, mode: 'element' });
await build({ configFile: config, mode: 'page' });

const out = '.output/widget';
const files = (dir) => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
for (const file of files(out)) {
  const bytes = readFileSync(file);
  console.log(`${file.padEnd(48)} ${String(bytes.length).padStart(8)} B  ${String(gzipSync(bytes).length).padStart(7)} B gzipped`);
}
