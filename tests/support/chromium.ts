/**
 * Real Chromium with the production build (.output/chrome-mv3) loaded the way users load it, for
 * e2e tests and benches. Extensions need a persistent context and the full Chromium binary (not the
 * headless shell); the network flags keep Chromium from calling home on a closed network.
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_PAGES, LOOPBACK_ORIGINS } from '../../wxt.config';
import { browserPath } from '../../scripts/browsers.mjs';
import { unpackedExtensionId, writeGrantedOrigins } from '../../scripts/chromium-grants.mjs';

export const EXTENSION_DIR = join(process.cwd(), '.output/chrome-mv3');
export const CHROMIUM = browserPath('chromium');

export interface LoadedExtension {
  context: BrowserContext;
  extensionId: string;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

export interface Grants {
  /** The loopback origins (the sandbox, every port), as if the user allowed them when saving it. Default true. */
  grantLoopback?: boolean;
  /** Every page, as if the user allowed it when turning click-to-call on (it stays off until turned on). */
  grantPages?: boolean;
  /** Other optional origins allowed in the profile (listed sites' patterns). */
  grantOrigins?: readonly string[];
}

export interface LaunchOptions extends Grants {
  /** The browser's UI language (what the extension's t() answers in) and navigator.language, e.g. 'de'. */
  lang?: string;
}

/**
 * A fresh profile with the build loaded. `grantLoopback: false` leaves it as a fresh install: no
 * origin granted. Grants are written before launch (scripts/chromium-grants.mjs says why).
 */
export async function launchExtension({ grantLoopback = true, grantPages = false, grantOrigins = [], lang }: LaunchOptions = {}): Promise<LoadedExtension> {
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) throw new Error('Build first: npm run build');
  const profile = mkdtempSync(join(tmpdir(), 'c2c-chromium-'));
  writeGrantedOrigins(profile, EXTENSION_DIR, [...(grantLoopback ? LOOPBACK_ORIGINS : []), ...(grantPages ? [ALL_PAGES] : []), ...grantOrigins]);
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
      ...(lang ? [`--lang=${lang}`] : []),
    ],
    // On Linux Chromium takes its UI language from the environment; --lang alone does not set it.
    ...(lang ? { locale: lang, env: { ...process.env, LANGUAGE: lang, LANG: `${lang.replace('-', '_')}.UTF-8`, LC_ALL: '' } } : {}),
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  if (extensionId !== unpackedExtensionId(EXTENSION_DIR)) {
    await context.close();
    throw new Error(`Chromium gave the extension the id ${extensionId}, not the one its grants were written for`);
  }
  return {
    context,
    extensionId,
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

/**
 * Stops every service worker, as Chromium does to an idle one, and waits until Chromium reports it
 * stopped (the stop is asynchronous); the next event (a message, the tracker's alarm) starts it again.
 */
export async function stopServiceWorker(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const stopped = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the service worker did not stop within 20 s')), 20_000);
    cdp.on('ServiceWorker.workerVersionUpdated', (event: { versions: { runningStatus: string }[] }) => {
      if (event.versions.length && event.versions.every((v) => v.runningStatus === 'stopped')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  try {
    await stopped;
  } finally {
    await cdp.send('ServiceWorker.disable').catch(() => undefined);
    await cdp.detach().catch(() => undefined);
  }
}
