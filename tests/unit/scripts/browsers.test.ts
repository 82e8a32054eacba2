import { describe, expect, it } from 'vitest';
import { browserPath, browserPlan } from '../../../scripts/browsers.mjs';

const CHROMIUM = '/usr/lib/chromium/chromium';
const CHROMIUM_WRAPPER = '/usr/bin/chromium';
const FIREFOX = '/usr/bin/firefox-esr';
const machine = (...present: string[]) => (path: string) => present.includes(path);

describe('browserPath', () => {
  it('takes the env override as is, else the first default that exists, else the binary where Debian puts it', () => {
    expect(browserPath('chromium', { CHROMIUM_PATH: '/opt/c' }, machine(CHROMIUM))).toBe('/opt/c');
    expect(browserPath('chromium', {}, machine(CHROMIUM, CHROMIUM_WRAPPER))).toBe(CHROMIUM);
    expect(browserPath('chromium', {}, machine(CHROMIUM_WRAPPER))).toBe(CHROMIUM_WRAPPER);
    expect(browserPath('chromium', {}, machine())).toBe(CHROMIUM);
    expect(browserPath('firefox', { FIREFOX_PATH: '/opt/ff' }, machine(FIREFOX))).toBe('/opt/ff');
    expect(browserPath('firefox', {}, machine())).toBe(FIREFOX);
  });
});

describe('browserPlan', () => {
  const both = ['chromium', 'firefox'] as const;

  it('is ready when every needed browser is there, and ignores the ones not needed', () => {
    expect(browserPlan({ needed: [...both], exists: machine(CHROMIUM, FIREFOX), isRoot: false, hasAptGet: false })).toEqual({ action: 'ready' });
    expect(browserPlan({ needed: ['chromium'], exists: machine(CHROMIUM), isRoot: false, hasAptGet: false })).toEqual({ action: 'ready' });
    expect(browserPlan({ needed: ['firefox'], exists: machine(FIREFOX), isRoot: false, hasAptGet: false })).toEqual({ action: 'ready' });
    expect(browserPlan({ needed: [], exists: machine(), isRoot: false, hasAptGet: false })).toEqual({ action: 'ready' });
    // An override that exists counts, even with nothing at the defaults.
    expect(browserPlan({ needed: ['chromium'], env: { CHROMIUM_PATH: '/opt/c' }, exists: machine('/opt/c'), isRoot: false, hasAptGet: false })).toEqual({ action: 'ready' });
  });

  it('as root with apt-get: installs exactly the missing ones, and says so', () => {
    const none = browserPlan({ needed: [...both], exists: machine(), isRoot: true, hasAptGet: true });
    expect(none).toMatchObject({ action: 'install', packages: ['chromium', 'firefox-esr'] });
    expect(none.action === 'install' && none.message).toMatch(/^Chromium and Firefox ESR are missing: installing chromium firefox-esr/);

    expect(browserPlan({ needed: [...both], exists: machine(CHROMIUM), isRoot: true, hasAptGet: true })).toMatchObject({ action: 'install', packages: ['firefox-esr'] });
    expect(browserPlan({ needed: [...both], exists: machine(FIREFOX), isRoot: true, hasAptGet: true })).toMatchObject({ action: 'install', packages: ['chromium'] });
    expect(browserPlan({ needed: ['chromium'], exists: machine(), isRoot: true, hasAptGet: true })).toMatchObject({ action: 'install', packages: ['chromium'] });
  });

  it('without root, or without apt-get: stops with one line that names the command', () => {
    const user = browserPlan({ needed: [...both], exists: machine(), isRoot: false, hasAptGet: true });
    expect(user).toEqual({ action: 'stop', message: 'Chromium and Firefox ESR are missing: run `sudo apt-get install chromium firefox-esr`' });
    expect(browserPlan({ needed: [...both], exists: machine(FIREFOX), isRoot: false, hasAptGet: true })).toEqual({
      action: 'stop',
      message: 'Chromium is missing: run `sudo apt-get install chromium`',
    });
    const noApt = browserPlan({ needed: ['firefox'], exists: machine(), isRoot: true, hasAptGet: false });
    expect(noApt.action).toBe('stop');
    expect(noApt.action === 'stop' && noApt.message).toBe('Firefox ESR is missing: run `sudo apt-get install firefox-esr` on Debian, or set FIREFOX_PATH to a binary');
    for (const plan of [user, noApt]) expect(plan.action === 'stop' && plan.message).not.toContain('\n');
  });

  it('never installs over an override that points nowhere: the user chose that path', () => {
    const plan = browserPlan({ needed: [...both], env: { CHROMIUM_PATH: '/nonexistent' }, exists: machine(CHROMIUM, FIREFOX), isRoot: true, hasAptGet: true });
    expect(plan).toEqual({
      action: 'stop',
      message: 'Chromium is missing: nothing at CHROMIUM_PATH=/nonexistent; point it at a Chromium binary, or unset it and run `sudo apt-get install chromium`',
    });
    const firefox = browserPlan({ needed: ['firefox'], env: { FIREFOX_PATH: '/nope/firefox' }, exists: machine(FIREFOX), isRoot: true, hasAptGet: true });
    expect(firefox).toMatchObject({ action: 'stop', message: expect.stringMatching(/^Firefox ESR is missing: nothing at FIREFOX_PATH=\/nope\/firefox/) });
    // An override for a browser this run does not need changes nothing.
    expect(browserPlan({ needed: ['firefox'], env: { CHROMIUM_PATH: '/nonexistent' }, exists: machine(FIREFOX), isRoot: false, hasAptGet: false })).toEqual({ action: 'ready' });
  });
});
