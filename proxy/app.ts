/**
 * The widget proxy as one Hono app on web-standard Request/Response: the same app runs under Node
 * (proxy/node.ts) and on Cloudflare Workers (proxy/worker.ts). It answers pages only: JSON, no
 * cookies, CORS for the policy's origins, a widget token on every call request whose origin must be the
 * request's own `Origin`, rate limits per token and for everyone, and it serves widget.html with
 * `frame-ancestors` limited to the same origins.
 *
 *   POST /v1/calls            WidgetCallRequest → 201 WidgetCallView (Idempotency-Key: the same call again → 200)
 *   GET  /v1/calls/:id        → WidgetCallView (only the token that placed it)
 *   POST /v1/calls/:id/stop   → WidgetCallView
 *   GET  /widget.html, /widget/<file>   the built widget (.output/widget/), when the shell provides it
 */
import { Hono, type Context } from 'hono';
import { widgetCallView } from '../lib/widget/call-view';
import { widgetCallRequest, type WidgetError } from '../lib/widget/wire';
import type { CallRecord } from '../lib/calls/call-record';
import { agentAllowed, numberAllowed, originAllowed, type Policy } from './policy';
import type { CallDesk } from './placements';
import { pageLimits, type PageLimits } from './rate-limit';
import { verifyWidgetToken, type WidgetTokenClaims } from './token';

export interface WidgetFile {
  body: Uint8Array | string;
  type: string;
}

export interface ProxyAppOptions {
  policy: Policy;
  /** The widget tokens' HMAC secret. */
  secret: string;
  /** The calls: the placements themselves (Node), or the Durable Object that holds them (Workers). */
  placements: CallDesk;
  /** The page-facing rate windows; default: in this app's memory, from the policy. */
  limits?: PageLimits;
  /** Workers: a read also runs the call's due step (the object's alarm may come a little later). */
  advanceOnRead: boolean;
  now?: () => number;
  /** The built widget's files by path (`widget.html`, `voice-agent-call.js`…); null when absent. */
  widgetFile?: (path: string) => Promise<WidgetFile | null>;
  /** Every refused request, by kind (the hostile-page table; a counter for operators). */
  onRefused?: (code: string) => void;
}

/** Bodies past this are refused unread: a call request is a few hundred bytes. */
const MAX_BODY_BYTES = 16 * 1024;
/** Variable names that would carry a credential: a page never sends one (the key lives in the proxy). */
const CREDENTIAL_NAME = /(api[_-]?key|secret|token|password|authori[sz]ation|bearer)/i;

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};
export const contentType = (path: string) => TYPES[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

export function createProxyApp(options: ProxyAppOptions): Hono {
  const { policy, placements } = options;
  const now = options.now ?? Date.now;
  const limits = options.limits ?? pageLimits(policy.limits);
  const app = new Hono();

  const corsHeaders = (origin: string): Record<string, string> => ({
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Retry-After',
    Vary: 'Origin',
  });

  const json = (body: unknown, status: number, origin: string | null, extra: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        ...(origin && policy.origins.includes(origin) ? corsHeaders(origin) : {}),
        ...extra,
      },
    });

  const refuse = (status: number, code: string, reason: string, origin: string | null, extra: Record<string, string> = {}) => {
    options.onRefused?.(code);
    return json({ error: reason, code } satisfies WidgetError, status, origin, extra);
  };

  const tooMany = (retryAfterMs: number, who: string, origin: string) =>
    refuse(429, 'rate-limited', `Too many requests ${who}: try again in ${Math.ceil(retryAfterMs / 1000)} s.`, origin, { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) });

  const view = (record: CallRecord, status: number, origin: string) => json(widgetCallView(record, { transcripts: policy.transcripts }), status, origin);

  /** Origin, global limit, token, per-token limit: what every call route needs first. */
  async function admit(c: Context): Promise<{ claims: WidgetTokenClaims; origin: string } | Response> {
    const origin = c.req.header('origin') ?? null;
    const allowed = originAllowed(policy, origin);
    if (!allowed.ok) return refuse(403, allowed.code, allowed.reason, null);
    const room = await limits.take('requests', 'all', now());
    if (!room.ok) return tooMany(room.retryAfterMs, 'to this proxy', origin!);
    if (c.req.header('cookie')) {
      // Nothing here reads cookies; a request that sends them was made with credentials, which no widget does.
      return refuse(400, 'cookies-refused', 'The proxy takes no cookies: send the widget token in Authorization.', origin);
    }
    const auth = c.req.header('authorization') ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1] ?? null;
    const check = await verifyWidgetToken(options.secret, token, origin, now());
    if (!check.ok) return refuse(check.code === 'token-origin' ? 403 : 401, check.code, check.reason, origin);
    const tokenRoom = await limits.take('tokenRequests', check.claims.id, now());
    if (!tokenRoom.ok) return tooMany(tokenRoom.retryAfterMs, 'with this widget token', origin!);
    return { claims: check.claims, origin: origin! };
  }

  async function readJson(c: Context, origin: string): Promise<{ value: unknown } | Response> {
    if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) return refuse(415, 'json-only', 'Send the request as JSON (Content-Type: application/json).', origin);
    // Refused unread when it says it is too large; measured after reading when it does not say.
    if (Number(c.req.header('content-length') ?? 0) > MAX_BODY_BYTES) return refuse(413, 'too-large', `The request is larger than ${MAX_BODY_BYTES / 1024} KB.`, origin);
    const text = await c.req.text();
    if (new TextEncoder().encode(text).length > MAX_BODY_BYTES) return refuse(413, 'too-large', `The request is larger than ${MAX_BODY_BYTES / 1024} KB.`, origin);
    try {
      return { value: JSON.parse(text) };
    } catch {
      return refuse(400, 'not-json', 'The request body is not valid JSON.', origin);
    }
  }

  app.options('/v1/*', (c) => {
    const origin = c.req.header('origin') ?? null;
    const allowed = originAllowed(policy, origin);
    if (!allowed.ok) return refuse(403, allowed.code, allowed.reason, null);
    return new Response(null, {
      status: 204,
      headers: { ...corsHeaders(origin!), 'Access-Control-Allow-Methods': 'GET, POST', 'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key', 'Access-Control-Max-Age': '600' },
    });
  });

  app.post('/v1/calls', async (c) => {
    const admitted = await admit(c);
    if (admitted instanceof Response) return admitted;
    const { claims, origin } = admitted;
    const body = await readJson(c, origin);
    if (body instanceof Response) return body;
    const parsed = widgetCallRequest.safeParse(body.value);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      return refuse(400, 'bad-request', `The call request is not valid: ${problems}.`, origin);
    }
    const request = parsed.data;
    const credential = Object.keys(request.variables).find((name) => CREDENTIAL_NAME.test(name));
    if (credential) return refuse(400, 'credential-in-body', `Variables may not carry credentials ("${credential}"): the proxy holds the key.`, origin);
    for (const decision of [agentAllowed(policy, claims.agents, request.agentId), numberAllowed(policy, request.toNumber)]) {
      if (!decision.ok) return refuse(403, decision.code, decision.reason, origin);
    }
    // A resent request (its answer was lost on the way to the page) is the same call, not a second one.
    const intent = c.req.header('idempotency-key');
    if (intent !== undefined && !/^[A-Za-z0-9_-]{8,64}$/.test(intent)) return refuse(400, 'bad-request', 'Idempotency-Key must be 8 to 64 letters, digits, - or _.', origin);
    const earlier = intent ? await placements.byIntent(claims.id, intent) : undefined;
    if (earlier) {
      if (earlier.agentId !== request.agentId || earlier.toNumber !== request.toNumber) return refuse(409, 'idempotency-key-reused', 'This Idempotency-Key was used for another call.', origin);
      return view(earlier, 200, origin);
    }
    const callRoom = await limits.take('calls', 'all', now());
    if (!callRoom.ok) return tooMany(callRoom.retryAfterMs, 'for calls through this proxy', origin);
    const tokenCallRoom = await limits.take('tokenCalls', claims.id, now());
    if (!tokenCallRoom.ok) return tooMany(tokenCallRoom.retryAfterMs, 'for calls with this widget token', origin);
    const record = await placements.place(request, { tokenId: claims.id, who: claims.who ?? null, origin }, intent);
    return view(record, 201, origin);
  });

  app.get('/v1/calls/:id', async (c) => {
    const admitted = await admit(c);
    if (admitted instanceof Response) return admitted;
    const id = c.req.param('id');
    let record = await placements.get(id, admitted.claims.id);
    if (!record) return refuse(404, 'not-found', 'No call with this id was placed with this widget token.', admitted.origin);
    if (options.advanceOnRead) record = (await placements.stepIfDue(id)) ?? record;
    return view(record, 200, admitted.origin);
  });

  app.post('/v1/calls/:id/stop', async (c) => {
    const admitted = await admit(c);
    if (admitted instanceof Response) return admitted;
    const id = c.req.param('id');
    const record = await placements.stop(id, admitted.claims.id);
    if (!record) return refuse(404, 'not-found', 'No call with this id was placed with this widget token.', admitted.origin);
    return view(record, 200, admitted.origin);
  });

  // The widget page for CRM frames, and its scripts: framed only by the policy's origins.
  app.get('/widget.html', (c) => serveWidget(c, 'widget.html'));
  app.get('/widget/*', (c) => serveWidget(c, c.req.path.slice('/widget/'.length)));

  async function serveWidget(c: Context, path: string): Promise<Response> {
    const origin = c.req.header('origin') ?? null;
    if (!options.widgetFile || !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(path) || path.split('/').includes('..')) {
      return json({ error: 'Not found.', code: 'not-found' }, 404, origin);
    }
    const file = await options.widgetFile(path);
    if (!file) return json({ error: 'The widget is not built here (its build puts it in .output/widget/).', code: 'not-found' }, 404, origin);
    const headers: Record<string, string> = { 'Content-Type': file.type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };
    if (file.type.startsWith('text/html')) headers['Content-Security-Policy'] = `frame-ancestors 'self' ${policy.origins.join(' ')}`;
    // Module scripts loaded from another origin need CORS.
    if (origin && policy.origins.includes(origin)) Object.assign(headers, corsHeaders(origin));
    return new Response(file.body as BodyInit, { status: 200, headers });
  }

  app.get('/', (c) => json({ service: 'voice-agent widget proxy', routes: ['POST /v1/calls', 'GET /v1/calls/:id', 'POST /v1/calls/:id/stop', 'GET /widget.html'] }, 200, c.req.header('origin') ?? null));
  app.notFound((c) => json({ error: 'Not found.', code: 'not-found' }, 404, c.req.header('origin') ?? null));
  app.onError((error, c) => {
    // Never the stack, never anything from the environment: a plain sentence.
    console.error('proxy: unexpected error', error instanceof Error ? error.message : String(error));
    return json({ error: 'The proxy failed unexpectedly.', code: 'proxy-error' }, 500, c.req.header('origin') ?? null);
  });
  return app;
}
