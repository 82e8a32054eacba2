// account/get through the router: GET /user/me read, a missing route reported plainly, other failures passed on.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { writeKey } from '../../../lib/background/key-store';
import { handleUiRequest, type RouterDeps } from '../../../lib/background/router';
import { storeSettings } from '../../../lib/background/settings-store';
import type { CallsService } from '../../../lib/background/calls-service';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { fakeFetch, json, type FakeFetch } from '../api/fake-fetch';

const A = 'https://api.a.example';
const deps: RouterDeps = { calls: {} as CallsService, openPanel: async () => undefined, now: () => Date.parse('2026-11-23T10:00:00Z') };
let net: FakeFetch;
const answer = (response: () => Response) => {
  net = fakeFetch([], () => response());
  vi.stubGlobal('fetch', net.fetch);
};

beforeEach(async () => {
  fakeBrowser.reset();
  fakeBrowser.permissions.contains = (async () => true) as never;
  await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: A });
  await writeKey(A, 'key-a', true);
});
afterEach(() => vi.unstubAllGlobals());

describe('account/get', () => {
  it('answers the wallet and concurrency of GET /user/me', async () => {
    answer(() => json({ id: 'u1', name: 'Ada', email: 'a@x.test', wallet: '12.5', concurrency: { max: 2, current: 0 } }));
    const reply = await handleUiRequest({ type: 'account/get' }, deps);
    expect(reply).toEqual({ ok: true, data: expect.objectContaining({ available: true, wallet: 12.5, concurrency: { max: 2, current: 0 } }) });
    expect(net.calls.map((c) => c.url.pathname)).toEqual(['/user/me']);
  });

  it.each([
    ['404 Not Found', () => json({ error: 404, message: 'Not Found' }, 404)],
    ['404 with a message only', () => json({ message: 'User route not found' }, 404)],
    ['405', () => json({ detail: 'Method Not Allowed' }, 405)],
  ])('a service without the route (%s) is "not offered", not an error', async (_what, response) => {
    answer(response);
    const reply = await handleUiRequest({ type: 'account/get' }, deps);
    expect(reply).toMatchObject({ ok: true, data: { available: false, wallet: null } });
    expect(reply.ok && (reply.data as { reason: string }).reason).toMatch(/does not tell its wallet balance/);
  });

  it('a refused key is an error with the service message', async () => {
    answer(() => json({ detail: 'Invalid API key' }, 403));
    const reply = await handleUiRequest({ type: 'account/get' }, deps);
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error.message).toMatch(/Invalid API key|key/i);
  });
});
