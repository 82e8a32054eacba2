// A key the service does not know, as each form of the sandbox answers it: the spec's 401
// `{error, message}`, and in `--routes live` the live service's 403 `{detail}` (service-facts.md).
// The client reads both as a refused key, and the words a person sees say so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { isAuthError } from '../../../lib/api/errors';
import { describeError } from '../../../lib/background/describe-error';
import { OWNER_KEY } from '../../../sandbox/keys';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { call } from '../../../sandbox/testing';

const modes = { spec: null as Sandbox | null, live: null as Sandbox | null, both: null as Sandbox | null };

beforeAll(async () => {
  for (const routes of ['spec', 'live', 'both'] as const) modes[routes] = await startSandbox({ port: 0, routes, speed: 100 });
});
afterAll(async () => {
  for (const sb of Object.values(modes)) await sb?.close();
});

const base = (routes: keyof typeof modes) => modes[routes]!.url;

describe('an unknown or missing key', () => {
  it('--routes live: 403 with {detail}, as the live service answers', async () => {
    for (const key of ['va_not_a_key', null]) {
      const r = await call(base('live'), 'GET', '/v2/agent/all', { key });
      expect(r.status, String(key)).toBe(403);
      expect(r.body, String(key)).toEqual({ detail: expect.any(String) });
    }
    expect((await call(base('live'), 'GET', '/v2/agent/all', { key: 'va_not_a_key' })).body.detail).toMatch(/Invalid API key/);
    // A good key still works in live mode.
    expect((await call(base('live'), 'GET', '/v2/agent/all', { key: OWNER_KEY })).status).toBe(200);
  });

  it('spec and both: the spec’s 401 {error, message}', async () => {
    for (const routes of ['spec', 'both'] as const) {
      const r = await call(base(routes), 'GET', '/v2/agent/all', { key: 'va_not_a_key' });
      expect(r.status, routes).toBe(401);
      expect(r.body, routes).toEqual({ error: 401, message: 'Invalid API key' });
    }
  });

  it('the client calls both a refused key, and the description tells the person to check the key', async () => {
    for (const [routes, status] of [['spec', 401], ['live', 403]] as const) {
      const client = createClient({ baseUrl: base(routes), apiKey: 'va_not_a_key' });
      const error = await client.listAgents().then(
        () => null,
        (e: unknown) => e,
      );
      expect(isAuthError(error), routes).toBe(true);
      expect(error, routes).toMatchObject({ status, message: 'Invalid API key' });
      const described = describeError(error);
      expect(described.message, routes).toMatch(/refused the API key/);
      expect(described.message, routes).toMatch(/check your key/i);
      expect(described.message, routes).toContain('Invalid API key');
      expect(described.transient, routes).toBe(false);
    }
  });
});
