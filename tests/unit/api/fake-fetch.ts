import { expect } from 'vitest';
import { ApiError } from '../../../lib/api/errors';
/** A scripted `fetch` for unit tests: records every call, answers from a list or a handler. */

export interface RecordedCall {
  method: string;
  url: URL;
  /** Path and query, e.g. `/v2/agent/abc?page_number=1`. */
  target: string;
  headers: Headers;
  /** The request as fetch would send it (Content-Type with boundary filled in by fetch itself). */
  request: Request;
  rawBody: BodyInit | null | undefined;
  signal: AbortSignal | undefined;
}

export type Reply = Response | Error | 'hang' | ((call: RecordedCall) => Response | Error | 'hang' | Promise<Response>);

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

export function text(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers });
}

export const empty = (status = 204) => new Response(null, { status });

/** `network()` mimics undici's "fetch failed" TypeError with an ECONNREFUSED/ECONNRESET cause. */
export function network(code = 'ECONNRESET'): Error {
  const err = new TypeError('fetch failed');
  (err as { cause?: unknown }).cause = Object.assign(new Error(`read ${code}`), { code });
  return err;
}

export interface FakeFetch {
  fetch: typeof fetch;
  calls: RecordedCall[];
  /** Adds replies to the queue. */
  push(...replies: Reply[]): void;
}

/**
 * Replies are taken in order; when the queue is empty `fallback` answers (default: 500 "no scripted reply").
 * 'hang' never answers until the request's signal aborts (then rejects like fetch does).
 */
export function fakeFetch(replies: Reply[] = [], fallback?: (call: RecordedCall) => Response | Promise<Response>): FakeFetch {
  const queue = [...replies];
  const calls: RecordedCall[] = [];
  const impl = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const request = new Request(url, { ...init, signal: undefined });
    const call: RecordedCall = {
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      target: url.pathname + url.search,
      headers: new Headers(init.headers),
      request,
      rawBody: init.body,
      signal: init.signal ?? undefined,
    };
    calls.push(call);
    let reply: Reply | undefined = queue.shift();
    if (reply === undefined) {
      if (fallback) return fallback(call);
      return json({ error: 500, message: `no scripted reply for ${call.method} ${call.target}` }, 500);
    }
    if (typeof reply === 'function') reply = await reply(call);
    if (reply === 'hang') {
      return new Promise<Response>((_, reject) => {
        const signal = init.signal;
        const fail = () => reject(signal?.reason ?? new DOMException('This operation was aborted', 'AbortError'));
        if (signal?.aborted) fail();
        signal?.addEventListener('abort', fail, { once: true });
      });
    }
    if (reply instanceof Error) throw reply;
    return reply;
  };
  return { fetch: impl as typeof fetch, calls, push: (...r) => queue.push(...r) };
}

/** A fake clock whose sleep advances time instantly and records each wait. */
export function fakeClock(start = Date.parse('2026-11-21T12:00:00Z')) {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleeps,
    advance: (ms: number) => {
      t += ms;
    },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}

/** The ApiError a promise rejects with (fails the test when it resolves or throws something else). */
export async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the request to fail');
}
