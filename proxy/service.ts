/**
 * The proxy's client of the service: the project's API client (lib/api/client.ts) with the key from
 * the environment, reading the service's clock like the extension's, behind the proxy's own budget of
 * service requests per minute. Over budget, the request is not sent: the engine sees a 429 with
 * Retry-After, as from the service, and waits — so the proxy stays under the service's own limit.
 */
import { clockReadingFetch } from '../lib/api/clock';
import { createClient } from '../lib/api/client';
import type { PlacementClient } from '../lib/placement/client';
import { MinuteLimiter } from './rate-limit';

export interface ServiceClient extends PlacementClient {
  /** Requests sent to the service so far (the budget's refusals are not sent, so not counted). */
  requestsSent(): number;
}

export function serviceClient(options: { baseUrl: string; apiKey: string; perMinute: number; fetch?: typeof fetch; now?: () => number }): ServiceClient {
  const budget = new MinuteLimiter(options.perMinute);
  const now = options.now ?? Date.now;
  const inner = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let sent = 0;
  const budgeted: typeof fetch = async (input, init) => {
    const room = budget.take('service', now());
    if (!room.ok) {
      // Said as the proxy's own 429 (the status in the text, so nobody blames the service for it).
      const body = { error: 429, message: `The proxy's own budget of ${options.perMinute} service requests a minute is spent (429 from the proxy, not the service).` };
      return new Response(JSON.stringify(body), { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': String(Math.ceil(room.retryAfterMs / 1000)) } });
    }
    sent++;
    return inner(input, init);
  };
  const { fetch: reading, clock } = clockReadingFetch(budgeted);
  return Object.assign(createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: reading }), clock, { requestsSent: () => sent });
}
