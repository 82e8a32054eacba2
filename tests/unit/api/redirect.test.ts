/**
 * Requests that carry the key never follow a redirect (docs/security.md). Real HTTP on loopback:
 * one server answers every request with a redirect; the place it points to is another server (another
 * port: another origin) or another path of the same server, and each records whether the key arrived.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api/errors';
import { createHttp } from '../../../lib/api/http';
import { z } from '../../../lib/api/zod';

const KEY = 'va_redirect_secret_123';

interface Recorder {
  server: Server;
  url: string;
  /** Headers of every request that reached the place a redirect pointed to. */
  arrived: IncomingHttpHeaders[];
}

function listen(handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

let target: Recorder;
let redirector: Recorder;

beforeAll(async () => {
  const arrivedAtTarget: IncomingHttpHeaders[] = [];
  const t = await listen((req, res) => {
    arrivedAtTarget.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  });
  target = { ...t, arrived: arrivedAtTarget };
  const arrivedAtMoved: IncomingHttpHeaders[] = [];
  const r = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/moved')) {
      arrivedAtMoved.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
      return;
    }
    const status = Number(url.searchParams.get('status') ?? 302);
    const where = url.searchParams.get('to') === 'same' ? '/moved/v2/agent/all' : `${target.url}/v2/agent/all`;
    res.writeHead(status, { location: where, 'content-type': 'application/json' }).end(JSON.stringify({ moved: true }));
  });
  redirector = { ...r, arrived: arrivedAtMoved };
});

afterAll(async () => {
  for (const s of [target.server, redirector.server]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

const http = () => createHttp({ baseUrl: redirector.url, apiKey: KEY, retry: { maxRetries: 0 } });
const schema = z.looseObject({ ok: z.boolean() });

describe('a request that carries the key meets a redirect', () => {
  it.each([301, 302, 303, 307, 308])('%i to another origin: an error naming where it pointed, and nothing reaches it', async (status) => {
    target.arrived.length = 0;
    const error = await http()
      .request({ method: 'GET', path: '/v2/agent/all', query: { status }, schema })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.kind).toBe('redirect');
    expect(apiError.status).toBe(status);
    expect(apiError.message).toContain(`${target.url}/v2/agent/all`);
    expect(apiError.message).not.toContain(KEY);
    // Not followed at all: the other server saw no request, so no key either.
    expect(target.arrived).toEqual([]);
  });

  it('to another path of the same origin: not followed either (the key would go along)', async () => {
    redirector.arrived.length = 0;
    const error = (await http()
      .request({ method: 'POST', path: '/v2/batch', query: { status: 307, to: 'same' }, json: { a: 1 }, schema })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('redirect');
    expect(error.message).toContain(`${redirector.url}/moved/v2/agent/all`);
    expect(redirector.arrived).toEqual([]);
  });

  it('is not retried, even for a GET', async () => {
    target.arrived.length = 0;
    const retrying = createHttp({ baseUrl: redirector.url, apiKey: KEY, retry: { maxRetries: 3, baseDelayMs: 1 } });
    const error = (await retrying.request({ method: 'GET', path: '/x', query: { status: 302 }, schema }).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('redirect');
    expect(target.arrived).toEqual([]);
  });

  it("in a browser the address is hidden (an opaque redirect): the error says a redirect happened and what to check", async () => {
    // What fetch gives a browser for redirect: 'manual' (Response.type 'opaqueredirect', status 0, no headers).
    const opaque = { type: 'opaqueredirect', status: 0, ok: false, statusText: '', headers: new Headers(), body: null, redirected: false } as unknown as Response;
    let init: RequestInit | undefined;
    const browserLike = createHttp({
      baseUrl: 'https://api.example.test',
      apiKey: KEY,
      fetch: async (_input, given) => {
        init = given;
        return opaque;
      },
    });
    const error = (await browserLike.request({ method: 'GET', path: '/v2/agent/all', schema }).catch((e: unknown) => e)) as ApiError;
    expect(init?.redirect).toBe('manual');
    expect(error.kind).toBe('redirect');
    expect(error.message).toMatch(/redirect/i);
    expect(error.message).toContain('https://api.example.test');
  });
});
