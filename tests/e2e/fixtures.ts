/**
 * Playwright fixtures: the real sandbox over HTTP on a random port, and real Chromium with the
 * production build (.output/chrome-mv3) loaded the way users load it. See ../../shared notes:
 * extensions need a persistent context and the full Chromium binary.
 */
import { test as base, expect, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { launchExtension, type LaunchOptions } from '../support/chromium';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { OWNER_KEY } from '../../sandbox/keys';

export { EXTENSION_DIR, launchExtension, stopServiceWorker } from '../support/chromium';

export interface Fixtures {
  sandboxOptions: SandboxOptions;
  /** The profile starts with every page allowed (as after Allow when click-to-call was turned on). */
  grantPages: boolean;
  /** How Chromium is launched, e.g. `{ lang: 'de' }` for the German UI. */
  extensionLaunch: LaunchOptions;
  sandbox: Sandbox;
  context: BrowserContext;
  extensionId: string;
  /** Opens an extension page (e.g. 'popup.html') in a tab. */
  openPage: (path: string) => Promise<Page>;
  serviceWorker: () => Promise<Worker>;
}

export const test = base.extend<Fixtures>({
  sandboxOptions: [{ speed: 60 }, { option: true }],
  grantPages: [false, { option: true }],
  sandbox: async ({ sandboxOptions }, use) => {
    const sandbox = await startSandbox({ port: 0, ...sandboxOptions });
    await use(sandbox);
    await sandbox.close();
  },
  extensionLaunch: [{}, { option: true }],
  context: async ({ grantPages, extensionLaunch }, use) => {
    const extension = await launchExtension({ grantPages, ...extensionLaunch });
    await use(extension.context);
    await extension.close();
  },
  extensionId: async ({ context }, use) => {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    await use(new URL(worker.url()).host);
  },
  openPage: async ({ context, extensionId }, use) => {
    await use(async (path) => {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/${path}`);
      return page;
    });
  },
  serviceWorker: async ({ context }, use) => {
    await use(async () => context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker')));
  },
});

/** Sets the extension up for the sandbox through the options page, as a person would. */
export async function setUp(page: Page, baseUrl: string, key = OWNER_KEY): Promise<void> {
  await page.getByLabel('API base URL').fill(baseUrl);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/••••/)).toBeVisible();
}

/**
 * Turns click-to-call on pages on in Options → Sites, as a person would: the switch asks the browser
 * for every page (already allowed in this profile: `grantPages`, so no prompt), and it says so.
 */
export async function turnOnClickToCall(options: Page): Promise<void> {
  await options.getByRole('switch', { name: 'Click-to-call on pages' }).click();
  await expect(options.getByText('Click-to-call on pages is on. The browser gave access to every site.')).toBeVisible();
}

/** Opens the options page, sets the extension up for the sandbox, and closes it. */
export async function setUpExtension(openPage: (path: string) => Promise<Page>, baseUrl: string): Promise<void> {
  const options = await openPage('options.html');
  await setUp(options, baseUrl);
  await options.close();
}

/** Dials `number` from the popup with the first agent listed, confirmed, and waits for `status` (a call-status text). */
export async function callFromPopup(popup: Page, number: string, status: RegExp): Promise<void> {
  await popup.getByLabel('Agent').selectOption({ index: 1 });
  await popup.getByLabel('Phone number').fill(number);
  await popup.getByRole('button', { name: 'Call' }).click();
  await popup.getByRole('button', { name: 'Confirm' }).click();
  await expect(popup.locator('.call-status')).toHaveText(status, { timeout: 60_000 });
}

/** Requests the sandbox answered since its last reset (for counting polls, and whose key each carried). */
export async function sandboxRequests(
  sandbox: Sandbox,
): Promise<{ method: string; path: string; status: number; at: number; /** Account letter of the valid key sent, if any. */ account?: string }[]> {
  const res = await fetch(`${sandbox.url}/__sandbox/requests`);
  const body = await res.json();
  return Array.isArray(body) ? body : body.requests;
}

export { expect };
