/**
 * proxy/worker.ts bundled into one ES module, as Cloudflare's own bundler (wrangler) would upload it:
 * esbuild (installed with tsx), the workerd/worker/browser export conditions, no Node built-ins.
 */
import { build } from 'esbuild';
import { join } from 'node:path';

export async function bundleWorker(root: string): Promise<string> {
  const result = await build({
    entryPoints: [join(root, 'proxy/worker.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
