import { describe, expect, it } from 'vitest';
import { ApiError, isAuthError, isRouteMissing, readErrorBody, redact } from '../../../lib/api/errors';
import { createHttp } from '../../../lib/api/http';
import { z } from '../../../lib/api/zod';
import { fakeClock, fakeFetch, json, text, errorOf } from './fake-fetch';

const any = z.unknown();

function http(replies: Parameters<typeof fakeFetch>[0]) {
  const fake = fakeFetch(replies);
  const clock = fakeClock();
  const client = createHttp({
    baseUrl: 'https://api.example.test',
    apiKey: 'key-123',
    fetch: fake.fetch,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
  });
  return { client, fake, clock };
}


describe('error message precedence', () => {
  it('takes body.message first', () => {
    const r = readErrorBody(400, '', '', { error: 1001, message: 'agent_id is required', detail: 'ignored' });
    expect(r.message).toBe('agent_id is required');
    expect(r.code).toBe(1001);
  });

  it('then a string detail', () => {
    expect(readErrorBody(403, '', '', { detail: 'Invalid API key' }).message).toBe('Invalid API key');
  });

  it('then a FastAPI detail list joined, with the field named', () => {
    const body = {
      detail: [
        { loc: ['body', 'phone_number'], msg: 'value is not a valid E.164 number', type: 'value_error' },
        { loc: ['body', 'country'], msg: 'field required', type: 'missing' },
        { msg: 'something else' },
      ],
    };
    expect(readErrorBody(422, '', '', body).message).toBe(
      'phone_number: value is not a valid E.164 number; country: field required; something else',
    );
  });

  it('then a string error', () => {
    expect(readErrorBody(400, '', '', { error: 'bad_scheduled_at' }).message).toBe('bad_scheduled_at');
  });

  it('then a numeric error with the status', () => {
    const r = readErrorBody(400, '', '', { error: 4001 });
    expect(r.message).toBe('The service answered 400 Bad Request (error 4001).');
    expect(r.code).toBe(4001);
  });

  it('then the raw text, made readable and truncated to about 300 characters', () => {
    expect(readErrorBody(502, '', 'upstream connect error', undefined).message).toBe('upstream connect error');
    const html = '<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>';
    expect(readErrorBody(502, '', html, undefined).message).toBe('502 Bad Gateway');
    const long = 'x'.repeat(2000);
    const m = readErrorBody(500, '', long, undefined).message;
    expect(m.length).toBeLessThanOrEqual(300);
    expect(m.endsWith('…')).toBe(true);
  });

  it('then a plain fallback naming the status', () => {
    expect(readErrorBody(502, '', '', undefined).message).toBe('The service answered 502 Bad Gateway.');
    expect(readErrorBody(599, 'Odd', '', undefined).message).toBe('The service answered 599 Odd.');
  });

  it('reads the same order end to end through a request', async () => {
    const { client } = http([
      json({ error: 400, message: 'msg wins', detail: 'no' }, 400),
      json({ detail: [{ msg: 'a' }, { msg: 'b' }] }, 422),
      text('plain words', 500),
      text('', 502),
    ]);
    const get = () => client.request({ method: 'POST', path: '/x', schema: any });
    expect((await errorOf(get())).message).toBe('msg wins');
    expect((await errorOf(get())).message).toBe('a; b');
    expect((await errorOf(get())).message).toBe('plain words');
    const last = await errorOf(get());
    expect(last.message).toBe('The service answered 502 Bad Gateway.');
    expect(last).toMatchObject({ kind: 'http', status: 502, method: 'POST', path: '/x' });
  });
});

describe('isAuthError / isRouteMissing', () => {
  const e = (status: number, serviceMessage?: string) =>
    new ApiError({ kind: 'http', status, message: serviceMessage ?? 'x', serviceMessage, method: 'GET', path: '/p' });

  it('401 and 403 are auth errors, others are not', () => {
    expect(isAuthError(e(401))).toBe(true);
    expect(isAuthError(e(403, 'Invalid API key'))).toBe(true);
    expect(isAuthError(e(404))).toBe(false);
    expect(isAuthError(new Error('401'))).toBe(false);
  });

  it('405 and a generic 404 are a missing route', () => {
    expect(isRouteMissing(e(405, 'Method Not Allowed'))).toBe(true);
    expect(isRouteMissing(e(404))).toBe(true);
    expect(isRouteMissing(e(404, 'Not Found'))).toBe(true);
    expect(isRouteMissing(e(404, 'Not found'))).toBe(true);
    expect(isRouteMissing(e(404, '404 Not Found'))).toBe(true);
    expect(isRouteMissing(e(404, 'Route not found'))).toBe(true);
  });

  it('a resource 404 is not a missing route', () => {
    expect(isRouteMissing(e(404, 'Batch not found'))).toBe(false);
    expect(isRouteMissing(e(404, 'Agent not found'))).toBe(false);
    expect(isRouteMissing(e(404, 'Batch is not queued or running'))).toBe(false);
    expect(isRouteMissing(e(400))).toBe(false);
    expect(isRouteMissing(new ApiError({ kind: 'network', message: 'x', method: 'GET', path: '/p' }))).toBe(false);
  });

  it('reads a text or empty 404 as a missing route, a JSON resource 404 not', async () => {
    const { client } = http([
      text('404 Not Found', 404),
      empty404(),
      json({ detail: 'Not Found' }, 404),
      json({ error: 404, message: 'Agent not found' }, 404),
    ]);
    const get = () => errorOf(client.request({ method: 'GET', path: '/x', schema: any }));
    expect(isRouteMissing(await get())).toBe(true);
    expect(isRouteMissing(await get())).toBe(true);
    expect(isRouteMissing(await get())).toBe(true);
    expect(isRouteMissing(await get())).toBe(false);
  });
});

function empty404() {
  return new Response(null, { status: 404 });
}

describe('the API key never appears in an error', () => {
  const KEY = 'va_SECRET_key_42';

  function mustNotLeak(error: unknown) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    const texts = [
      e.message,
      e.path,
      String(e),
      e.toString(),
      JSON.stringify(e),
      JSON.stringify(e.details ?? null),
      e.serviceMessage ?? '',
      String(e.code ?? ''),
      e.stack ?? '',
      e.cause instanceof Error ? `${e.cause.message} ${e.cause.stack ?? ''}` : String(e.cause ?? ''),
    ];
    for (const t of texts) expect(t).not.toContain(KEY);
  }

  it('is redacted from echoed bodies, paths, network causes and invalid answers', async () => {
    const fake = fakeFetch([
      json({ error: 401, message: `Invalid key ${KEY}`, detail: { token: KEY }, echo: [`Bearer ${KEY}`] }, 401),
      json({ detail: `key ${KEY} forbidden` }, 403),
      text(`<html><title>Bad ${KEY}</title></html>`, 502),
      Object.assign(new TypeError(`Headers: "Bearer ${KEY}" is invalid`), { cause: new Error(KEY) }),
      json({ unexpected: KEY }, 200),
      text(`not json ${KEY}`, 200),
      json({ error: KEY }, 400),
    ]);
    const client = createHttp({ baseUrl: 'https://api.example.test', apiKey: KEY, fetch: fake.fetch, retry: { maxRetries: 0 } });
    const schema = z.strictObject({ id: z.string() });
    const errors: unknown[] = [];
    for (let i = 0; i < 7; i++) {
      // The key even passed as a path segment and in the query must not survive in `path`.
      await client.request({ method: 'GET', path: `/agent/${KEY}`, query: { token: KEY }, schema }).catch((e) => errors.push(e));
    }
    expect(errors).toHaveLength(7);
    errors.forEach(mustNotLeak);
    expect((errors[0] as ApiError).message).toContain('[redacted]');
    expect((errors[3] as ApiError).kind).toBe('network');
    expect((errors[4] as ApiError).kind).toBe('invalid-response');
    expect((errors[5] as ApiError).kind).toBe('invalid-response');
    // The key was sent, as a bearer header, and nowhere else.
    expect(fake.calls[0]!.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });

  it('is redacted from timeouts, aborts and invalid requests', async () => {
    const fake = fakeFetch(['hang', 'hang']);
    const client = createHttp({ baseUrl: 'https://api.example.test', apiKey: KEY, fetch: fake.fetch, timeoutMs: 5, retry: { maxRetries: 0 } });
    mustNotLeak(await errorOf(client.request({ method: 'GET', path: '/x', schema: any })));
    const controller = new AbortController();
    const pending = client.request({ method: 'GET', path: '/x', schema: any, signal: controller.signal, timeoutMs: 10_000 });
    controller.abort(new Error(`stop ${KEY}`));
    mustNotLeak(await errorOf(pending));
    const bad = createHttp({ baseUrl: 'not a url', apiKey: KEY });
    mustNotLeak(await errorOf(bad.request({ method: 'GET', path: '/x', schema: any })));
  });

  it('redact() replaces every occurrence', () => {
    expect(redact('a KEY b KEY', ['KEY'])).toBe('a [redacted] b [redacted]');
    expect(redact('nothing', [''])).toBe('nothing');
  });
});
