import { describe, expect, it } from 'vitest';
import { countryFor, siteCountries } from '../../../lib/page/sites';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';

describe('per-site default country', () => {
  const settings = (countries: Record<string, string>) => ({ defaultCountry: 'US', sites: { ...DEFAULT_SETTINGS.sites, countries } });

  it('a site’s own country wins for the host and its subdomains; others keep the default', () => {
    const s = settings({ 'example.com.br': 'BR', 'crm.example.de': 'DE' });
    expect(countryFor('example.com.br', s)).toBe('BR');
    expect(countryFor('app.example.com.br', s)).toBe('BR');
    expect(countryFor('crm.example.de', s)).toBe('DE');
    expect(countryFor('mail.example.de', s)).toBe('US');
  });

  it('sets (lowercase host), replaces and removes a site’s country without touching the others', () => {
    const one = siteCountries({ 'a.example': 'GB' }, ' CRM.Example.com ', 'BR');
    expect(one).toEqual({ 'a.example': 'GB', 'crm.example.com': 'BR' });
    expect(siteCountries(one, 'crm.example.com', 'MX')).toEqual({ 'a.example': 'GB', 'crm.example.com': 'MX' });
    expect(siteCountries(one, 'crm.example.com', '')).toEqual({ 'a.example': 'GB' });
  });
});
