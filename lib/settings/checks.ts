/**
 * Checks on what a person types in the setup form, with no zod in them, so the popup can import them.
 */
import { t } from '../i18n';

/** The local sandbox the extension talks to out of the box. */
export const SANDBOX_BASE_URL = 'http://127.0.0.1:8787';

/**
 * Loopback hosts may use plain HTTP (the local sandbox); everything else must be HTTPS. Decided on the
 * host as the URL parser leaves it (which turns 0x7f.1 or 2130706433 into 127.0.0.1 and compresses
 * IPv6), never by a prefix: `127.evil.example` is a domain name anyone can point anywhere.
 */
export function isLoopbackUrl(url: URL): boolean {
  return isLoopbackHost(url.hostname);
}

/** `localhost` (also written with its root dot), 127.0.0.0/8, `::1`, and 127.0.0.0/8 mapped into IPv6. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === 'localhost.') return true;
  const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (ipv4) return ipv4.slice(1).every((part) => Number(part) <= 255) && ipv4[1] === '127';
  if (host === '[::1]') return true;
  // The parser writes ::ffff:127.a.b.c as ::ffff:7fXX:XXXX.
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}

export type BaseUrlCheck = { ok: true; baseUrl: string; origin: string } | { ok: false; error: string; notHttps?: true };

/** Normalises a typed base URL (no trailing slash) and refuses what the extension will not talk to. */
export function checkBaseUrl(text: string): BaseUrlCheck {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, error: t('settings_enterBaseUrl') };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, error: t('settings_notAUrl', trimmed) };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, error: t('settings_mustStartHttps') };
  }
  if (url.protocol === 'http:' && !isLoopbackUrl(url)) {
    return { ok: false, error: t('settings_mustUseHttps'), notHttps: true };
  }
  if (url.username || url.password) return { ok: false, error: t('settings_keyNotInUrl') };
  const path = url.pathname.replace(/\/+$/, '');
  return { ok: true, baseUrl: `${url.origin}${path}`, origin: url.origin };
}

/** Masked key for display: never more than the last four characters. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '••••••••' : `••••••••${key.slice(-4)}`;
}

/** Pasted keys often carry spaces, quotes or a "Bearer " prefix: strip them, and refuse what cannot be a key. */
export function cleanApiKey(text: string): { ok: true; key: string } | { ok: false; error: string; notHttps?: true } {
  const key = text.trim().replace(/^Bearer\s+/i, '').replace(/^["']|["']$/g, '').trim();
  if (!key) return { ok: false, error: t('settings_pasteKey') };
  if (/\s/.test(key)) return { ok: false, error: t('settings_keySpaces') };
  if (key.length < 8 || key.length > 512) return { ok: false, error: t('settings_keyLength') };
  if (!/^[\x21-\x7e]+$/.test(key)) return { ok: false, error: t('settings_keyCharacters') };
  return { ok: true, key };
}

/** The host permission pattern for a base URL's origin (match patterns carry no port). */
export function originPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}
