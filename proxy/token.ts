/**
 * Widget tokens: short-lived, signed permissions for one page origin and its agents. The proxy mints
 * them (the `token` command) or the integrator's own backend does (`mintWidgetToken`, the same code);
 * the page only ever holds the token, never the key. HMAC-SHA256 through WebCrypto, so the same module
 * runs on Node and on Cloudflare Workers.
 *
 *   vat1.<claims, base64url JSON>.<HMAC-SHA256 of "vat1.<claims>", base64url>
 *
 * Replaying a token within its minutes is allowed (the widget reads a call many times); after expiry,
 * from another origin, or with a changed byte, it is refused.
 */

import { isLoopbackUrl } from '../lib/settings/checks';

const PREFIX = 'vat1';
/** Tokens live minutes, never hours: a copied token is worth little for long. */
export const MAX_TOKEN_MINUTES = 60;
/** The secret must be long enough that guessing it is out of reach (32 characters ≈ 192 bits of base64). */
export const MIN_SECRET_LENGTH = 32;

export interface WidgetTokenClaims {
  /** The token's own id: what the audit log and the rate limits name. */
  id: string;
  /** The one page origin that may use it (scheme://host[:port]). */
  origin: string;
  /** The agents it may call with. */
  agents: string[];
  /** Who it was minted for (a tester, a CRM user id), shown in the audit log; optional. */
  who?: string;
  /** Issued and expiry times, ms since the epoch. */
  iat: number;
  exp: number;
}

export interface MintOptions {
  origin: string;
  agents: string[];
  minutes: number;
  who?: string;
  now?: number;
}

export type TokenRefusal = { ok: false; code: 'token-missing' | 'token-malformed' | 'token-signature' | 'token-expired' | 'token-origin'; reason: string };
export type TokenCheck = { ok: true; claims: WidgetTokenClaims } | TokenRefusal;

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * A page origin as a browser sends it in `Origin` (scheme://host[:port], lower case, default port
 * dropped), or null. HTTPS, or plain HTTP on a loopback host only: the project's one host rule.
 */
export function normalOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url))) return null;
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  return url.origin;
}

function checkSecret(secret: string): void {
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`The token secret must be at least ${MIN_SECRET_LENGTH} characters long (VOICE_AGENT_PROXY_SECRET).`);
  }
}

const keys = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, key);
  }
  return key;
}

/**
 * Mints a token for one origin and its agents, valid `minutes` (1–60). For the integrator's backend:
 * call it behind your own login and hand the token to the page that shows `<voice-agent-call>`.
 */
export async function mintWidgetToken(secret: string, options: MintOptions): Promise<{ token: string; claims: WidgetTokenClaims }> {
  checkSecret(secret);
  const origin = normalOrigin(options.origin);
  if (!origin) throw new Error(`"${options.origin}" is not a page origin such as https://crm.example (scheme, host and port only; plain http only on loopback).`);
  const agents = [...new Set(options.agents.map((a) => a.trim()).filter(Boolean))];
  if (agents.length === 0) throw new Error('A token needs at least one agent id.');
  if (!Number.isFinite(options.minutes) || options.minutes <= 0 || options.minutes > MAX_TOKEN_MINUTES) {
    throw new Error(`A token lives from a few seconds up to ${MAX_TOKEN_MINUTES} minutes; ${options.minutes} was asked.`);
  }
  const iat = options.now ?? Date.now();
  const claims: WidgetTokenClaims = { id: crypto.randomUUID(), origin, agents, ...(options.who ? { who: options.who } : {}), iat, exp: iat + Math.round(options.minutes * 60_000) };
  const body = `${PREFIX}.${base64url(encoder.encode(JSON.stringify(claims)))}`;
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(body)));
  return { token: `${body}.${base64url(signature)}`, claims };
}

function isClaims(value: unknown): value is WidgetTokenClaims {
  const c = value as WidgetTokenClaims;
  return (
    typeof c === 'object' && c !== null &&
    typeof c.id === 'string' && typeof c.origin === 'string' &&
    Array.isArray(c.agents) && c.agents.every((a) => typeof a === 'string') &&
    (c.who === undefined || typeof c.who === 'string') &&
    Number.isFinite(c.iat) && Number.isFinite(c.exp)
  );
}

/**
 * Checks a token for a request from `origin` (the request's `Origin` header). The signature is checked
 * first (WebCrypto's verify compares in constant time), so nothing of a forged token is believed.
 */
export async function verifyWidgetToken(secret: string, token: string | null | undefined, origin: string | null, now: number = Date.now()): Promise<TokenCheck> {
  checkSecret(secret);
  if (!token) return { ok: false, code: 'token-missing', reason: 'No widget token: send Authorization: Bearer <token>.' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) return { ok: false, code: 'token-malformed', reason: 'The widget token is not one this proxy issues.' };
  const payload = fromBase64url(parts[1]!);
  const signature = fromBase64url(parts[2]!);
  if (!payload || !signature) return { ok: false, code: 'token-malformed', reason: 'The widget token is not one this proxy issues.' };
  const valid = await crypto.subtle.verify('HMAC', await hmacKey(secret), signature, encoder.encode(`${parts[0]}.${parts[1]}`));
  if (!valid) return { ok: false, code: 'token-signature', reason: 'The widget token’s signature does not match: it was changed or signed with another secret.' };
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return { ok: false, code: 'token-malformed', reason: 'The widget token is not one this proxy issues.' };
  }
  if (!isClaims(claims)) return { ok: false, code: 'token-malformed', reason: 'The widget token is not one this proxy issues.' };
  if (now >= claims.exp) return { ok: false, code: 'token-expired', reason: 'The widget token has expired: the page needs a new one.' };
  if (!origin || origin !== claims.origin) {
    return { ok: false, code: 'token-origin', reason: `The widget token belongs to ${claims.origin}, not to ${origin ?? 'a request without an Origin'}.` };
  }
  return { ok: true, claims };
}
