/**
 * What the request log keeps of a request's JSON body, so a test can check exactly what a client
 * sent (e.g. that a PATCH carries only the change). Secrets in the body are masked; large bodies and
 * forms (batches' CSVs) are not kept.
 */
import type { SandboxContext } from './router';

const MAX_LOGGED_BODY = 64 * 1024;
const SECRET_KEYS = new Set(['source_auth_token']);

function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.has(k) ? '<redacted>' : masked(v)]));
}

/** The parsed JSON body of a write, or undefined. Hono caches the text, so routes still read it. */
export async function loggedJsonBody(c: SandboxContext, method: string): Promise<unknown> {
  if (method === 'GET' || method === 'OPTIONS' || method === 'HEAD') return undefined;
  if (!/application\/json/i.test(c.req.header('content-type') ?? '')) return undefined;
  try {
    const text = await c.req.text();
    if (!text.trim() || text.length > MAX_LOGGED_BODY) return undefined;
    return masked(JSON.parse(text));
  } catch {
    return undefined; // the route answers the bad body itself
  }
}
