// The browsers the tests, benches and `npm start` drive (Debian's Chromium and Firefox ESR), where each
// is looked for, and what to do when one is missing. `browserPlan` is pure (unit-tested); `ensureBrowsers`
// is its shell: it installs with apt-get when it can, saying so, or stops with one line naming the command.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's real Chromium binary (/usr/bin/chromium is a shell wrapper around it). */
const CHROMIUM_BINARY = '/usr/lib/chromium/chromium';

export const BROWSERS = {
  chromium: { name: 'Chromium', package: 'chromium', env: 'CHROMIUM_PATH', paths: [CHROMIUM_BINARY, '/usr/bin/chromium'] },
  firefox: { name: 'Firefox ESR', package: 'firefox-esr', env: 'FIREFOX_PATH', paths: ['/usr/bin/firefox-esr'] },
};

/** Where a browser is taken from: its env override, else the first default that exists, else the first default. */
export function browserPath(id, env = process.env, exists = existsSync) {
  const browser = BROWSERS[id];
  const override = env[browser.env];
  if (override) return override;
  return browser.paths.find((p) => exists(p)) ?? browser.paths[0];
}

/**
 * What to do before running something that needs the browsers `needed` (ids of BROWSERS):
 * - `{ action: 'ready' }` when every one is there;
 * - `{ action: 'install', packages, message }` when the missing ones are Debian's and this machine can
 *   install them (root with apt-get);
 * - `{ action: 'stop', message }` otherwise: one line that names the command to run.
 * An env override that points nowhere is never "fixed" by installing: the user chose that path.
 */
export function browserPlan({ needed, env = {}, exists, isRoot, hasAptGet }) {
  const missing = needed.filter((id) => !exists(browserPath(id, env, exists)));
  if (missing.length === 0) return { action: 'ready' };
  const overridden = missing.filter((id) => env[BROWSERS[id].env]);
  if (overridden.length > 0) {
    const b = BROWSERS[overridden[0]];
    return {
      action: 'stop',
      message: `${b.name} is missing: nothing at ${b.env}=${env[b.env]}; point it at a ${b.name} binary, or unset it and run \`sudo apt-get install ${b.package}\``,
    };
  }
  const packages = missing.map((id) => BROWSERS[id].package);
  const names = missing.map((id) => BROWSERS[id].name).join(' and ');
  const verb = missing.length > 1 ? 'are' : 'is';
  if (isRoot && hasAptGet) {
    return { action: 'install', packages, message: `${names} ${verb} missing: installing ${packages.join(' ')} from Debian with apt-get (about a minute)…` };
  }
  if (hasAptGet) return { action: 'stop', message: `${names} ${verb} missing: run \`sudo apt-get install ${packages.join(' ')}\`` };
  const vars = missing.map((id) => BROWSERS[id].env).join(' / ');
  return { action: 'stop', message: `${names} ${verb} missing: run \`sudo apt-get install ${packages.join(' ')}\` on Debian, or set ${vars} to a binary` };
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Makes sure the `needed` browsers are there. Returns null when they are (installed now or before),
 * or the one line to print before stopping.
 */
export function ensureBrowsers(needed, env = process.env) {
  const plan = browserPlan({ needed, env, exists: existsSync, isRoot: process.getuid?.() === 0, hasAptGet: onPath('apt-get') });
  if (plan.action === 'ready') return null;
  if (plan.action === 'stop') return plan.message;
  console.log(plan.message);
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const quiet = { stdio: ['ignore', 'ignore', 'inherit'], env: aptEnv };
  const ok =
    spawnSync('apt-get', ['update', '-qq'], quiet).status === 0 &&
    spawnSync('apt-get', ['install', '-y', '-qq', ...plan.packages], quiet).status === 0;
  const after = browserPlan({ needed, env, exists: existsSync, isRoot: false, hasAptGet: true });
  if (ok && after.action === 'ready') return null;
  return `Installing ${plan.packages.join(' ')} failed: run \`apt-get update && apt-get install ${plan.packages.join(' ')}\` and read its errors`;
}
