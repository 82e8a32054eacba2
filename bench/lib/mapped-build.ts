/**
 * The production build again, with source maps, in a temporary folder: for benches that profile the
 * extension and name each sampled frame by its source file and function (page-cost, flood).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build as wxtBuild } from 'wxt';

const silent = () => undefined;
const QUIET_LOGGER = { level: 0, debug: silent, log: silent, info: silent, warn: silent, error: console.error, fatal: console.error, success: silent, box: silent } as never;

/** Builds into a new temporary folder and returns it (the Chromium build is its `chrome-mv3`); the caller removes it. */
export async function buildWithSourceMaps(root: string): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'mapped-build-'));
  await wxtBuild({ root, outDir, logger: QUIET_LOGGER, vite: () => ({ build: { sourcemap: true } }) });
  return outDir;
}
