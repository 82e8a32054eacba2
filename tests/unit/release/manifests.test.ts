/**
 * The built manifests (npm run build; `npm test` builds before the unit suite): the minimum browser
 * versions the code needs, and the name, description and command text from the message catalogues.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../../public/_locales/en/messages.json';
import { GECKO_ANDROID_MIN_VERSION, GECKO_ID, GECKO_MIN_VERSION, MINIMUM_CHROME_VERSION } from '../../../wxt.config';

const OUTPUT = join(__dirname, '../../../.output');
const read = (target: string) => JSON.parse(readFileSync(join(OUTPUT, target, 'manifest.json'), 'utf8'));
const built = (target: string) => existsSync(join(OUTPUT, target, 'manifest.json'));
const major = (version: string) => Number(version.split('.')[0]);

/** The newest API each browser's build relies on, and the version that brought it. */
const CHROME_NEEDS = { 'sidePanel.open()': 116, 'side_panel manifest key': 114, 'storage.session': 102, 'scripting.registerContentScripts': 96 };
const FIREFOX_NEEDS = { 'gecko.data_collection_permissions': 140, 'storage.session': 115, 'scripting.registerContentScripts (MV3)': 102, 'scripting.executeScript (MV2 too)': 102 };

describe.skipIf(!built('chrome-mv3'))('Chrome MV3 manifest (.output/chrome-mv3)', () => {
  it('asks for the Chrome version its newest API needs', () => {
    const manifest = read('chrome-mv3');
    expect(manifest.minimum_chrome_version).toBe(MINIMUM_CHROME_VERSION);
    expect(major(manifest.minimum_chrome_version)).toBe(Math.max(...Object.values(CHROME_NEEDS)));
    expect(manifest.permissions).toContain('sidePanel');
    expect(manifest.side_panel).toBeDefined();
    expect(manifest.browser_specific_settings).toBeUndefined();
  });

  it('takes its name, description and command text from _locales, English by default', () => {
    const manifest = read('chrome-mv3');
    expect(manifest.default_locale).toBe('en');
    expect(manifest.name).toBe('__MSG_extName__');
    expect(manifest.description).toBe('__MSG_extDescription__');
    const keys = [manifest.name, manifest.description, manifest.commands['call-selection'].description].map((v: string) => v.slice(6, -2));
    for (const key of keys) expect(en).toHaveProperty(key);
    const shipped = JSON.parse(readFileSync(join(OUTPUT, 'chrome-mv3/_locales/en/messages.json'), 'utf8'));
    expect(shipped).toEqual(en);
    expect(existsSync(join(OUTPUT, 'chrome-mv3/_locales/de/messages.json'))).toBe(true);
  });
});

/** Origins granted at install: MV3's host_permissions, MV2's origin-shaped permissions. */
const requiredOrigins = (manifest: { host_permissions?: string[]; permissions?: string[] }) => [
  ...(manifest.host_permissions ?? []),
  ...(manifest.permissions ?? []).filter((p) => p.includes('://') || p === '<all_urls>'),
];
const optionalOrigins = (manifest: { optional_host_permissions?: string[]; optional_permissions?: string[] }) => [
  ...(manifest.optional_host_permissions ?? []),
  ...(manifest.optional_permissions ?? []).filter((p) => p.includes('://') || p === '<all_urls>'),
];

describe.each(['chrome-mv3', 'firefox-mv2', 'firefox-mv3'])('Least privilege at install (.output/%s)', (target) => {
  it.skipIf(!built(target))('grants no origin at install: pages and the service are optional, asked for when the user turns them on', () => {
    const manifest = read(target);
    // No host at all: not every page (the content script's matches), not the service, not loopback.
    expect(requiredOrigins(manifest)).toEqual([]);
    expect(manifest.content_scripts).toBeUndefined();
    // What the extension may ask for later: every page (click-to-call on all sites covers listed ones), HTTPS services, loopback.
    expect(optionalOrigins(manifest).sort()).toEqual(['*://*/*', 'http://127.0.0.1/*', 'http://localhost/*', 'https://*/*']);
    // The API permissions every user needs, and nothing page-wide such as tabs or webRequest.
    for (const wide of ['tabs', 'webRequest', 'activeTab', '<all_urls>', 'cookies', 'history']) expect(manifest.permissions).not.toContain(wide);
  });
});

describe.each(['firefox-mv2', 'firefox-mv3'])('Firefox manifest (.output/%s)', (target) => {
  it.skipIf(!built(target))('asks for the Firefox (and Firefox for Android) version its manifest keys and APIs need', () => {
    const manifest = read(target);
    const gecko = manifest.browser_specific_settings.gecko;
    expect(gecko.id).toBe(GECKO_ID);
    expect(gecko.strict_min_version).toBe(GECKO_MIN_VERSION);
    expect(major(gecko.strict_min_version)).toBe(Math.max(...Object.values(FIREFOX_NEEDS)));
    expect(gecko.data_collection_permissions).toEqual({ required: ['none'] });
    // Firefox for Android added data_collection_permissions in 142.
    expect(manifest.browser_specific_settings.gecko_android.strict_min_version).toBe(GECKO_ANDROID_MIN_VERSION);
    expect(major(GECKO_ANDROID_MIN_VERSION)).toBeGreaterThanOrEqual(142);
    expect(manifest.minimum_chrome_version).toBeUndefined();
    expect(manifest.permissions).not.toContain('sidePanel');
    expect(manifest.default_locale).toBe('en');
    expect(manifest.name).toBe('__MSG_extName__');
  });
});
