/**
 * proxy/worker.ts bundled into one ES module, as Cloudflare's own bundler (wrangler) would upload it:
 * esbuild (installed with tsx), the workerd/worker/browser export conditions, no Node built-ins;
 * `cloudflare:workers` (the Durable Object base class) is the runtime's own module, left to it.
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
    external: ['cloudflare:workers'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
