/** Widget tokens: what an integrator's backend mints is what the proxy accepts, and nothing else. */
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_MINUTES, mintWidgetToken, verifyWidgetToken } from '../../../proxy/token';

const SECRET = 'a-secret-for-tests-that-is-32-chars-or-more';
const ORIGIN = 'https://crm.example';
const NOW = Date.UTC(2026, 10, 26, 5, 0, 0);

const mint = (over: Partial<Parameters<typeof mintWidgetToken>[1]> = {}) => mintWidgetToken(SECRET, { origin: ORIGIN, agents: ['agent-1', 'agent-2'], minutes: 10, who: 'ada', now: NOW, ...over });

describe('widget tokens', () => {
  it('a minted token verifies for its origin, with its agents, label and expiry; replays within its minutes pass', async () => {
    const { token, claims } = await mint();
    expect(token).toMatch(/^vat1\.[\w-]+\.[\w-]+$/);
    expect(claims).toMatchObject({ origin: ORIGIN, agents: ['agent-1', 'agent-2'], who: 'ada', iat: NOW, exp: NOW + 10 * 60_000 });
    for (const at of [NOW, NOW + 60_000, NOW + 10 * 60_000 - 1]) {
      expect(await verifyWidgetToken(SECRET, token, ORIGIN, at)).toEqual({ ok: true, claims });
    }
  });

  it('refuses it once expired', async () => {
    const { token } = await mint();
    expect(await verifyWidgetToken(SECRET, token, ORIGIN, NOW + 10 * 60_000)).toMatchObject({ ok: false, code: 'token-expired' });
  });

  it('refuses it from another origin, or from a request without one', async () => {
    const { token } = await mint();
    expect(await verifyWidgetToken(SECRET, token, 'https://evil.example', NOW)).toMatchObject({ ok: false, code: 'token-origin', reason: expect.stringContaining('https://crm.example') });
    expect(await verifyWidgetToken(SECRET, token, 'https://crm.example:8443', NOW)).toMatchObject({ ok: false, code: 'token-origin' });
    expect(await verifyWidgetToken(SECRET, token, null, NOW)).toMatchObject({ ok: false, code: 'token-origin' });
  });

  it('refuses a changed payload, a changed signature and another secret', async () => {
    const { token } = await mint();
    const [prefix, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...claims, agents: [...claims.agents, 'agent-3'] })).toString('base64url');
    const later = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3_600_000 })).toString('base64url');
    expect(await verifyWidgetToken(SECRET, `${prefix}.${widened}.${signature}`, ORIGIN, NOW)).toMatchObject({ ok: false, code: 'token-signature' });
    expect(await verifyWidgetToken(SECRET, `${prefix}.${later}.${signature}`, ORIGIN, NOW)).toMatchObject({ ok: false, code: 'token-signature' });
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    expect(await verifyWidgetToken(SECRET, `${prefix}.${payload}.${flipped}`, ORIGIN, NOW)).toMatchObject({ ok: false, code: 'token-signature' });
    expect(await verifyWidgetToken('another-secret-that-is-32-chars-or-more', token, ORIGIN, NOW)).toMatchObject({ ok: false, code: 'token-signature' });
  });

  it('refuses what is not a token at all', async () => {
    for (const text of ['', 'va_test_owner', 'vat1.abc', 'vat2.e30.AAAA', 'vat1.!!.??']) {
      expect((await verifyWidgetToken(SECRET, text, ORIGIN, NOW)).ok).toBe(false);
    }
    expect(await verifyWidgetToken(SECRET, null, ORIGIN, NOW)).toMatchObject({ ok: false, code: 'token-missing' });
  });

  it('mints only for a page origin, some agents and minutes up to an hour, with a long enough secret', async () => {
    await expect(mint({ origin: 'https://crm.example/path' })).rejects.toThrow(/not a page origin/);
    await expect(mint({ origin: 'http://crm.example' })).rejects.toThrow(/plain http only on loopback/);
    await expect(mint({ agents: [' '] })).rejects.toThrow(/at least one agent/);
    await expect(mint({ minutes: MAX_TOKEN_MINUTES + 1 })).rejects.toThrow(/up to 60 minutes/);
    await expect(mint({ minutes: 0 })).rejects.toThrow(/up to 60 minutes/);
    await expect(mintWidgetToken('short', { origin: ORIGIN, agents: ['a'], minutes: 1 })).rejects.toThrow(/at least 32 characters/);
    expect((await mint({ origin: 'http://127.0.0.1:4101' })).claims.origin).toBe('http://127.0.0.1:4101');
    expect((await mint({ origin: 'HTTPS://CRM.example:443' })).claims.origin).toBe('https://crm.example');
  });
});
