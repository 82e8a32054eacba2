/**
 * The sandbox: a local HTTP server that behaves like the hosted voice-agent service, in the spec's
 * form, the live form, or both (see routes/ and /work/shared/notes/service-facts.md).
 *
 * Request pipeline, in order: test controls (/__sandbox/, loopback only) → CORS preflight →
 * injected faults → route lookup (route 404 / 405 before anything else, like a framework would) →
 * API key (401) → rate limit per key (429 + Retry-After) → read-only key on a write (403) →
 * handler. Every 4xx/5xx is JSON {error, message}.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { authenticate, RateLimiter } from './auth';
import { CONTROL_PREFIX, handleControl } from './control';
import { ApiError, errorBody, forbidden, internalError, methodNotAllowed, routeNotFound } from './errors';
import { Faults } from './faults';
import type { AccountLetter, KeyGrant } from './keys';
import { NEXT, normalizePath, resolveRoute, type HonoEnv, type Reply, type RouteCtx, type RoutesMode, type SandboxContext } from './router';
import { loggedJsonBody } from './request-log';
import { ROUTES } from './routes';
import type { Runtime, SandboxOptions } from './runtime';
import { seedStore } from './seed';
import { MAX_LOG_ENTRIES, Store } from './store';
import { Timers } from './timers';
import { Webhooks } from './webhooks';

export type { SandboxOptions } from './runtime';

export interface Sandbox {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). */
  url: string;
  close(): Promise<void>;
  /** Reseeds and clears state, timers, faults, logs and rate limits (as POST /__sandbox/reset). */
  reset(): void;
  /** The options in effect; `port` is the bound port. */
  options: Required<SandboxOptions>;
}

const ROUTE_MODES: readonly RoutesMode[] = ['spec', 'live', 'both'];

export function resolveOptions(opts: SandboxOptions = {}): Required<SandboxOptions> {
  const resolved = {
    port: opts.port ?? 0,
    host: opts.host ?? '127.0.0.1',
    speed: opts.speed ?? 1,
    routes: opts.routes ?? 'both',
    rateLimitPerMinute: opts.rateLimitPerMinute ?? 1000,
    log: opts.log ?? (() => undefined),
  } satisfies Required<SandboxOptions>;
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65535) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${resolved.port}`);
  }
  if (!resolved.host.trim()) throw new RangeError('host must not be empty');
  if (!Number.isFinite(resolved.speed) || resolved.speed <= 0) throw new RangeError(`speed must be a number above 0, got ${resolved.speed}`);
  if (!ROUTE_MODES.includes(resolved.routes)) throw new RangeError(`routes must be spec, live or both, got ${String(resolved.routes)}`);
  if (!Number.isInteger(resolved.rateLimitPerMinute) || resolved.rateLimitPerMinute < 1) {
    throw new RangeError(`rateLimitPerMinute must be a positive integer, got ${resolved.rateLimitPerMinute}`);
  }
  return resolved;
}

const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After, Allow, Content-Length, X-Sandbox-Speed',
};

/**
 * CORS on every answer, and the sandbox clock's speed: waits run `speed` times faster than the real
 * clock, so a client that reads X-Sandbox-Speed can place its countdown correctly. The real service
 * sends no such header (speed 1).
 */
function withCors(res: Response, speed: number): Response {
  for (const [name, value] of Object.entries(CORS_HEADERS)) res.headers.set(name, value);
  res.headers.set('X-Sandbox-Speed', String(speed));
  return res;
}

const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const errorResponse = (err: ApiError) => jsonResponse(err.status, err.body(), err.headers);

function preflight(c: SandboxContext): Response {
  const asked = c.req.header('access-control-request-headers');
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      // Authorization and Content-Type always; echo whatever else the browser asks for.
      'Access-Control-Allow-Headers': ['Authorization', 'Content-Type', asked].filter(Boolean).join(', '),
      'Access-Control-Max-Age': '600',
    },
  });
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const options = resolveOptions(opts);
  const rt: Runtime = {
    store: new Store(),
    timers: new Timers(),
    webhooks: new Webhooks(),
    faults: new Faults(),
    limiter: new RateLimiter(options.rateLimitPerMinute),
    options,
    baseUrl: '',
    secret: randomBytes(16).toString('hex'),
    scaled: (ms) => ms / rt.options.speed,
  };
  seedStore(rt.store);

  const reset = () => {
    rt.timers.clearAll();
    rt.webhooks.reset();
    rt.faults.clear();
    rt.limiter.reset();
    seedStore(rt.store);
  };

  /** Finds the route, checks key, rate limit and permission, runs the handler. */
  async function dispatch(c: SandboxContext, method: string, path: string, url: URL, seen: { account?: AccountLetter }): Promise<Response> {
    const { matches, allow } = resolveRoute(ROUTES, rt.options.routes, method, path);
    if (matches.length === 0) throw allow.length ? methodNotAllowed(allow) : routeNotFound();
    let grant: KeyGrant | undefined;
    if (!matches[0]!.def.public) {
      grant = authenticate(c.req.header('authorization'), rt.options.routes === 'live');
      seen.account = grant.account;
      const limit = rt.limiter.hit(grant.key);
      if (!limit.ok) {
        throw new ApiError(429, 'Too many requests: rate limit exceeded, retry later', { 'Retry-After': String(limit.retryAfterSeconds) });
      }
    }
    for (const { def, params } of matches) {
      if (def.write && grant?.readOnly) throw forbidden('This API key is read-only: writes are not allowed');
      const account = grant ? rt.store.account(grant.account) : undefined;
      const ctx: RouteCtx = {
        c,
        rt,
        url,
        params,
        get account() {
          if (!account) throw new Error(`${def.id} is public and has no account`);
          return account;
        },
        get grant() {
          if (!grant) throw new Error(`${def.id} is public and has no key`);
          return grant;
        },
      };
      const out = await def.handler(ctx);
      if (out === NEXT) continue;
      if (out instanceof Response) return out;
      const reply = out as Reply;
      return jsonResponse(reply.status ?? 200, reply.body, reply.headers);
    }
    throw routeNotFound();
  }

  const app = new Hono<HonoEnv>();
  app.all('*', async (c) => {
    const started = Date.now();
    const url = new URL(c.req.url);
    const path = normalizePath(url.pathname);
    const method = c.req.method.toUpperCase();
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      return withCors(await handleControl(c, rt, path, method, reset), rt.options.speed);
    }
    const seen: { account?: AccountLetter; fault?: boolean } = {};
    const body = await loggedJsonBody(c, method);
    const record = (status: number) => {
      const ms = Date.now() - started;
      if (rt.store.requests.length >= MAX_LOG_ENTRIES) rt.store.requests.splice(0, rt.store.requests.length - MAX_LOG_ENTRIES + 1);
      rt.store.requests.push({
        method,
        path,
        ...(url.search ? { query: url.search.slice(1) } : {}),
        status,
        at: new Date(started).toISOString(),
        ms,
        ...(seen.account ? { account: seen.account } : {}),
        ...(seen.fault ? { fault: true } : {}),
        ...(body !== undefined ? { body } : {}),
      });
      rt.options.log(`${method} ${path}${url.search} → ${status || 'dropped'} (${ms} ms)${seen.fault ? ' [fault]' : ''}`);
    };

    if (method === 'OPTIONS') {
      record(204);
      return withCors(preflight(c), rt.options.speed);
    }

    const fault = rt.faults.take(method, path);
    // Destroying the socket makes the client see a network error, as with a dropped connection.
    const dropConnection = () => {
      record(0);
      c.env?.incoming?.socket?.destroy();
      return new Response(null, { status: 500 });
    };
    if (fault) {
      seen.fault = true;
      if (fault.delayMs) await rt.timers.sleep(fault.delayMs);
      if (fault.drop) return dropConnection();
      if (fault.status && !fault.dropAfter) {
        const headers: Record<string, string> = fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {};
        const body = fault.body !== undefined ? fault.body : errorBody(fault.status, `injected fault ${fault.status}`);
        record(fault.status);
        return withCors(jsonResponse(fault.status, body, headers), rt.options.speed);
      }
    }

    let res: Response;
    try {
      res = await dispatch(c, method, path, url, seen);
    } catch (err) {
      if (err instanceof ApiError) res = errorResponse(err);
      else {
        rt.options.log(`internal error on ${method} ${path}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        res = errorResponse(internalError());
      }
    }
    // The route ran (a batch was made, a schedule taken); only its answer is lost: the status line and
    // a first byte go out, then the connection is cut. (A connection closed before any byte would be
    // retried by a browser by itself, and the retry would be answered.)
    if (fault?.dropAfter) {
      record(0);
      const out = c.env?.outgoing;
      const socket = c.env?.incoming?.socket;
      if (!out || !socket) return new Response(null, { status: 500 });
      // Promises more body than is sent, then cuts the connection once the first byte has gone out.
      out.writeHead(res.status, { ...CORS_HEADERS, 'Content-Type': 'application/json', 'Content-Length': '1024', 'X-Sandbox-Speed': String(rt.options.speed) });
      out.write('{', () => socket.destroy());
      return RESPONSE_ALREADY_SENT;
    }
    record(res.status);
    return withCors(res, rt.options.speed);
  });

  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as Server;
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  // A client that drops mid-request must not crash the process.
  server.on('clientError', (_err, socket) => socket.destroy());

  const address = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  options.port = address.port;
  rt.baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${address.port}`;

  let closed: Promise<void> | undefined;
  return {
    url: rt.baseUrl,
    options,
    reset,
    close() {
      closed ??= new Promise<void>((resolve) => {
        rt.timers.clearAll();
        rt.webhooks.reset();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
