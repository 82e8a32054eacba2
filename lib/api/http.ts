/**
 * One HTTP request to the voice agent service: bearer auth, timeout, caller abort, retries with
 * backoff, a response size cap, and parsing with a zod schema. Uses only `fetch`, `AbortController`,
 * `URL` and timers, so it runs in an MV3 service worker, Firefox and Node alike. Nothing runs at import.
 */
import type { z } from './zod';
import { ApiError, readErrorBody } from './errors';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry starts once this much time has passed since the first attempt began. */
  maxTotalMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseDelayMs: 300, maxDelayMs: 8000, maxTotalMs: 30_000 };
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface HttpConfig {
  /** Service root, for example `https://api.example.com`; a path prefix is kept. */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Answers bigger than this are refused as `invalid-response`. Default 5 MB. */
  maxResponseBytes?: number;
  /** Injectables for tests. */
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<S extends z.ZodType> {
  method: HttpMethod;
  /** Path below the base URL, already encoded (`/v2/agent/abc`). */
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  form?: FormData;
  schema: S;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** `false` turns retries off for this request; an object overrides parts of the policy. */
  retry?: false | Partial<RetryPolicy>;
}

export interface Http {
  readonly baseUrl: string;
  request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>>;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Full jitter: a random delay between 0 and the exponential ceiling for this retry. */
export function backoffDelay(retryIndex: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

/** Joins base URL, path and query. The base URL keeps its own path prefix. */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): URL {
  const url = new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  if (query) {
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      const values = Array.isArray(value) ? value : [value];
      for (const v of values) url.searchParams.append(name, String(v));
    }
  }
  return url;
}

interface BodyText {
  text: string;
  tooLarge: boolean;
}

/** Reads at most `limit` bytes of the body; stops early (and cancels) when the answer is bigger. */
async function readBodyText(response: Response, limit: number): Promise<BodyText> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    return { text: '', tooLarge: true };
  }
  if (!response.body) return { text: '', tooLarge: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { text, tooLarge: true };
    }
    text += decoder.decode(value, { stream: true });
  }
  text += decoder.decode();
  return { text, tooLarge: false };
}

type Issue = z.core.$ZodIssue;

/**
 * The most telling issue: the first one, unwrapped from record keys (`invalid_key`) and unions
 * (the branch that got furthest, i.e. whose issue sits deepest, wins).
 */
function innermost(issue: Issue): { path: PropertyKey[]; message: string } {
  if (issue.code === 'invalid_key' && issue.issues[0]) {
    const inner = innermost(issue.issues[0]);
    return { path: [...issue.path, ...inner.path], message: inner.message };
  }
  if (issue.code === 'invalid_union' && issue.errors.length) {
    let best: { path: PropertyKey[]; message: string } | undefined;
    for (const branch of issue.errors) {
      if (!branch[0]) continue;
      const inner = innermost(branch[0]);
      if (!best || inner.path.length > best.path.length) best = inner;
    }
    if (best) return { path: [...issue.path, ...best.path], message: best.message };
  }
  return { path: issue.path, message: issue.message };
}

/** First zod issue as readable text: `agent_config.agent_name: agent_name is required`. */
export function zodIssueText(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'it does not match the expected shape';
  const issue = innermost(first);
  const where = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem${error.issues.length > 2 ? 's' : ''})` : '';
  return `${where ? `${where}: ` : ''}${issue.message}${more}`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}

type AttemptFailure = { error: ApiError; retryable: boolean; retryAfterMs?: number };

const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

/**
 * A redirect answer, read without following it (fetch's `redirect: 'manual'`): where it pointed, when
 * the runtime says (Node gives the 3xx and its Location; a browser gives an opaque redirect with
 * neither), or null when the answer is no redirect.
 */
export function redirectOf(response: Response, from: URL): { status: number; to: string | null } | null {
  if (response.type === 'opaqueredirect') return { status: 0, to: null };
  if (!REDIRECT_STATUS.has(response.status)) return null;
  const location = response.headers.get('location');
  if (location === null) return null;
  try {
    return { status: response.status, to: new URL(location, from).toString() };
  } catch {
    return { status: response.status, to: location };
  }
}

function redirectMessage(redirect: { status: number; to: string | null }, origin: string): string {
  const rule = 'requests that carry your API key never follow a redirect';
  if (redirect.to === null) {
    return `The service at ${origin} answered with a redirect (the browser does not say where to); ${rule}. Check the base URL: the exact address the service's documentation gives, with https://.`;
  }
  const to = redirect.to.length > 200 ? `${redirect.to.slice(0, 199)}…` : redirect.to;
  return `The service at ${origin} answered ${redirect.status} and pointed to ${to}; ${rule}. If that is the service's address, save it as the base URL.`;
}

export function createHttp(config: HttpConfig): Http {
  const baseUrl = config.baseUrl.trim().replace(/\/+$/, '');
  const apiKey = config.apiKey.trim();
  const secrets = apiKey ? [apiKey] : [];
  const fetchImpl = config.fetch;
  const doFetch: typeof fetch = (input, init) => (fetchImpl ? fetchImpl(input, init) : globalThis.fetch(input, init));
  const sleep = config.sleep ?? defaultSleep;
  const random = config.random ?? Math.random;
  const now = config.now ?? Date.now;
  const maxBytes = config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  async function request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>> {
    const method = options.method;
    const path = options.path.startsWith('/') ? options.path : `/${options.path}`;
    const fail = (init: Omit<ConstructorParameters<typeof ApiError>[0], 'method' | 'path' | 'secrets'>) =>
      new ApiError({ ...init, method, path, secrets });

    if (!apiKey) throw fail({ kind: 'invalid-request', message: 'No API key is set: add your key in the settings.' });
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      throw fail({ kind: 'invalid-request', message: 'The API key contains spaces or characters that cannot be sent: copy it again.' });
    }
    let url: URL;
    try {
      url = buildUrl(baseUrl, path, options.query);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
    } catch {
      throw fail({ kind: 'invalid-request', message: `The service address "${snippet(config.baseUrl)}" is not a valid http(s) URL.` });
    }
    if (options.json !== undefined && options.form !== undefined) {
      throw fail({ kind: 'invalid-request', message: 'A request cannot carry both a JSON body and a form.' });
    }

    const policy: RetryPolicy = { ...DEFAULT_RETRY, ...config.retry, ...(options.retry || {}) };
    if (options.retry === false) policy.maxRetries = 0;
    const timeoutMs = options.timeoutMs ?? config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const idempotent = method === 'GET';
    const external = options.signal;
    const started = now();

    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' };
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      // FormData: fetch writes the multipart Content-Type with its boundary. Never set it by hand.
      body = options.form;
    }

    const aborted = () => fail({ kind: 'aborted', message: 'The request was cancelled.', cause: external?.reason });

    async function attempt(): Promise<{ value: z.output<S> } | AttemptFailure> {
      if (external?.aborted) throw aborted();
      const controller = new AbortController();
      let timedOut = false;
      const onAbort = () => controller.abort(external?.reason);
      external?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 100) / 10} s`;
      const interrupted = (cause: unknown): AttemptFailure => {
        if (external?.aborted) throw aborted();
        if (timedOut) {
          return {
            error: fail({ kind: 'timeout', message: `The service did not answer within ${limit}.` }),
            retryable: idempotent,
          };
        }
        const reason = cause instanceof Error ? cause.message : String(cause);
        return {
          error: fail({ kind: 'network', message: `Could not reach the service at ${url.origin} (${reason}).`, cause }),
          retryable: idempotent,
        };
      };
      try {
        let response: Response;
        try {
          // Never follow a redirect: the key would go wherever it points (docs/security.md).
          response = await doFetch(url.toString(), { method, headers, body, signal: controller.signal, redirect: 'manual' });
        } catch (cause) {
          return interrupted(cause);
        }
        const redirect = redirectOf(response, url);
        if (redirect) {
          await response.body?.cancel().catch(() => undefined);
          return {
            error: fail({ kind: 'redirect', status: redirect.status, message: redirectMessage(redirect, url.origin) }),
            retryable: false,
          };
        }
        let read: BodyText;
        try {
          read = await readBodyText(response, maxBytes);
        } catch (cause) {
          return interrupted(cause);
        }

        if (!response.ok) {
          let json: unknown;
          try {
            json = read.text.trim() ? JSON.parse(read.text) : undefined;
          } catch {
            json = undefined;
          }
          const reading = readErrorBody(response.status, response.statusText, read.tooLarge ? '' : read.text, json);
          const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
          const error = fail({
            kind: 'http',
            status: response.status,
            code: reading.code,
            message: reading.message,
            serviceMessage: reading.serviceMessage,
            details: reading.details,
            retryAfterMs,
          });
          const retryable = RETRYABLE_STATUS.has(response.status) && (idempotent || response.status === 429);
          return { error, retryable, retryAfterMs };
        }

        const status = response.status;
        if (read.tooLarge) {
          return {
            error: fail({
              kind: 'invalid-response',
              status,
              message: `The service's answer is larger than ${formatBytes(maxBytes)}; it was not read.`,
            }),
            retryable: false,
          };
        }
        let data: unknown;
        if (read.text.trim() === '') {
          data = undefined;
        } else {
          try {
            data = JSON.parse(read.text);
          } catch {
            return {
              error: fail({
                kind: 'invalid-response',
                status,
                message: `The service's answer is not JSON (it starts with "${snippet(read.text)}").`,
              }),
              retryable: false,
            };
          }
        }
        const parsed = options.schema.safeParse(data);
        if (!parsed.success) {
          const message =
            data === undefined
              ? `The service answered ${status} with an empty body where data was expected.`
              : `The service's answer does not have the expected shape: ${zodIssueText(parsed.error)}.`;
          return { error: fail({ kind: 'invalid-response', status, message }), retryable: false };
        }
        return { value: parsed.data as z.output<S> };
      } finally {
        clearTimeout(timer);
        external?.removeEventListener('abort', onAbort);
      }
    }

    for (let retryIndex = 0; ; retryIndex++) {
      const outcome = await attempt();
      if ('value' in outcome) return outcome.value;
      if (!outcome.retryable || retryIndex >= policy.maxRetries) throw outcome.error;
      // A longer wait than we hold a request for goes back to the caller, never retried sooner than asked.
      if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.maxDelayMs) throw outcome.error;
      // Retry-After wins over our own backoff; the total budget bounds all.
      const wanted = outcome.retryAfterMs ?? backoffDelay(retryIndex, policy, random);
      const delay = Math.max(0, Math.min(wanted, policy.maxDelayMs));
      if (now() - started + delay > policy.maxTotalMs) throw outcome.error;
      await sleep(delay, external);
      if (external?.aborted) throw aborted();
    }
  }

  return { baseUrl, request };
}
