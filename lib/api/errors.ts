/**
 * The one error type the API client throws. Safe to show, store and log: the API key is redacted
 * from every text it carries (message, path, details, cause) before the error is built.
 */

/** `redirect`: the service answered with a redirect, which a request carrying the key never follows. */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'invalid-response' | 'invalid-request' | 'redirect';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** HTTP status, or 0 when no answer was read (network, timeout, aborted, invalid-request). */
  status?: number;
  /** The service's internal `error` value, when the body carried one. */
  code?: number | string;
  message: string;
  method: string;
  /** Request path without the query string. */
  path: string;
  /** The text the service itself gave (`message`, `detail` or `error`), if any. */
  serviceMessage?: string;
  /** The parsed error body (redacted), for callers that want field-level details (for example 422). */
  details?: unknown;
  /** How long the service asked us to wait (`Retry-After`), when it said. */
  retryAfterMs?: number;
  cause?: unknown;
  /** Strings to remove from every text (the API key). Not stored. */
  secrets?: readonly string[];
}

export const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret in `text`. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Redacts every string inside a JSON-like value (keys included). */
export function redactDeep(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (value === null || typeof value !== 'object' || depth > 20) return typeof value === 'object' ? undefined : value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[redact(key, secrets)] = redactDeep(item, secrets, depth + 1);
  return out;
}

/** A plain Error copy of `cause` whose texts are redacted (the original may quote a header). */
function sanitizeCause(cause: unknown, secrets: readonly string[]): Error | undefined {
  if (cause === undefined || cause === null) return undefined;
  if (cause instanceof Error) {
    const inner = (cause as { cause?: unknown }).cause;
    const code = inner && typeof inner === 'object' && 'code' in inner ? String((inner as { code: unknown }).code) : '';
    const copy = new Error(redact(`${cause.name}: ${cause.message}${code ? ` (${code})` : ''}`, secrets));
    copy.name = redact(cause.name, secrets);
    return copy;
  }
  return new Error(redact(String(cause), secrets));
}

export class ApiError extends Error {
  override name = 'ApiError' as const;
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly code: number | string | undefined;
  readonly method: string;
  readonly path: string;
  readonly serviceMessage: string | undefined;
  readonly details: unknown;
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    const secrets = init.secrets ?? [];
    const cause = sanitizeCause(init.cause, secrets);
    super(redact(init.message, secrets), cause ? { cause } : undefined);
    this.kind = init.kind;
    this.status = init.status ?? 0;
    this.code = typeof init.code === 'string' ? redact(init.code, secrets) : init.code;
    this.method = init.method.toUpperCase();
    this.path = redact(init.path.split(/[?#]/, 1)[0] ?? '', secrets);
    this.serviceMessage = init.serviceMessage === undefined ? undefined : redact(init.serviceMessage, secrets);
    this.details = init.details === undefined ? undefined : redactDeep(init.details, secrets);
    this.retryAfterMs = init.retryAfterMs;
  }

  override toString(): string {
    const where = `${this.method} ${this.path}`;
    const status = this.status ? ` ${this.status}` : '';
    return `ApiError [${this.kind}${status}] ${where}: ${this.message}`;
  }

  toJSON() {
    return {
      name: this.name,
      kind: this.kind,
      status: this.status,
      code: this.code,
      message: this.message,
      method: this.method,
      path: this.path,
      serviceMessage: this.serviceMessage,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** 401 or 403: "check your key" (the live service answers a bad key with 403). */
export function isAuthError(e: unknown): e is ApiError {
  return e instanceof ApiError && e.kind === 'http' && (e.status === 401 || e.status === 403);
}

/** A 404 text that names no resource: what a router answers for a path it does not know. */
const GENERIC_NOT_FOUND =
  /^\s*(?:404\s*[:\-–]?\s*)?(?:(?:the\s+)?(?:requested\s+)?(?:route|path|url|endpoint|page|method)\s+)?not\s+found\.?\s*$|^\s*cannot\s+[a-z]+\s+\/\S*\s*$/i;

export function isGenericNotFoundText(text: string | undefined): boolean {
  return text === undefined || text.trim() === '' || GENERIC_NOT_FOUND.test(text);
}

/**
 * The route itself is missing (so another form of it may exist): 405, or a 404 whose body names no
 * resource (no message, or "Not Found"). A resource 404 ("Batch not found", "Agent not found",
 * "Batch is not queued or running") is not a missing route.
 */
export function isRouteMissing(e: unknown): e is ApiError {
  if (!(e instanceof ApiError) || e.kind !== 'http') return false;
  if (e.status === 405) return true;
  return e.status === 404 && isGenericNotFoundText(e.serviceMessage);
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusLabel(status: number, statusText = ''): string {
  const text = STATUS_TEXT[status] ?? statusText.trim();
  return text ? `${status} ${text}` : String(status);
}

const RAW_TEXT_LIMIT = 300;

function truncate(text: string, limit = RAW_TEXT_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit - 1).trimEnd()}…` : text;
}

/** Raw body text made readable: HTML reduced to its title or text, whitespace collapsed. */
function readableText(raw: string): string {
  let text = raw;
  if (/^\s*</.test(text)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
    text = title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** FastAPI-style `detail`: a string, or an array of `{loc, msg}`. */
function detailText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail.trim() || undefined;
  if (Array.isArray(detail)) {
    const parts = detail
      .map((item) => {
        if (typeof item === 'string') return item;
        if (!item || typeof item !== 'object') return undefined;
        const { msg, loc } = item as { msg?: unknown; loc?: unknown };
        if (typeof msg !== 'string') return undefined;
        const field = Array.isArray(loc)
          ? loc.filter((p, i) => !(i === 0 && (p === 'body' || p === 'query' || p === 'path'))).join('.')
          : '';
        return field ? `${field}: ${msg}` : msg;
      })
      .filter((p): p is string => !!p);
    return parts.length ? parts.join('; ') : undefined;
  }
  if (detail && typeof detail === 'object' && typeof (detail as { message?: unknown }).message === 'string') {
    return ((detail as { message: string }).message).trim() || undefined;
  }
  return undefined;
}

export interface ErrorBodyReading {
  message: string;
  serviceMessage: string | undefined;
  code: number | string | undefined;
  details: unknown;
}

/**
 * What to say about an error answer, in order: body `message`, then `detail` (string or a list of
 * `{msg}`), then a string `error`, then the raw text (truncated), then "The service answered 502 Bad Gateway."
 */
export function readErrorBody(status: number, statusText: string, rawText: string, json: unknown): ErrorBodyReading {
  let serviceMessage: string | undefined;
  let code: number | string | undefined;
  let details: unknown;
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const body = json as Record<string, unknown>;
    details = body;
    if (typeof body.error === 'number' || typeof body.error === 'string') code = body.error;
    const message = typeof body.message === 'string' ? body.message.trim() : '';
    serviceMessage =
      message || detailText(body.detail) || (typeof body.error === 'string' && body.error.trim() ? body.error.trim() : undefined);
  } else if (typeof json === 'string' && json.trim()) {
    serviceMessage = json.trim();
  }
  const label = statusLabel(status, statusText);
  let message = serviceMessage ? truncate(serviceMessage, 1000) : '';
  if (!message && code !== undefined) message = `The service answered ${label} (error ${code}).`;
  if (!message) message = truncate(readableText(rawText));
  if (!message) message = `The service answered ${label}.`;
  return { message, serviceMessage, code, details };
}
