/**
 * Sliding one-minute windows: per token and for the whole proxy, on what pages ask and on what the
 * proxy asks of the service. Counts live in memory (one process, or one Workers isolate).
 */
const MINUTE = 60_000;

export class MinuteLimiter {
  private hits = new Map<string, number[]>();

  constructor(private readonly perMinute: number) {}

  /** Counts one hit for `key` if the window has room; else answers how long until it has (ms). */
  take(key: string, now: number): { ok: true } | { ok: false; retryAfterMs: number } {
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
