#!/usr/bin/env node
// `npm start`: builds the extension, starts the sandbox on 127.0.0.1:8787, and opens Chromium with
// the extension loaded and already set up for the sandbox (owner key saved). With no display it
// says how to load the build by hand and keeps the sandbox running. Ctrl+C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGrantedOrigins } from './chromium-grants.mjs';
import { browserPath, ensureBrowsers } from './browsers.mjs';

const root = new URL('..', import.meta.url).pathname;
const port = process.env.SANDBOX_PORT ?? '8787';
const speed = process.env.SANDBOX_SPEED ?? '10';
const baseUrl = `http://127.0.0.1:${port}`;
const extDir = join(root, '.output/chrome-mv3');
const display = !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);

// With a display Chromium is opened: make sure it is there first (installed where it can be), or stop at once.
const missing = display ? ensureBrowsers(['chromium']) : null;
if (missing) {
  console.log(missing);
  process.exit(1);
}

console.log('Building the extension (Chrome MV3 and Firefox)…');
if (spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);

console.log(`Starting the sandbox on ${baseUrl} (speed ${speed})…`);
const sandbox = spawn('npx', ['tsx', 'sandbox/main.ts', '--port', port, '--host', '127.0.0.1', '--speed', speed], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
});
let browserContext = null;
const stop = async () => {
  if (browserContext) await browserContext.close().catch(() => {});
  sandbox.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
sandbox.on('exit', (code) => {
  console.error(`The sandbox stopped (exit ${code}).`);
  process.exit(code ?? 1);
});

async function waitForSandbox() {
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`${baseUrl}/v2/agent/all`, { headers: { Authorization: 'Bearer va_test_owner' } });
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The sandbox did not answer at ${baseUrl}.`);
}

const manual = () => {
  console.log(`
No display here, so no browser window was opened. To try the extension by hand:
  1. Open chrome://extensions in Chromium or Chrome, turn on Developer mode.
  2. "Load unpacked" and choose ${extDir}
     (Firefox: about:debugging → This Firefox → Load Temporary Add-on → .output/firefox-mv2/manifest.json)
  3. In the extension's options: "Local sandbox", API key va_test_owner, Save.
The sandbox keeps running at ${baseUrl}; press Ctrl+C to stop it.`);
};

await waitForSandbox();
const chromium = browserPath('chromium');
if (!display) {
  manual();
} else {
  const { chromium: pw } = await import('playwright-core');
  // The manifest grants no origin at install. In this fresh dev profile only, the loopback ones it
  // declares are allowed before launch (scripts/chromium-grants.mjs), so Save below needs no prompt click.
  const profile = mkdtempSync(join(tmpdir(), 'c2c-profile-'));
  const manifest = JSON.parse(readFileSync(join(extDir, 'manifest.json'), 'utf8'));
  writeGrantedOrigins(profile, extDir, (manifest.optional_host_permissions ?? []).filter((origin) => origin.startsWith('http://')));
  browserContext = await pw.launchPersistentContext(profile, {
    executablePath: chromium,
    headless: false,
    viewport: null,
    args: [`--disable-extensions-except=${extDir}`, `--load-extension=${extDir}`, '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-sandbox'],
  });
  const worker = browserContext.serviceWorkers()[0] ?? (await browserContext.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  const page = await browserContext.newPage();
  await page.goto(`chrome-extension://${extensionId}/options.html`);
  // Set up through the options page, as a person would: sandbox URL, owner key, Save.
  await page.getByRole('button', { name: 'Local sandbox' }).click();
  await page.getByLabel('API key').fill('va_test_owner');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.goto(`chrome-extension://${extensionId}/popup.html`);
  console.log(`Chromium is open with the extension set up for the sandbox (key va_test_owner). Close the window or press Ctrl+C to stop.`);
  browserContext.on('close', () => stop());
}
