/**
 * Real Chromium with the production build (.output/chrome-mv3) loaded the way users load it, for
 * e2e tests and benches. Extensions need a persistent context and the full Chromium binary (not the
 * headless shell); the network flags keep Chromium from calling home on a closed network.
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserPath } from '../../scripts/browsers.mjs';

export const EXTENSION_DIR = join(process.cwd(), '.output/chrome-mv3');
export const CHROMIUM = browserPath('chromium');

export interface LoadedExtension {
  context: BrowserContext;
  extensionId: string;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

export async function launchExtension(): Promise<LoadedExtension> {
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) throw new Error('Build first: npm run build');
  const profile = mkdtempSync(join(tmpdir(), 'c2c-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  return {
    context,
    extensionId: new URL(worker.url()).host,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves the base URL and key through the options page, as a person would, and closes it. */
export async function setUpThroughOptions(context: BrowserContext, extensionId: string, baseUrl: string, key: string): Promise<void> {
  const page: Page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  await page.getByLabel('API base URL').fill(baseUrl);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText(/••••/).waitFor();
  await page.close();
}
