/**
 * Least privilege in Chromium with the production build (docs/security.md): nothing is granted at
 * install and click-to-call on pages starts off; turning it on in Options asks for every page (or the
 * listed sites only) and registers the content script there; turning it off or removing a site gives
 * the access back and unregisters.
 *
 * Headless Chromium cannot show the permission prompt, so the profile starts with the origins the
 * user would allow already granted (tests/support/chromium.ts, scripts/chromium-grants.mjs): the
 * switch's permissions.request then answers at once, as after Allow. The prompt itself, and a refusal,
 * are covered by the unit tests (tests/unit/ui/sites-access.test.tsx) and, with a real browser
 * answering, by the Firefox smoke.
 */
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { expect, launchExtension, setUp, test } from './fixtures';

declare const chrome: any;

let sandbox: Sandbox;
test.beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, speed: 60 });
});
test.afterEach(async () => {
  await sandbox.close();
});

const registered = (sw: Worker) =>
  sw.evaluate(async () => ((await chrome.scripting.getRegisteredContentScripts()) as { matches: string[] }[]).flatMap((s) => s.matches).sort());
const holds = (sw: Worker, origin: string) => sw.evaluate((o) => chrome.permissions.contains({ origins: [o] }), origin);
const pageOrigins = (sw: Worker) => sw.evaluate(async () => ((await chrome.permissions.getAll()).origins as string[]).filter((o) => o.startsWith('*://')).sort());

async function options(context: BrowserContext, extensionId: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  return page;
}

/** The popup's "On this page" for a tab: whether it offers calls there. */
async function popupSays(context: BrowserContext, extensionId: string, tabId: number): Promise<Page> {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/popup.html?tab=${tabId}`);
  await popup.getByRole('heading', { name: 'On this page' }).waitFor();
  return popup;
}

async function tabOf(sw: Worker, url: string): Promise<number> {
  return sw.evaluate(async (u) => ((await chrome.tabs.query({})) as { id: number; url: string }[]).find((t) => t.url === u)!.id, url);
}

test('all sites: off and unregistered at install; on asks for every page and registers; off gives every page back and unregisters', async () => {
  const { context, extensionId, close } = await launchExtension({ grantPages: true });
  try {
    const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const manifest = await sw.evaluate(() => chrome.runtime.getManifest());
    expect(manifest.host_permissions ?? []).toEqual([]);
    expect(manifest.optional_host_permissions).toContain('*://*/*');

    const opts = await options(context, extensionId);
    await setUp(opts, sandbox.url);
    const onSwitch = opts.getByRole('switch', { name: 'Click-to-call on pages' });
    await expect(onSwitch).not.toBeChecked();
    expect(await registered(sw)).toEqual([]);

    // A page with a number, opened while off: no script, and the popup says so.
    const page = await context.newPage();
    await page.goto(`${sandbox.url}/__sandbox/requests`);
    const tabId = await tabOf(sw, page.url());
    await expect((await popupSays(context, extensionId, tabId)).getByText('Click-to-call on pages is off: turn it on in the options, under Sites.')).toBeVisible();

    await onSwitch.click();
    await expect(opts.getByText('Click-to-call on pages is on. The browser gave access to every site.')).toBeVisible();
    await expect(onSwitch).toBeChecked();
    await expect.poll(() => registered(sw)).toEqual(['*://*/*']);

    await onSwitch.click();
    await expect(opts.getByText('Click-to-call on pages is off, and the access to pages was given back.')).toBeVisible();
    await expect(onSwitch).not.toBeChecked();
    await expect.poll(() => registered(sw)).toEqual([]);
    expect(await holds(sw, '*://*/*')).toBe(false);
    expect(await pageOrigins(sw)).toEqual([]);
    // Chrome gives back every grant that every page covers, the sandbox's loopback origin too: the
    // switch asks for it again in the same click (a prompt headless Chromium cannot show), and says why.
    expect(await holds(sw, 'http://127.0.0.1/*')).toBe(false);
    await expect(opts.getByText(/gives back access to http:\/\/127\.0\.0\.1:\d+ together with access to pages/)).toBeVisible();
  } finally {
    await close();
  }
});

test('listed sites only: on asks for just those sites and registers there; removing a site gives its access back', async () => {
  const listed = ['*://localhost/*', '*://*.localhost/*', '*://127.0.0.1/*'];
  const { context, extensionId, close } = await launchExtension({ grantOrigins: listed });
  try {
    const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const opts = await options(context, extensionId);
    await setUp(opts, sandbox.url);
    await opts.getByLabel('Only on the sites listed below').check();
    await opts.getByLabel('Listed sites').fill('localhost\n127.0.0.1');
    await opts.getByRole('switch', { name: 'Click-to-call on pages' }).click();
    await expect(opts.getByText('Click-to-call on pages is on. The browser gave access to localhost, 127.0.0.1.')).toBeVisible();
    await expect.poll(() => registered(sw)).toEqual([...listed].sort());
    // Never every page.
    expect(await holds(sw, '*://*/*')).toBe(false);

    await opts.getByLabel('Listed sites').fill('127.0.0.1');
    await opts.getByRole('button', { name: 'Apply site settings' }).click();
    await expect(opts.getByText('Click-to-call on pages is on. The browser gave access to 127.0.0.1.')).toBeVisible();
    await expect.poll(() => registered(sw)).toEqual(['*://127.0.0.1/*']);
    expect(await holds(sw, '*://localhost/*')).toBe(false);
    expect(await holds(sw, '*://127.0.0.1/*')).toBe(true);
    // The service (the sandbox on 127.0.0.1) keeps its access: removing localhost does not cover it.
    expect(await holds(sw, 'http://127.0.0.1/*')).toBe(true);
  } finally {
    await close();
  }
});
