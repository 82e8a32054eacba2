/**
 * The UI message router against the fake browser, the real key store (its IndexedDB replaced by a
 * map) and a recording `fetch`: what is stored, what UI learns, and which key goes to which origin.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { readKeyFor, readKeys, writeKey } from '../../../lib/background/key-store';
import { handleUiRequest, publishKeyState, type RouterDeps } from '../../../lib/background/router';
import { loadSettings, storeSettings } from '../../../lib/background/settings-store';
import type { CallsService } from '../../../lib/background/calls-service';
import type { ConnectionReport, Reply, SettingsView, UiRequest } from '../../../lib/messages';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { fakeFetch, json, type FakeFetch } from '../api/fake-fetch';
import { secrets } from './secrets';
import { DATA } from '../../../lib/storage-keys';
import { readData } from '../../../lib/store/data-db';
import { records } from '../../../lib/store/records';

const A = 'https://api.a.example';
const B = 'http://127.0.0.1:8787';
const KEY_A = 'key-for-service-a';
const KEY_B = 'key-for-service-b';

const deps: RouterDeps = { calls: {} as CallsService, openPanel: async () => undefined, now: () => Date.parse('2026-11-23T10:00:00Z') };
const send = (request: UiRequest) => handleUiRequest(request, deps);
const save = (request: Partial<Extract<UiRequest, { type: 'settings/save' }>>) =>
  send({ type: 'settings/save', baseUrl: A, defaultCountry: 'US', rememberKey: true, ...request }) as Promise<Reply<SettingsView>>;
const data = <T,>(reply: Reply<unknown>): T => {
  if (!reply.ok) throw new Error(`expected ok, got ${reply.error.message}`);
  return reply.data as T;
};

let net: FakeFetch;
/** Every request made: where, and with which key. */
const sent = () => net.calls.map((c) => ({ origin: c.url.origin, key: c.headers.get('authorization')?.replace(/^Bearer /, '') ?? null }));

beforeEach(async () => {
  fakeBrowser.reset();
  // Every origin counts as granted (the prompt is the options page's business).
  fakeBrowser.permissions.contains = (async () => true) as never;
  net = fakeFetch([], (call) => (call.url.pathname.endsWith('/user/me') ? json({ id: 'u1', name: 'Ada QA' }) : json([])));
  vi.stubGlobal('fetch', net.fetch);
  // Service A is set up, with its key.
  await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: A });
  await writeKey(A, KEY_A, true);
});
afterEach(() => vi.unstubAllGlobals());

describe('settings/save across origins', () => {
  it('refuses another origin without a key, naming both, and changes nothing or sends anything', async () => {
    const reply = await save({ baseUrl: B });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'key-origin' } });
    expect(!reply.ok && reply.error.message).toContain(A);
    expect(!reply.ok && reply.error.message).toContain(B);
    expect((await loadSettings()).settings.baseUrl).toBe(A);
    expect(await readKeyFor(A)).toMatchObject({ key: KEY_A });
    expect(await readKeyFor(B)).toBeNull();
    expect(net.calls).toEqual([]);
  });

  it('with a key typed for the new origin: that key is saved for it, the old origin keeps its own, and only the new key goes to the new host', async () => {
    const view = data<SettingsView>(await save({ baseUrl: B, apiKey: ` Bearer ${KEY_B} ` }));
    expect(view).toMatchObject({ baseUrl: B, hasKey: true, keyHint: '••••••••ce-b', keyOrigin: B, otherKeyOrigins: [A] });
    expect(await readKeyFor(B)).toMatchObject({ key: KEY_B });
    expect(await readKeyFor(A)).toMatchObject({ key: KEY_A });
    // The agent list is refreshed at once: at the new host, with its key.
    await vi.waitFor(() => expect(net.calls.length).toBeGreaterThan(0));
    expect(sent().every((s) => s.origin === B && s.key === KEY_B)).toBe(true);
  });

  it('moves the key on an explicit confirmation naming the origin it comes from', async () => {
    const view = data<SettingsView>(await save({ baseUrl: `${B}/v2/`, moveKeyFrom: A }));
    expect(view).toMatchObject({ baseUrl: `${B}/v2`, hasKey: true, keyOrigin: B, otherKeyOrigins: [] });
    expect(await readKeyFor(B)).toMatchObject({ key: KEY_A });
    expect(await readKeyFor(A)).toBeNull();
    await vi.waitFor(() => expect(net.calls.length).toBeGreaterThan(0));
    expect(sent().every((s) => s.origin === B)).toBe(true);
  });

  it('refuses a move from an origin that has no key', async () => {
    const reply = await save({ baseUrl: B, moveKeyFrom: 'https://api.other.example' });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'key-origin' } });
    expect((await loadSettings()).settings.baseUrl).toBe(A);
    expect(await readKeyFor(A)).toMatchObject({ key: KEY_A });
  });

  it('going back to an origin that still has its key needs no key typed, and uses that key', async () => {
    await writeKey(B, KEY_B, true);
    await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: B });
    const view = data<SettingsView>(await save({ baseUrl: `${A}/v2` }));
    expect(view).toMatchObject({ hasKey: true, keyOrigin: A, otherKeyOrigins: [B] });
    await vi.waitFor(() => expect(net.calls.length).toBeGreaterThan(0));
    expect(sent().every((s) => s.origin === A && s.key === KEY_A)).toBe(true);
  });

  it('the same origin with another path keeps its key', async () => {
    expect(data<SettingsView>(await save({ baseUrl: `${A}/v2`, defaultCountry: 'GB' }))).toMatchObject({ hasKey: true, keyOrigin: A, defaultCountry: 'GB' });
  });

  it('refuses a URL it will not talk to, whatever the key', async () => {
    expect(await save({ baseUrl: 'http://127.evil.example:8787', apiKey: KEY_B })).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringMatching(/HTTPS/) } });
    expect(await readKeys()).toEqual([{ origin: A, key: KEY_A, remember: true }]);
  });

  it('the remember switch moves the current origin’s key only', async () => {
    await writeKey(B, KEY_B, true);
    data(await save({ rememberKey: false }));
    expect(await readKeyFor(A)).toMatchObject({ remember: false });
    expect(await readKeyFor(B)).toMatchObject({ remember: true });
  });

  it('tells UI the key’s origin and hint through storage, never the key', async () => {
    await publishKeyState();
    expect(await records.keyState.read()).toEqual({ hasKey: true, keyHint: '••••••••ce-a', keyOrigin: A });
    data(await save({ baseUrl: B, apiKey: KEY_B }));
    expect(await records.keyState.read()).toMatchObject({ hasKey: true, keyOrigin: B });
    const everything = JSON.stringify([await readData(Object.values(DATA)), await fakeBrowser.storage.local.get(null)]);
    expect(everything).not.toMatch(/key-for-service/);
    // The save refreshes the agent list in the background: at B, with B's key (and done before the next test).
    await vi.waitFor(() => expect(sent()).toContainEqual({ origin: B, key: KEY_B }));
  });
});

describe('connection/test', () => {
  const test = (request: Omit<Extract<UiRequest, { type: 'connection/test' }>, 'type'>) =>
    send({ type: 'connection/test', ...request }).then((r) => data<ConnectionReport>(r));

  it('with a typed, unsaved URL of another origin never sends the stored key: no request at all', async () => {
    const report = await test({ baseUrl: B });
    expect(report).toMatchObject({ ok: false, outcome: 'no-key', message: expect.stringContaining(B) });
    expect(net.calls).toEqual([]);
  });

  it('with a typed URL and a typed key sends that key there, and only there', async () => {
    expect(await test({ baseUrl: B, apiKey: KEY_B })).toMatchObject({ ok: true, account: 'Ada QA' });
    expect(sent()).toEqual([{ origin: B, key: KEY_B }]);
  });

  it('with a typed URL whose origin has its own saved key uses that key', async () => {
    await writeKey(B, KEY_B, false);
    expect(await test({ baseUrl: `${B}/v2` })).toMatchObject({ ok: true });
    expect(sent()).toEqual([{ origin: B, key: KEY_B }]);
  });

  it('the saved settings are tested with their own key', async () => {
    expect(await test({})).toMatchObject({ ok: true });
    expect(sent()).toEqual([{ origin: A, key: KEY_A }]);
  });

  it('a look-alike loopback host is refused before any request', async () => {
    expect(await test({ baseUrl: 'http://127.evil.example:8787', apiKey: KEY_B })).toMatchObject({ outcome: 'not-https' });
    expect(await test({ baseUrl: 'http://127.0.0.1.evil.example' })).toMatchObject({ outcome: 'not-https' });
    expect(net.calls).toEqual([]);
  });

  it('a loopback origin without access granted is not contacted', async () => {
    fakeBrowser.permissions.contains = (async () => false) as never;
    expect(await test({ baseUrl: B, apiKey: KEY_B })).toMatchObject({ outcome: 'permission-refused' });
    expect(net.calls).toEqual([]);
  });
});

describe('settings/remove-key and settings/get', () => {
  it('removes the current origin’s key, or a named one, and says so when there is none', async () => {
    await writeKey(B, KEY_B, false);
    expect(data<SettingsView>(await send({ type: 'settings/remove-key', origin: B }))).toMatchObject({ hasKey: true, keyOrigin: A, otherKeyOrigins: [] });
    expect(data<SettingsView>(await send({ type: 'settings/remove-key' }))).toMatchObject({ hasKey: false, keyHint: null, keyOrigin: null });
    expect(await readKeys()).toEqual([]);
    expect(await send({ type: 'settings/remove-key' })).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(await records.keyState.read()).toMatchObject({ hasKey: false });
  });

  it('a key saved by an older version shows as the key of the saved base URL', async () => {
    await secrets.clear();
    await secrets.set('secret.apiKey', 'legacy-key-1234');
    expect(data<SettingsView>(await send({ type: 'settings/get' }))).toMatchObject({ hasKey: true, keyHint: '••••••••1234', keyOrigin: A });
  });

  it('a key of another origin does not count as the current one', async () => {
    await secrets.clear();
    await writeKey(B, KEY_B, true);
    expect(data<SettingsView>(await send({ type: 'settings/get' }))).toMatchObject({ hasKey: false, keyOrigin: null, otherKeyOrigins: [B] });
    // And nothing is fetched with it on the current origin's behalf.
    expect(await send({ type: 'agents/list', refresh: true })).toMatchObject({ ok: true, data: { refreshError: expect.stringContaining('api.a.example') } });
    expect(net.calls).toEqual([]);
  });
});

describe('execution/get and execution/log for a call in history', () => {
  const history = { list: async () => [{ id: 'call-a', executionId: 'exec-a', baseUrl: `${A}/v2` }], refreshExecution: async () => undefined } as unknown as CallsService;
  const read = (request: UiRequest) => handleUiRequest(request, { ...deps, calls: history });

  beforeEach(async () => {
    // The settings have moved on to B.
    await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: B });
    await writeKey(B, KEY_B, true);
  });

  it('reads the execution at the service the call was placed at, with that service’s key', async () => {
    await read({ type: 'execution/get', executionId: 'exec-a' });
    await read({ type: 'execution/log', executionId: 'exec-a' });
    expect(sent()).toEqual([
      { origin: A, key: KEY_A },
      { origin: A, key: KEY_A },
    ]);
  });

  it('says which key it needs when that service has none, and sends nothing', async () => {
    await secrets.clear();
    await writeKey(B, KEY_B, true);
    const reply = await read({ type: 'execution/get', executionId: 'exec-a' });
    expect(reply).toMatchObject({ ok: false, error: { kind: 'no-key', message: expect.stringContaining('needs the key for api.a.example') } });
    expect(net.calls).toEqual([]);
  });

  it('an execution that is no call of ours is read at the saved service', async () => {
    await read({ type: 'execution/get', executionId: 'exec-elsewhere' });
    expect(sent()).toEqual([{ origin: B, key: KEY_B }]);
  });
});

describe('executions/list', () => {
  const from = Date.parse('2026-11-17T00:00:00Z');
  const list = (over: Partial<Extract<UiRequest, { type: 'executions/list' }>> = {}) =>
    send({ type: 'executions/list', agentId: 'agent-1', pageNumber: 2, pageSize: 20, from, to: from + 7 * 86_400_000, ...over });

  it('asks the service for the page under the filter, times in whole seconds with an offset', async () => {
    await list({ status: 'busy', batchId: '0123abcd0123abcd0123abcd0123abcd' });
    const url = net.calls.find((c) => c.url.pathname.endsWith('/executions'))!.url;
    expect(url.pathname).toBe('/v2/agent/agent-1/executions');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page_number: '2',
      page_size: '20',
      status: 'busy',
      batch_id: '0123abcd0123abcd0123abcd0123abcd',
      from: '2026-11-17T00:00:00+00:00',
      to: '2026-11-24T00:00:00+00:00',
    });
  });

  it('refuses a window over 7 days (or reversed) without asking the service', async () => {
    for (const to of [from + 7 * 86_400_000 + 1000, from - 1000]) {
      const reply = await list({ to });
      expect(reply).toMatchObject({ ok: false, error: { kind: 'validation' } });
    }
    expect(net.calls).toEqual([]);
  });
});
