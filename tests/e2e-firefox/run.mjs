#!/usr/bin/env node
// Runs the Firefox smoke test (smoke.ts, TypeScript through tsx) and guarantees a report:
//   node tests/e2e-firefox/run.mjs [reportFile]        (default test-results/firefox.json)
// The report is {passed, failed, ...}; if smoke.ts dies without writing one (it could not load, it
// hung past the limit), this writes {passed: 0, failed: 1} with the reason. Exit code: smoke.ts's,
// or 1. Build first (npm run build): it tests .output/firefox-mv2 and .output/firefox-mv3.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const report = resolve(process.argv[2] ?? join(root, 'test-results/firefox.json'));
const HARD_LIMIT_MS = 190_000; // smoke.ts stops itself at 150 s; this is the backstop.

mkdirSync(dirname(report), { recursive: true });
rmSync(report, { force: true }); // a stale report must not stand in for this run

// `node --import tsx` is what `npx tsx` does, without npx's lookup; tsx is a devDependency.
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'tests/e2e-firefox/smoke.ts'), report], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
});

let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  child.kill('SIGTERM'); // puppeteer closes its browser on SIGTERM
  setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
}, HARD_LIMIT_MS);

const forward = (signal) => () => child.kill(signal);
process.on('SIGINT', forward('SIGINT'));
process.on('SIGTERM', forward('SIGTERM'));

child.on('error', (e) => finish(1, `could not start smoke.ts: ${e.message}`));
child.on('exit', (code, signal) => {
  const reason = timedOut
    ? `smoke.ts was stopped after ${HARD_LIMIT_MS / 1000}s`
    : `smoke.ts exited with ${signal ?? code} without writing ${report}`;
  finish(code ?? 1, existsSync(report) ? null : reason);
});

function finish(code, missing) {
  clearTimeout(timer);
  if (missing) {
    writeFileSync(report, JSON.stringify({ passed: 0, failed: 1, checks: [{ name: 'run', ok: false, error: missing }] }, null, 2));
    console.log(`  ✗ Firefox e2e did not report: ${missing}\nFirefox e2e: 0 passed, 1 failed`);
    process.exit(code === 0 ? 1 : code);
  }
  process.exit(code);
}
