/**
 * The Firefox smoke's check runner: each named check runs on its own within a time limit, prints a
 * line, and on failure says why and screenshots the page it worked in; at the end the report file
 * holds every check and the run prints `N passed, N failed`. ./smoke.ts holds the checks themselves.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { CheckFailure, openBrowsers, withTimeout } from './browser';

export const elapsed = (from: number) => `${((Date.now() - from) / 1000).toFixed(1)}s`;

interface CheckResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
  screenshot?: string;
}

export interface CheckRunner {
  /** Runs one named check; on failure prints the reason, screenshots `page()` (if there is one) and calls `afterFailure`. */
  check(name: string, page: () => Page | null, body: () => Promise<void>): Promise<boolean>;
  /** A check that could not run, counted as failed. */
  skip(name: string, reason: string): void;
  /** Kills the browsers left, writes the report and exits (non-zero on any failure); `extra`: why the run itself failed. */
  finish(extra?: string): never;
}

export function checkRunner(options: { resultsDir: string; reportFile: string; limitMs: number; afterFailure(): Promise<void> }): CheckRunner {
  const started = Date.now();
  const results: CheckResult[] = [];
  return {
    async check(name, page, body) {
      const t0 = Date.now();
      try {
        // FIREFOX_SMOKE_FAIL=<part of a check's name>: that check fails at once, to show the others still run.
        const failOnPurpose = process.env.FIREFOX_SMOKE_FAIL;
        if (failOnPurpose && name.includes(failOnPurpose)) throw new CheckFailure('a failure on purpose (FIREFOX_SMOKE_FAIL)');
        await withTimeout(body(), options.limitMs, `the check`);
        results.push({ name, ok: true, ms: Date.now() - t0 });
        console.log(`  ✓ ${name} (${elapsed(t0)})`);
        return true;
      } catch (e) {
        const error = e instanceof CheckFailure ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : String(e);
        const result: CheckResult = { name, ok: false, ms: Date.now() - t0, error };
        const p = page();
        if (p && !p.isClosed()) {
          const file = join(options.resultsDir, `firefox-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase().replace(/^-|-$/g, '')}.png`);
          try {
            // The viewport: a full-page shot makes Firefox measure document.documentElement, and a page
            // without one yet answers "documentElement is null" instead of a picture.
            await withTimeout(p.screenshot({ path: file as `${string}.png` }), 10_000, 'screenshot');
            result.screenshot = file;
          } catch (shotError) {
            result.error += `\n      (no screenshot: ${String(shotError)})`;
          }
        }
        results.push(result);
        console.log(`  ✗ ${name} (${elapsed(t0)})\n      ${result.error}${result.screenshot ? `\n      screenshot: ${result.screenshot}` : ''}`);
        await options.afterFailure();
        return false;
      }
    },

    skip(name, reason) {
      results.push({ name, ok: false, ms: 0, error: `not run: ${reason}` });
      console.log(`  ✗ ${name}\n      not run: ${reason}`);
    },

    finish(extra) {
      for (const browser of openBrowsers) browser.process()?.kill('SIGKILL');
      if (extra) results.push({ name: 'run', ok: false, ms: Date.now() - started, error: extra });
      const passed = results.filter((r) => r.ok).length;
      const failed = results.length - passed;
      mkdirSync(dirname(options.reportFile), { recursive: true });
      writeFileSync(options.reportFile, JSON.stringify({ passed, failed, ms: Date.now() - started, checks: results }, null, 2));
      if (extra) console.log(`  ✗ run\n      ${extra}`);
      console.log(`Firefox e2e: ${passed} passed, ${failed} failed (${elapsed(started)})`);
      process.exit(failed > 0 ? 1 : 0);
    },
  };
}
