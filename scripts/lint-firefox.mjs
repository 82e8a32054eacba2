#!/usr/bin/env node
// `web-ext lint` (addons-linter, what AMO runs on upload) over each Firefox build:
//   node scripts/lint-firefox.mjs [reportFile]      (default test-results/lint-firefox.json; build first)
// One check per build: it passes with no errors. Warnings and notices are printed, not failures
// (Preact's own innerHTML setter and zod's guarded `new Function` probe are two we cannot remove).
// Writes {passed, failed, warnings, checks}; prints `lint: N passed, N failed`; exits non-zero on a failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const report = resolve(process.argv[2] ?? join(root, 'test-results/lint-firefox.json'));
const BUILDS = ['firefox-mv2', 'firefox-mv3'];
const webExt = join(root, 'node_modules/.bin/web-ext');

const checks = [];
let warnings = 0;
for (const build of BUILDS) {
  const dir = join(root, '.output', build);
  if (!existsSync(join(dir, 'manifest.json'))) {
    checks.push({ name: build, ok: false, error: `no build in ${dir}: run npm run build first` });
    continue;
  }
  const run = spawnSync(webExt, ['lint', '--source-dir', dir, '--output', 'json', '--no-config-discovery'], { cwd: root, encoding: 'utf8' });
  let result;
  try {
    result = JSON.parse(run.stdout.slice(run.stdout.indexOf('{')));
  } catch {
    checks.push({ name: build, ok: false, error: `web-ext lint gave no report (exit ${run.status}): ${run.stderr.trim().slice(0, 500)}` });
    continue;
  }
  const line = (m) => `${m.code}${m.file ? ` ${m.file}${m.line ? `:${m.line}` : ''}` : ''}: ${m.message}`;
  warnings += result.warnings.length;
  checks.push({
    name: build,
    ok: result.errors.length === 0,
    errors: result.errors.map(line),
    warnings: result.warnings.map(line),
    notices: result.notices.map(line),
  });
}

for (const c of checks) {
  console.log(`  ${c.ok ? '✓' : '✗'} web-ext lint ${c.name}${c.error ? `\n      ${c.error}` : ''}`);
  for (const e of c.errors ?? []) console.log(`      error: ${e}`);
  for (const w of c.warnings ?? []) console.log(`      warning: ${w}`);
  for (const n of c.notices ?? []) console.log(`      notice: ${n}`);
}
const passed = checks.filter((c) => c.ok).length;
const failed = checks.length - passed;
mkdirSync(dirname(report), { recursive: true });
writeFileSync(report, JSON.stringify({ passed, failed, warnings, checks }, null, 2));
console.log(`lint: ${passed} passed, ${failed} failed (${warnings} warnings)`);
process.exit(failed > 0 ? 1 : 0);
