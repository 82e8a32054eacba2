import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api/errors';
import { explainConnectionError, testConnection } from '../../../lib/background/connection';
import type { ServiceClient } from '../../../lib/background/service';

const http = (status: number, message: string) => new ApiError({ kind: 'http', status, message, method: 'GET', path: '/user/me' });

describe('explaining a connection test', () => {
  it('says which refusal it was, 401 or 403', () => {
    expect(explainConnectionError(http(401, 'Invalid API key'), 'https://api.x', true)).toMatchObject({ outcome: 'key-refused-401', message: expect.stringMatching(/401 Unauthorized/) });
    expect(explainConnectionError(http(403, 'Forbidden'), 'https://api.x', true)).toMatchObject({ outcome: 'key-refused-403', message: expect.stringMatching(/403/) });
  });
  it('tells an unreachable host from a blocked one by whether access was granted', () => {
    const network = new ApiError({ kind: 'network', message: 'Failed to fetch', method: 'GET', path: '/user/me' });
    expect(explainConnectionError(network, 'https://api.x', true).outcome).toBe('unreachable');
    expect(explainConnectionError(network, 'https://api.x', false).outcome).toBe('cors');
  });
});

function fakeClient(overrides: Partial<ServiceClient>): ServiceClient {
  return { baseUrl: 'https://api.x', timeScale: () => 1, ...overrides } as ServiceClient;
}

describe('testConnection', () => {
  const access = async () => true;
  it('refuses plain HTTP to a remote host before any request', async () => {
    let asked = false;
    const report = await testConnection('http://api.example.com', true, { client: () => ((asked = true), fakeClient({})), hasHostAccess: access });
    expect(report.outcome).toBe('not-https');
    expect(asked).toBe(false);
  });
  it('asks for the permission first when the origin is not granted', async () => {
    const report = await testConnection('https://api.example.com', true, { client: () => fakeClient({}), hasHostAccess: async () => false });
    expect(report).toMatchObject({ ok: false, outcome: 'permission-refused' });
  });
  it('names the account when the key works', async () => {
    const report = await testConnection('https://api.example.com', true, {
      client: () => fakeClient({ getUser: async () => ({ id: 'u1', name: 'Ada QA' }) as never }),
      hasHostAccess: access,
    });
    expect(report).toMatchObject({ ok: true, message: 'Connected as Ada QA.' });
  });
  it('falls back to listing agents where /user/me does not exist', async () => {
    let listed = false;
    const report = await testConnection('https://api.example.com', true, {
      client: () =>
        fakeClient({
          getUser: async () => {
            throw http(404, 'Not Found');
          },
          listAgents: async () => ((listed = true), []),
        }),
      hasHostAccess: access,
    });
    expect(listed).toBe(true);
    expect(report.ok).toBe(true);
  });
  it('without a key says so', async () => {
    expect((await testConnection('https://api.example.com', false, { client: () => fakeClient({}), hasHostAccess: access })).outcome).toBe('no-key');
  });
});

describe('testConnection on loopback', () => {
  it('needs the origin granted like any other (the manifest no longer grants loopback at install)', async () => {
    let asked = false;
    const report = await testConnection('http://127.0.0.1:8787', true, { client: () => ((asked = true), fakeClient({})), hasHostAccess: async () => false });
    expect(report).toMatchObject({ ok: false, outcome: 'permission-refused', message: expect.stringContaining('http://127.0.0.1:8787') });
    expect(asked).toBe(false);
  });
  it('refuses a look-alike host over plain HTTP before any request', async () => {
    let asked = false;
    const report = await testConnection('http://127.evil.example:8787', true, { client: () => ((asked = true), fakeClient({})), hasHostAccess: async () => true });
    expect(report.outcome).toBe('not-https');
    expect(asked).toBe(false);
  });
  it('names the origin that has no key', async () => {
    const report = await testConnection('http://localhost:9000', false, { client: () => fakeClient({}), hasHostAccess: async () => true });
    expect(report).toMatchObject({ outcome: 'no-key', message: expect.stringContaining('http://localhost:9000') });
  });
});
