import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { loadSettings, storeSettings } from '../../../lib/background/settings-store';
import { DEFAULT_SETTINGS, SETTINGS_VERSION } from '../../../lib/settings/schema';
import { readQuarantine } from '../../../lib/store/data-db';

const stored = async () => (await fakeBrowser.storage.local.get('settings')).settings;

beforeEach(() => fakeBrowser.reset());

describe('settings store: migrations', () => {
  it('reads settings v0 (unversioned: apiBaseUrl, country) as the current version, keeping nothing aside', async () => {
    await fakeBrowser.storage.local.set({ settings: { apiBaseUrl: 'https://api.example.com', country: 'GB', rememberKey: false, sites: DEFAULT_SETTINGS.sites } });
    const { settings, problem } = await loadSettings();
    expect(problem).toBeNull();
    expect(settings).toMatchObject({ version: SETTINGS_VERSION, baseUrl: 'https://api.example.com', defaultCountry: 'GB', rememberKey: false });
    expect(await readQuarantine()).toEqual([]);
  });

  it('reads the current version as it is', async () => {
    const current = { ...DEFAULT_SETTINGS, defaultCountry: 'FR' };
    await fakeBrowser.storage.local.set({ settings: current });
    expect(await loadSettings()).toEqual({ settings: current, problem: null });
  });
});

describe('settings store: nothing stored is silently lost', () => {
  const newer = { version: SETTINGS_VERSION + 1, baseUrl: 'https://api.example.com', region: { name: 'eu' } };
  for (const [label, value, problem] of [
    ['not an object', 'garbage', /not an object/],
    ['an array', [1, 2], /not an object/],
    ['from a newer version', newer, /newer version of the extension/],
    ['a broken field', { ...DEFAULT_SETTINGS, baseUrl: 'https://api.example.com', defaultCountry: 'not a country' }, /defaultCountry/],
  ] as const) {
    it(`keeps ${label} aside, says why, and a later save does not overwrite the copy`, async () => {
      await fakeBrowser.storage.local.set({ settings: value });
      const read = await loadSettings();
      expect(read.problem).toMatch(problem);
      await loadSettings(); // read again: still one copy
      await storeSettings({ ...read.settings, defaultCountry: 'DE' });
      expect(await stored()).toMatchObject({ defaultCountry: 'DE' });
      expect(await readQuarantine()).toEqual([{ source: 'settings', reason: expect.stringMatching(problem), at: expect.any(Number), value }]);
    });
  }

  it('a broken field: the valid ones are still used', async () => {
    await fakeBrowser.storage.local.set({ settings: { ...DEFAULT_SETTINGS, baseUrl: 'https://api.example.com', defaultCountry: 'xx' } });
    expect((await loadSettings()).settings).toMatchObject({ baseUrl: 'https://api.example.com', defaultCountry: 'US' });
  });

  it('a newer version is not guessed at: defaults are used', async () => {
    await fakeBrowser.storage.local.set({ settings: { ...DEFAULT_SETTINGS, version: SETTINGS_VERSION + 1, baseUrl: 'https://api.example.com' } });
    expect((await loadSettings()).settings).toEqual(DEFAULT_SETTINGS);
  });

  it('a save straight over an unreadable value keeps it aside first', async () => {
    await fakeBrowser.storage.local.set({ settings: 42 });
    await storeSettings(DEFAULT_SETTINGS);
    expect((await readQuarantine()).map((e) => e.value)).toEqual([42]);
    expect(await stored()).toEqual(DEFAULT_SETTINGS);
  });
});
