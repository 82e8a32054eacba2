#!/usr/bin/env node
// `npm test`: makes sure the browsers are there (installing them where it can), type-checks, builds
// the extension, then runs every suite (unit, web-ext lint, Chromium e2e, Firefox e2e) and ends with one plain line
// `N passed, N failed` summed over all of them. Exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBrowsers } from './browsers.mjs';

const root = new URL('..', import.meta.url).pathname;
const reports = join(root, 'test-results');
mkdirSync(reports, { recursive: true });
const only = process.argv.slice(2); // e.g. `npm test -- unit e2e` (suites: typecheck, unit, lint, e2e, firefox)
const wanted = (name) => only.length === 0 || only.includes(name);

function run(cmd, args, env = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
// Each failure named again next to the closing lines: CI may show only the end of a long log.
const failures = [];
const flaky = []; // failed once, passed on the rerun: named too, so they get fixed
/** An error's first line, without colour codes, at most 300 characters. */
const firstLine = (message) => String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0].slice(0, 300);
function playwrightFailures(report, status) {
  const specs = (suite) => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
  return report.suites.flatMap(specs).flatMap((spec) =>
    spec.tests
      .filter((t) => t.status === status)
      .map((t) => {
        const error = t.results.find((result) => result.error)?.error?.message;
        return `e2e ${status === 'flaky' ? 'flaky ' : ''}✗ ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error)}`;
      }),
  );
}
/** A report's failed tests: `file › full name` and the first line of the failure. */
function unitFailures(report) {
  const short = (path) => path.slice(path.indexOf('tests/'));
  return report.testResults.flatMap((file) =>
    file.assertionResults.length === 0 && file.status === 'failed'
      ? [{ name: short(file.name), message: firstLine(file.message) }]
      : file.assertionResults
          .filter((t) => t.status === 'failed')
          .map((t) => ({ name: `${short(file.name)} › ${t.fullName ?? t.title}`, message: firstLine(t.failureMessages?.[0]) })),
  );
}
const lines = [];
function count(name, passed, failed, skipped = 0, note = '') {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  lines.push(`${name}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${note}`);
}

// Before anything else: a missing browser stops the run at once with one line, not a trace per test.
const needed = [...(wanted('e2e') ? ['chromium'] : []), ...(wanted('firefox') ? ['firefox'] : [])];
const missing = ensureBrowsers(needed);
if (missing) {
  console.log(missing);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

if (wanted('typecheck')) {
  console.log('\n=== typecheck (tsc --noEmit)');
  // tsc prints its errors itself; a failed typecheck counts as one failure.
  const code = run('npx', ['tsc', '--noEmit']);
  if (code === 0) count('typecheck', 1, 0);
  else count('typecheck', 0, 1, 0, ` (tsc exited ${code})`);
}

// The unit suite reads the built manifests (tests/unit/release); lint checks the Firefox builds.
if (wanted('unit') || wanted('lint') || wanted('e2e') || wanted('firefox')) {
  console.log('\n=== build (chrome-mv3, firefox-mv2, firefox-mv3)');
  if (run('npm', ['run', '-s', 'build']) !== 0) count('build', 0, 1);
}

if (wanted('unit')) {
  console.log('\n=== unit (vitest)');
  const vitest = (file, files = []) => {
    rmSync(file, { force: true }); // a stale report must not stand in for this run
    const code = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...files]);
    return { code, report: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null };
  };
  const first = vitest(join(reports, 'vitest.json'));
  if (first.report) {
    const r = first.report;
    // A file that failed to load has no tests; count it as a failure so it cannot hide.
    const broken = r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
    // Unhandled errors fail the run without failing a test: count them too, so they cannot hide.
    const unexplained = first.code !== 0 && r.numFailedTests + broken === 0 ? 1 : 0;
    let failed = r.numFailedTests + broken + unexplained;
    let passed = r.numPassedTests;
    let note = unexplained ? ` (vitest exited ${first.code}: unhandled errors)` : '';
    const named = unitFailures(r);
    const line = (f, kind = 'unit ✗') => `${kind} ${f.name}: ${f.message}`;
    if (r.numFailedTests > 0 && broken + unexplained === 0) {
      // One rerun of the failed tests' files, as for the Firefox suite: said plainly, with the names,
      // so a test that fails only now and then is seen and can be fixed rather than hidden.
      const files = [...new Set(r.testResults.filter((f) => f.status === 'failed').map((f) => f.name))];
      console.log(`\n=== unit (vitest): ${r.numFailedTests} failed; running their files once more`);
      const again = vitest(join(reports, 'vitest-rerun.json'), files);
      const rerunBroke = !again.report || (again.code !== 0 && again.report.numFailedTests === 0);
      const still = new Set(again.report ? unitFailures(again.report).map((f) => f.name) : []);
      const passedAgain = rerunBroke ? [] : named.filter((f) => !still.has(f.name));
      passed += passedAgain.length;
      failed -= passedAgain.length;
      if (passedAgain.length > 0) note = ` (flaky: ${passedAgain.length} failed on the first run and passed when their files ran again; named above)`;
      flaky.push(...passedAgain.map((f) => line(f, 'unit flaky ✗')));
      failures.push(...named.filter((f) => !passedAgain.includes(f)).map((f) => line(f)));
    } else failures.push(...named.map((f) => line(f)));
    count('unit', passed, failed, r.numPendingTests + r.numTodoTests, note);
  } else count('unit', 0, 1, 0, ` (vitest exited ${first.code} without a report)`);
}

if (wanted('lint')) {
  console.log('\n=== lint (web-ext lint, Firefox builds)');
  const file = join(reports, 'lint-firefox.json');
  rmSync(file, { force: true }); // a stale report must not stand in for this run
  const code = run('node', ['scripts/lint-firefox.mjs', file]);
  if (existsSync(file)) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    count('lint', r.passed, r.failed, 0, r.warnings ? ` (${r.warnings} warnings)` : '');
  } else count('lint', 0, 1, 0, ` (lint exited ${code} without a report)`);
}

if (wanted('e2e')) {
  console.log('\n=== e2e (Playwright, Chromium)');
  const file = join(reports, 'playwright.json');
  const code = run('npx', ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_FILE: file });
  if (existsSync(file)) {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const s = report.stats;
    count('e2e-chromium', s.expected + s.flaky, s.unexpected, s.skipped, s.flaky ? ` (${s.flaky} flaky)` : '');
    failures.push(...playwrightFailures(report, 'unexpected'));
    flaky.push(...playwrightFailures(report, 'flaky'));
  } else count('e2e-chromium', 0, 1, 0, ` (playwright exited ${code} without a report)`);
}

if (wanted('firefox')) {
  console.log('\n=== e2e (puppeteer-core, Firefox)');
  const file = join(reports, 'firefox.json');
  const once = () => {
    const code = run('node', ['tests/e2e-firefox/run.mjs', file]);
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { passed: 0, failed: 1, code };
  };
  let r = once();
  let note = r.code === undefined ? '' : ` (firefox suite exited ${r.code} without a report)`;
  if (r.failed > 0) {
    // One rerun, as Playwright's retries would, said plainly (both runs are reported). The known
    // causes of the earlier 1-in-8 failures are fixed (issue 8: the setup form's late stored settings,
    // waits left polling a replaced document); the rerun stays as a net, and "flaky" says it was used.
    const first = r;
    console.log(`\n=== e2e (puppeteer-core, Firefox): ${first.failed} failed; running the suite once more`);
    r = once();
    note = r.failed === 0 ? ` (flaky: ${first.failed} failed on the first run, all passed on the rerun)` : note;
  }
  count('e2e-firefox', r.passed, r.failed, 0, note);
  for (const c of r.checks ?? []) if (!c.ok) failures.push(`firefox ✗ ${c.name}: ${firstLine(c.error)}`);
}

if (failures.length + flaky.length > 0) console.log('\n' + [...failures, ...flaky].join('\n'));
console.log('\n' + lines.join('\n'));
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed > 0 ? 1 : 0);
