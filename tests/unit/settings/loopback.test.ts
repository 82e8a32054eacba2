import { describe, expect, it } from 'vitest';
import { checkBaseUrl, isLoopbackUrl } from '../../../lib/settings/checks';

const loopback = (text: string) => isLoopbackUrl(new URL(text));

describe('loopback is decided by parsing the host as an address', () => {
  it.each([
    'http://127.0.0.1:8787',
    'http://127.1.2.3',
    'http://127.255.255.254:9',
    'http://[::1]:8787',
    'http://[0:0:0:0:0:0:0:1]',
    'http://localhost:9000',
    'http://LOCALHOST',
    'http://localhost.:9000',
    // The URL parser reads these as 127.0.0.1.
    'http://0x7f.1',
    'http://2130706433',
    'http://0177.0.0.1',
    // IPv4-mapped IPv6 of 127/8 still reaches this machine only.
    'http://[::ffff:127.0.0.1]',
    'http://[::ffff:127.9.8.7]',
  ])('%s is loopback', (text) => {
    expect(loopback(text)).toBe(true);
  });

  it.each([
    'http://127.evil.example',
    'http://127.0.0.1.nip.io',
    'http://localhost.evil.example',
    'http://evil-localhost',
    'http://foo.localhost',
    'http://128.0.0.1',
    'http://10.0.0.1',
    'http://[::2]',
    'http://[::ffff:128.0.0.1]',
    'http://[::127.0.0.1]',
    'http://[fe80::1]',
    'http://0.0.0.0',
  ])('%s is not loopback', (text) => {
    expect(loopback(text)).toBe(false);
  });

  it('so plain HTTP to a look-alike host is refused, and allowed to a real loopback address', () => {
    expect(checkBaseUrl('http://127.evil.example:8787')).toMatchObject({ ok: false, error: expect.stringMatching(/HTTPS/) });
    expect(checkBaseUrl('http://127.0.0.1.nip.io')).toMatchObject({ ok: false });
    expect(checkBaseUrl('http://0x7f.1:8787')).toEqual({ ok: true, baseUrl: 'http://127.0.0.1:8787', origin: 'http://127.0.0.1:8787' });
    expect(checkBaseUrl('http://[::1]:8787/')).toEqual({ ok: true, baseUrl: 'http://[::1]:8787', origin: 'http://[::1]:8787' });
  });
});
