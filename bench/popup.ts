/**
 * Bench: the popup's weight and how fast it shows a cached agent list. Real Chromium, production
 * build. Prints the gzipped size of every script the popup loads, and the time from navigation
 * start to the agent list rendered from cache (median of several opens), next to the time to the
 * first paint of a bare extension page measured the same way (the browser's own floor).
 *
 *   npx tsx bench/popup.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startSandbox } from '../sandbox/server';
import { EXTENSION_DIR as EXT, launchExtension, setUpThroughOptions } from '../tests/support/chromium';
import { OWNER_KEY } from '../sandbox/keys';
import { readDataRecordScript } from '../tests/support/data-store';

/** Runs inside extension pages, where Chromium's `chrome` API exists. */
declare const chrome: any;

const RUNS = 9;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** Every script the popup can load: popup.html's scripts and preloads, then their static and dynamic imports. */
function popupScripts(): string[] {
  const html = readFileSync(join(EXT, 'popup.html'), 'utf8');
  const queue = [...html.matchAll(/(?:src|href)="(\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  while (queue.length) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const code = readFileSync(join(EXT, path), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*\(?\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g)) {
      queue.push(new URL(m[1]!, `file://${path}`).pathname);
    }
  }
  return [...seen];
}

async function main() {
  const sandbox = await startSandbox({ port: 0 });
  const { context, extensionId: id, close } = await launchExtension();
  try {
    await setUpThroughOptions(context, id, sandbox.url, OWNER_KEY);
    const setup = await context.newPage();
    await setup.goto(`chrome-extension://${id}/options.html`);
    // The agent cache is filled in the background after Save.
    await setup.waitForFunction(`${readDataRecordScript('agents.cache')}.then((cache) => (cache?.agents ?? []).length > 0)`);

    // Record when the agent list first has an agent, from inside the page.
    await context.addInitScript(`(() => {
      const check = () => {
        if (document.querySelector('select#agent option:nth-child(2)') && !window.__agentsAt) window.__agentsAt = performance.now();
      };
      new MutationObserver(check).observe(document, { subtree: true, childList: true });
    })()`);

    const popupTimes: number[] = [];
    const appTimes: number[] = [];
    const floorTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${id}/popup.html`);
      await page.waitForFunction(() => (window as { __agentsAt?: number }).__agentsAt !== undefined);
      const t = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const at = (window as unknown as { __agentsAt: number }).__agentsAt;
        return { fromStart: at, fromParsed: at - nav.domInteractive };
      });
      popupTimes.push(t.fromStart);
      appTimes.push(t.fromParsed);
      await page.close();
      // The floor: a bare extension page (the manifest's icon) painted, no scripts of ours.
      const bare = await context.newPage();
      await bare.goto(`chrome-extension://${id}/icon/16.png`);
      floorTimes.push(await bare.evaluate(() => performance.getEntriesByType('navigation')[0]!.duration));
      await bare.close();
    }
    const unique = popupScripts();
    let total = 0;
    console.log('\nPopup bench — production build, Chromium');
    console.log('scripts the popup loads (gzipped):');
    for (const path of unique) {
      const size = gzipSync(readFileSync(join(EXT, path)), { level: 9 }).length;
      total += size;
      console.log(`  ${(size / 1024).toFixed(1).padStart(6)} KB  ${path}`);
    }
    console.log(`  ${(total / 1024).toFixed(1).padStart(6)} KB  total (budget 35 KB)`);
    console.log(`cached agent list rendered, from navigation start: median ${median(popupTimes).toFixed(0)} ms, max ${Math.max(...popupTimes).toFixed(0)} ms over ${RUNS} opens (aim < 150 ms)`);
    console.log(`  of which after the HTML was parsed (our scripts, storage read, render): median ${median(appTimes).toFixed(0)} ms, max ${Math.max(...appTimes).toFixed(0)} ms`);
    console.log(`bare extension resource (an icon) loaded in a new tab: median ${median(floorTimes).toFixed(0)} ms (the browser's own floor for a new page)`);
  } finally {
    await close();
    await sandbox.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
