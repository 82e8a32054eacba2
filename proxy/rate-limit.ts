/**
 * Sliding one-minute windows: per token and for the whole proxy, on what pages ask and on what the
 * proxy asks of the service. Counts live in memory: the Node process's, or on Workers the memory of
 * the one Durable Object every isolate asks (proxy/durable-calls.ts).
 */
import type { Policy } from './policy';

const MINUTE = 60_000;

export type Room = { ok: true } | { ok: false; retryAfterMs: number };

export class MinuteLimiter {
  private hits = new Map<string, number[]>();

  constructor(private readonly perMinute: number) {}

  /** Counts one hit for `key` if the window has room; else answers how long until it has (ms). */
  take(key: string, now: number): Room {
    const recent = (this.hits.get(key) ?? []).filter((at) => at > now - MINUTE);
    if (recent.length >= this.perMinute) {
      this.hits.set(key, recent);
      return { ok: false, retryAfterMs: Math.max(1, recent[0]! + MINUTE - now) };
    }
    recent.push(now);
    this.hits.set(key, recent);
    // Windows of tokens gone quiet are dropped, so the map does not grow with every token ever seen.
    if (this.hits.size > 10_000) for (const [k, times] of this.hits) if (!times.some((at) => at > now - MINUTE)) this.hits.delete(k);
    return { ok: true };
  }
}

/** The page-facing windows by name: `requests` and `calls` for the whole proxy, `token…` per widget token. */
export type PageWindow = 'requests' | 'tokenRequests' | 'calls' | 'tokenCalls';

/** What the app asks of the windows: kept here (Node), or in the Durable Object (Workers). */
export interface PageLimits {
  take(window: PageWindow, key: string, now: number): Room | Promise<Room>;
}

export function pageLimits(limits: Policy['limits']): PageLimits {
  const windows: Record<PageWindow, MinuteLimiter> = {
    requests: new MinuteLimiter(limits.requestsPerMinute),
    tokenRequests: new MinuteLimiter(limits.tokenRequestsPerMinute),
    calls: new MinuteLimiter(limits.callsPerMinute),
    tokenCalls: new MinuteLimiter(limits.tokenCallsPerMinute),
  };
  return { take: (window, key, now) => windows[window].take(key, now) };
}
