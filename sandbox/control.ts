/**
 * Test-only controls under `/__sandbox/`. They are not part of the service, and answer only
 * requests from loopback (127.0.0.0/8, ::1); anything else gets the route 404. No API key needed.
 * Control requests are not counted in the request log.
 *
 *   GET    /__sandbox/                 this list
 *   POST   /__sandbox/reset            reseed accounts, clear state, timers, faults, logs, rate limits
 *   POST   /__sandbox/faults           arm a fault: JSON {method?, path (regex on the path, no query),
 *                                      status?, count (default 1), drop? (destroy the socket without
 *                                      answering), dropAfter? (run the route, then destroy the socket
 *                                      instead of answering: a lost answer), delayMs?, retryAfter?
 *                                      (seconds, sent as Retry-After),
 *                                      body? (answer this JSON instead of {error, message})}.
 *                                      The next `count` matching requests take it: delay first, then
 *                                      drop, or answer `status`; a fault with neither only delays.
 *                                      Answers {fault}.
 *   POST   /__sandbox/faults/release   requests held by a fault's delayMs go on now (a long delay
 *                                      holds a request open until this): {released: n}
 *   GET    /__sandbox/faults           armed faults {faults: [...]} with their remaining counts
 *   DELETE /__sandbox/faults           disarm all
 *   GET    /__sandbox/requests         log since the last reset: [{method, path, query?, status, at, ms,
 *                                      account?, fault?, body? (a write's JSON body)}]; status 0 = dropped. Filters: ?method=GET,
 *                                      ?path=<regex>
 *   DELETE /__sandbox/requests         clear the log only
 *   GET    /__sandbox/events           execution status changes [{execution_id, status, at}] (?execution_id=)
 *   GET    /__sandbox/webhooks         webhook deliveries attempted: [{id, url, execution_id, status,
 *                                      at, outcome (pending|delivered|failed), http_status, error, ms, body}]
 *   GET    /__sandbox/clock            {speed, now, pending_timers}
 *   POST   /__sandbox/wallet           JSON {account: 'A'|'B'|'C', wallet: number (dollars)}: sets the balance
 *                                      GET /user/me answers (and calls are checked against) → {account, wallet}
 *   POST   /__sandbox/clock            JSON {speed?: number (> 0; applies to waits armed from now on),
 *                                      advance?: true (fire every pending timer now: each call and
 *                                      batch moves one step)} → same as GET
 */
import { z } from '../lib/api/zod';
import { ROUTE_NOT_FOUND_MESSAGE, errorBody } from './errors';
import type { Runtime } from './runtime';
import type { SandboxContext } from './router';

export const CONTROL_PREFIX = '/__sandbox';

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  return a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.');
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const clockBody = z.strictObject({ speed: z.number().positive().max(100_000).optional(), advance: z.boolean().optional() });

const walletBody = z.strictObject({ account: z.enum(['A', 'B', 'C']), wallet: z.number().finite().min(-1e9).max(1e9) });

const INDEX = [
  'POST /__sandbox/reset',
  'POST /__sandbox/faults',
  'POST /__sandbox/faults/release',
  'GET /__sandbox/faults',
  'DELETE /__sandbox/faults',
  'GET /__sandbox/requests',
  'DELETE /__sandbox/requests',
  'GET /__sandbox/webhooks',
  'GET /__sandbox/events',
  'GET /__sandbox/clock',
  'POST /__sandbox/clock',
  'POST /__sandbox/wallet',
];

async function jsonBody(c: SandboxContext): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  return JSON.parse(text);
}

export async function handleControl(c: SandboxContext, rt: Runtime, path: string, method: string, reset: () => void): Promise<Response> {
  const remote = c.env?.incoming?.socket?.remoteAddress;
  if (!isLoopback(remote)) return json(errorBody(404, ROUTE_NOT_FOUND_MESSAGE), 404);
  const sub = path.slice(CONTROL_PREFIX.length).replace(/^\/+/, '');
  const route = `${method} ${sub}`;
  try {
    switch (route) {
      case 'GET ':
        return json({ controls: INDEX });
      case 'POST reset':
        reset();
        return json({ message: 'success', state: 'reset' });
      case 'POST faults': {
        const parsed = await jsonBody(c);
        const fault = rt.faults.add(parsed);
        const { regex: _regex, ...visible } = fault;
        return json({ fault: visible });
      }
      case 'POST faults/release':
        return json({ released: rt.timers.wakeSleepers() });
      case 'GET faults':
        return json({ faults: rt.faults.armed() });
      case 'DELETE faults':
        rt.faults.clear();
        return json({ message: 'success', state: 'cleared' });
      case 'GET requests': {
        const url = new URL(c.req.url);
        const method = url.searchParams.get('method')?.toUpperCase();
        const pathRe = url.searchParams.get('path');
        const re = pathRe ? new RegExp(pathRe) : undefined;
        return json(rt.store.requests.filter((r) => (!method || r.method === method) && (!re || re.test(r.path))));
      }
      case 'DELETE requests':
        rt.store.requests = [];
        return json({ message: 'success', state: 'cleared' });
      case 'GET webhooks':
        return json(rt.webhooks.deliveries);
      case 'GET events': {
        const id = new URL(c.req.url).searchParams.get('execution_id');
        return json(rt.store.statusEvents.filter((e) => !id || e.execution_id === id));
      }
      case 'GET clock':
        return json({ speed: rt.options.speed, now: new Date().toISOString(), pending_timers: rt.timers.size });
      case 'POST clock': {
        const body = clockBody.parse(await jsonBody(c));
        if (body.speed !== undefined) rt.options.speed = body.speed;
        if (body.advance) rt.timers.fireAll();
        return json({ speed: rt.options.speed, now: new Date().toISOString(), pending_timers: rt.timers.size });
      }
      case 'POST wallet': {
        const body = walletBody.parse(await jsonBody(c));
        const account = rt.store.accounts.get(body.account);
        if (!account) return json(errorBody(404, `Account ${body.account} not found`), 404);
        account.wallet = body.wallet;
        return json({ account: body.account, wallet: account.wallet });
      }
      default:
        return json(errorBody(404, ROUTE_NOT_FOUND_MESSAGE), 404);
    }
  } catch (err) {
    const message =
      err instanceof z.ZodError
        ? err.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')
        : err instanceof Error
          ? err.message
          : String(err);
    return json(errorBody(400, message), 400);
  }
}
