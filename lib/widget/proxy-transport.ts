/**
 * The widget's way to the service through the project's proxy (proxy/, docs/proxy.md): a
 * WidgetTransport over fetch. The page holds only a short-lived widget token (Authorization header),
 * never a key; no cookies are sent. Every answer is parsed (zod); every failure becomes a sentence a
 * person can act on (ProxyTransportError), with the proxy's code for the element to branch on.
 */
import { t } from '../i18n';
// The element's own checks, without zod: this module ships in the host page's bundle (check.ts says why).
import { asCallView, asWidgetError } from './check';
import type { WidgetCallRequest, WidgetCallView, WidgetTransport } from './wire';

export interface ProxyTransportOptions {
  /** The proxy's address, e.g. https://proxy.example (no trailing slash needed). */
  url: string;
  /** The widget token minted for this page's origin. */
  token: string;
  /** For tests and hosts that wrap fetch; the page's own fetch by default. */
  fetch?: typeof fetch;
}

export class ProxyTransportError extends Error {
  override name = 'ProxyTransportError';
  constructor(
    message: string,
    /** The proxy's code (`token-expired`, `agent-not-allowed`, `rate-limited`…), `network` or `bad-answer`. */
    readonly code: string,
    /** HTTP status, 0 when no answer came. */
    readonly status: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export function createProxyTransport(options: ProxyTransportOptions): WidgetTransport {
  const base = options.url.replace(/\/+$/, '');
  const origin = (() => {
    try {
      return new URL(base).origin;
    } catch {
      return base;
    }
  })();
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  const send = (method: 'GET' | 'POST', path: string, body: unknown, intent: string | undefined) =>
    doFetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${options.token}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(intent ? { 'Idempotency-Key': intent } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      mode: 'cors',
      cache: 'no-store',
    });

  /**
   * One request, sent once more when no answer came. A place carries an Idempotency-Key, so the proxy
   * answers the second try with the call the first one made (its answer lost on the way), never a second call.
   */
  async function request(method: 'GET' | 'POST', path: string, body?: unknown, intent?: string): Promise<WidgetCallView> {
    let response: Response | undefined;
    for (let attempt = 0; !response; attempt++) {
      try {
        response = await send(method, path, body, intent);
      } catch {
        // Every route may be sent twice: reads and stops change nothing the second time, a place has its key.
        if (attempt >= 1) throw new ProxyTransportError(t('widgetProxy_unreachable', origin), 'network', 0);
      }
    }
    let json: unknown = null;
    try {
      json = await response.json();
    } catch {
      // not JSON: judged below
    }
    if (response.ok) {
      const view = asCallView(json);
      if (!view) throw new ProxyTransportError(t('widgetProxy_badAnswer', String(response.status)), 'bad-answer', response.status);
      return view;
    }
    const refusal = asWidgetError(json);
    const reason = refusal ? refusal.error : response.statusText || String(response.status);
    const code = refusal ? refusal.code : `http-${response.status}`;
    if (response.status === 401) throw new ProxyTransportError(t('widgetProxy_tokenRefused', reason), code, 401);
    if (response.status === 403) throw new ProxyTransportError(t('widgetProxy_forbidden', reason), code, 403);
    if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after'));
      const wait = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 60;
      throw new ProxyTransportError(t('widgetProxy_tooMany', String(wait)), code, 429, wait);
    }
    if (response.status >= 500) throw new ProxyTransportError(t('widgetProxy_failed', String(response.status)), code, response.status);
    throw new ProxyTransportError(t('widgetProxy_refused', String(response.status), reason), code, response.status);
  }

  const id = (callId: string) => encodeURIComponent(callId);
  return {
    place: (call: WidgetCallRequest) => request('POST', '/v1/calls', call, crypto.randomUUID()),
    read: (callId: string) => request('GET', `/v1/calls/${id(callId)}`),
    stop: (callId: string) => request('POST', `/v1/calls/${id(callId)}/stop`),
  };
}
