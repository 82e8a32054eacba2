// executions/list and executions/batches through the router: the live envelope passed on, the deprecated route's
// whole list filtered and paged here, the batch list for the filter (empty where the service has none).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { writeKey } from '../../../lib/background/key-store';
import { handleUiRequest, type RouterDeps } from '../../../lib/background/router';
import { storeSettings } from '../../../lib/background/settings-store';
import type { CallsService } from '../../../lib/background/calls-service';
import type { UiRequest } from '../../../lib/messages';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { fakeFetch, json, type FakeFetch, type RecordedCall } from '../api/fake-fetch';

const BASE = 'https://api.a.example';
const AGENT = '3c90c3cc-0d44-4b50-8888-8dd25736052a';
const deps: RouterDeps = { calls: {} as CallsService, openPanel: async () => undefined, now: () => Date.parse('2026-11-23T10:00:00Z') };
const from = Date.parse('2026-11-17T00:00:00Z');
const to = Date.parse('2026-11-23T23:59:59Z');
let net: FakeFetch;
const serve = (answer: (call: RecordedCall) => Response) => {
  net = fakeFetch([], answer);
  vi.stubGlobal('fetch', net.fetch);
};
const send = (request: UiRequest) => handleUiRequest(request, deps);
const list = (over: Partial<Extract<UiRequest, { type: 'executions/list' }>> = {}) =>
  send({ type: 'executions/list', agentId: AGENT, pageNumber: 1, pageSize: 20, from, to, ...over });
const exec = (i: number, status: string, created_at = '2026-11-20T10:00:00Z', batch_id: string | null = null) => ({ id: `e${i}`, status, created_at, batch_id });

beforeEach(async () => {
  fakeBrowser.reset();
  fakeBrowser.permissions.contains = (async () => true) as never;
  await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: BASE });
  await writeKey(BASE, 'key-a', true);
});
afterEach(() => vi.unstubAllGlobals());

describe('executions/list', () => {
  it('passes the live envelope on as the service paged it', async () => {
    const envelope = { page_number: 2, page_size: 20, total: 41, has_more: true, data: [exec(1, 'busy')] };
    serve(() => json(envelope));
    const reply = await list({ pageNumber: 2, status: 'busy' });
    expect(reply).toMatchObject({ ok: true, data: { page_number: 2, total: 41, has_more: true, data: [{ id: 'e1', status: 'busy' }] } });
  });

  it('filters and pages the deprecated route’s whole list, which ignores the query', async () => {
    const all = [
      ...Array.from({ length: 23 }, (_, i) => exec(i, 'completed', '2026-11-20T10:00:00Z', 'b1')),
      exec(100, 'busy', '2026-11-20T10:00:00Z', 'b1'),
      exec(101, 'completed', '2026-11-20T10:00:00Z', 'b2'),
      exec(102, 'completed', '2026-11-01T10:00:00Z', 'b1'),
    ];
    serve((call) => (call.url.pathname.startsWith('/v2/') ? json({ error: 404, message: 'Not Found' }, 404) : json(all)));
    const reply = await list({ pageNumber: 2, status: 'completed', batchId: 'b1' });
    expect(net.calls.map((c) => c.url.pathname)).toEqual([`/v2/agent/${AGENT}/executions`, `/agent/${AGENT}/executions`]);
    expect(reply.ok).toBe(true);
    const page = reply.ok ? (reply.data as { total: number; has_more: boolean; data: { id: string }[] }) : null;
    expect(page).toMatchObject({ total: 23, has_more: false });
    expect(page!.data.map((e) => e.id)).toEqual(['e20', 'e21', 'e22']);
  });

  it('shows the service’s message when it refuses', async () => {
    serve(() => json({ error: 400, message: 'from and to must be at most 7 days apart' }, 400));
    const reply = await list();
    expect(!reply.ok && reply.error.message).toContain('from and to must be at most 7 days apart');
  });

  it('is refused by the message schema when a field is off (strict: unknown keys, page size over 50)', async () => {
    serve(() => json([]));
    const { uiRequest } = await import('../../../lib/messages');
    const base = { type: 'executions/list', agentId: AGENT, pageNumber: 1, pageSize: 20, from, to };
    expect(uiRequest.safeParse(base).success).toBe(true);
    expect(uiRequest.safeParse({ ...base, pageSize: 51 }).success).toBe(false);
    expect(uiRequest.safeParse({ ...base, extra: 1 }).success).toBe(false);
    expect(uiRequest.safeParse({ ...base, from: 'yesterday' }).success).toBe(false);
  });
});

describe('executions/batches', () => {
  it('lists the agent’s batches newest first, with their file names', async () => {
    serve(() =>
      json([
        { batch_id: 'a'.repeat(32), status: 'completed', file_name: 'old.csv', created_at: '2026-11-01T00:00:00Z' },
        { batch_id: 'b'.repeat(32), status: 'queued', file_name: 'new.csv', created_at: '2026-11-20T00:00:00Z' },
      ]),
    );
    const reply = await send({ type: 'executions/batches', agentId: AGENT });
    expect(reply).toEqual({
      ok: true,
      data: [
        { batchId: 'b'.repeat(32), fileName: 'new.csv', createdAt: '2026-11-20T00:00:00Z' },
        { batchId: 'a'.repeat(32), fileName: 'old.csv', createdAt: '2026-11-01T00:00:00Z' },
      ],
    });
  });

  it('answers none when the service has no batch list route, and an error for anything else', async () => {
    serve(() => json({ error: 404, message: 'Not Found' }, 404));
    expect(await send({ type: 'executions/batches', agentId: AGENT })).toEqual({ ok: true, data: [] });
    serve(() => json({ detail: 'Invalid API key' }, 403));
    expect((await send({ type: 'executions/batches', agentId: AGENT })).ok).toBe(false);
  });
});
