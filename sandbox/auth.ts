/** API keys (Authorization: Bearer) and the per-key rate limit. */
import { keyRefused } from './errors';
import { grantFor, type KeyGrant } from './keys';

/** `live`: refuse as the live service does (403 `{detail}`), else as the spec says (401). */
export function authenticate(header: string | undefined, live = false): KeyGrant {
  if (!header || !header.trim()) throw keyRefused('Missing API key: send Authorization: Bearer <key>', live);
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  if (!m) throw keyRefused('Malformed Authorization header: expected Bearer <key>', live);
  const grant = grantFor(m[1]!);
  if (!grant) throw keyRefused('Invalid API key', live);
  return grant;
}

/**
 * Sliding one-minute window per key, on the real clock (speed does not change rate limits).
 * The live service documents no rate headers; the sandbox sends Retry-After so clients can honour it.
 */
export class RateLimiter {
  private hits = new Map<string, number[]>();
  constructor(public perMinute: number) {}

  /** Counts a request; returns the seconds to wait when over the limit. */
  hit(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const windowStart = now - 60_000;
    const recent = (this.hits.get(key) ?? []).filter((t) => t > windowStart);
    if (recent.length >= this.perMinute) {
      this.hits.set(key, recent);
      const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]! + 60_000 - now) / 1000));
      return { ok: false, retryAfterSeconds };
    }
    recent.push(now);
    this.hits.set(key, recent);
    return { ok: true };
  }

  reset(): void {
    this.hits.clear();
  }
}
