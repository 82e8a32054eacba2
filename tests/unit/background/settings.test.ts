import { describe, expect, it } from 'vitest';
import { checkBaseUrl, cleanApiKey, DEFAULT_SETTINGS, maskKey, readSettings } from '../../../lib/settings/schema';

describe('settings', () => {
  it('defaults to the local sandbox', () => {
    expect(readSettings(undefined).settings.baseUrl).toBe('http://127.0.0.1:8787');
  });
  it('migrates the unversioned shape', () => {
    const { settings, problem } = readSettings({ apiBaseUrl: 'https://api.example.com', country: 'GB', rememberKey: false, sites: DEFAULT_SETTINGS.sites });
    expect(problem).toBeNull();
    expect(settings).toMatchObject({ version: 3, baseUrl: 'https://api.example.com', defaultCountry: 'GB', rememberKey: false, startCallsNow: false });
  });
  it('migrates version 1 to 2: calls keep going out as single-call batches (startCallsNow off), nothing reported', () => {
    const { startCallsNow: _added, ...v1 } = { ...DEFAULT_SETTINGS, version: 1, baseUrl: 'https://api.example.com', rememberKey: false };
    const { on: _on, ...v1Sites } = DEFAULT_SETTINGS.sites;
    const { settings, problem, keepAside } = readSettings({ ...v1, sites: v1Sites });
    expect(problem).toBeNull();
    expect(keepAside).toBeUndefined();
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, version: 3, baseUrl: 'https://api.example.com', rememberKey: false, startCallsNow: false, sites: { ...DEFAULT_SETTINGS.sites, on: true } });
  });
  it('a new install has click-to-call on pages off: no page is granted until the user turns it on', () => {
    expect(readSettings(undefined).settings.sites.on).toBe(false);
    expect(DEFAULT_SETTINGS.sites.on).toBe(false);
  });
  it('migrates version 2 to 3: click-to-call on pages stays on for those who had it, with their rules', () => {
    const v2 = { ...DEFAULT_SETTINGS, version: 2, sites: { mode: 'only-listed', listed: ['crm.example.com'], paused: ['x.example'], countries: { 'crm.example.com': 'GB' } } };
    const { settings, problem } = readSettings(v2);
    expect(problem).toBeNull();
    expect(settings.version).toBe(3);
    expect(settings.sites).toEqual({ on: true, mode: 'only-listed', listed: ['crm.example.com'], paused: ['x.example'], countries: { 'crm.example.com': 'GB' } });
  });
  it('keeps startCallsNow as saved, and a broken value falls back to off alone', () => {
    expect(readSettings({ ...DEFAULT_SETTINGS, startCallsNow: true }).settings.startCallsNow).toBe(true);
    const { settings, problem } = readSettings({ ...DEFAULT_SETTINGS, baseUrl: 'https://api.example.com', startCallsNow: 'yes' });
    expect(settings).toMatchObject({ startCallsNow: false, baseUrl: 'https://api.example.com' });
    expect(problem).toMatch(/startCallsNow/);
  });
  it('keeps valid fields and reports the broken ones', () => {
    const { settings, problem } = readSettings({ ...DEFAULT_SETTINGS, baseUrl: 'https://api.example.com', defaultCountry: 'not a country' });
    expect(settings.baseUrl).toBe('https://api.example.com');
    expect(settings.defaultCountry).toBe('US');
    expect(problem).toMatch(/defaultCountry/);
  });
  it('reports non-object storage', () => {
    expect(readSettings('garbage').problem).toMatch(/not an object/);
  });
});

describe('base URL', () => {
  it('requires HTTPS except on loopback', () => {
    expect(checkBaseUrl('http://api.example.com')).toMatchObject({ ok: false, error: expect.stringMatching(/HTTPS/) });
    expect(checkBaseUrl('http://127.0.0.1:8787/')).toEqual({ ok: true, baseUrl: 'http://127.0.0.1:8787', origin: 'http://127.0.0.1:8787' });
    expect(checkBaseUrl('http://localhost:9000')).toMatchObject({ ok: true });
    expect(checkBaseUrl(' https://api.example.com/v1/ ')).toMatchObject({ ok: true, baseUrl: 'https://api.example.com/v1' });
  });
  it('explains garbage and credentials in the URL', () => {
    expect(checkBaseUrl('')).toMatchObject({ ok: false });
    expect(checkBaseUrl('not a url')).toMatchObject({ ok: false, error: expect.stringMatching(/is not a URL/) });
    expect(checkBaseUrl('ftp://x.com')).toMatchObject({ ok: false });
    expect(checkBaseUrl('https://user:secret@x.com')).toMatchObject({ ok: false, error: expect.stringMatching(/API key field/) });
  });
});

describe('API key', () => {
  it('cleans pasted keys', () => {
    expect(cleanApiKey('  Bearer bn-abcdef123456 \n')).toEqual({ ok: true, key: 'bn-abcdef123456' });
    expect(cleanApiKey('"bn-abcdef123456"')).toEqual({ ok: true, key: 'bn-abcdef123456' });
  });
  it('refuses what cannot be a key', () => {
    expect(cleanApiKey('')).toMatchObject({ ok: false });
    expect(cleanApiKey('two words here')).toMatchObject({ ok: false, error: expect.stringMatching(/spaces/) });
    expect(cleanApiKey('short')).toMatchObject({ ok: false });
    expect(cleanApiKey('clé-avec-accent')).toMatchObject({ ok: false });
  });
  it('masks all but the last four characters', () => {
    expect(maskKey('va_test_owner')).toBe('••••••••wner');
    expect(maskKey('va_test_owner')).not.toContain('va_test');
    expect(maskKey('12345678')).toBe('••••••••');
  });
});
