import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api/errors';
import { buildUrl, createHttp, parseRetryAfter, type HttpConfig, type HttpMethod } from '../../../lib/api/http';
import { z } from '../../../lib/api/zod';
import { empty, fakeClock, fakeFetch, json, network, text, type Reply, errorOf } from './fake-fetch';

const ok = z.looseObject({ ok: z.boolean() });

function setup(replies: Reply[], config: Partial<HttpConfig> = {}) {
  const fake = fakeFetch(replies);
  const clock = fakeClock();
  const http = createHttp({
    baseUrl: 'https://api.example.test/',
    apiKey: 'key-123',
    fetch: fake.fetch,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 1,
    ...config,
  });
  return { http, fake, clock };
}


describe('request basics', () => {
  it('sends the bearer header, joins base URL, path and query, parses with the schema', async () => {
    const { http, fake } = setup([json({ ok: true, extra: 1 })]);
    const out = await http.request({
      method: 'GET',
      path: '/v2/agent/a%2Fb/executions',
      query: { page_number: 2, status: undefined, tags: ['x', 'y'], flag: false, none: null },
      schema: ok,
    });
    expect(out).toEqual({ ok: true, extra: 1 });
    const call = fake.calls[0]!;
    expect(call.url.origin).toBe('https://api.example.test');
    expect(call.target).toBe('/v2/agent/a%2Fb/executions?page_number=2&tags=x&tags=y&flag=false');
    expect(call.headers.get('authorization')).toBe('Bearer key-123');
    expect(call.headers.get('accept')).toBe('application/json');
  });

  it('keeps a base URL path prefix', () => {
    expect(buildUrl('https://h.test/api/', '/user/me').href).toBe('https://h.test/api/user/me');
  });

  it('sends JSON with a JSON content type', async () => {
    const { http, fake } = setup([json({ ok: true })]);
    await http.request({ method: 'POST', path: '/phone-numbers/buy', json: { country: 'US' }, schema: ok });
    expect(fake.calls[0]!.headers.get('content-type')).toBe('application/json');
    expect(await fake.calls[0]!.request.json()).toEqual({ country: 'US' });
  });

  it('sends a FormData without setting Content-Type by hand; fetch adds the boundary', async () => {
    const { http, fake } = setup([json({ ok: true })]);
    const form = new FormData();
    form.append('agent_id', 'a1');
    form.append('file', new Blob(['contact_number\n+14155550123\n'], { type: 'text/csv' }), 'c.csv');
    await http.request({ method: 'POST', path: '/batches', form, schema: ok });
    const call = fake.calls[0]!;
    expect(call.headers.get('content-type')).toBeNull();
    expect(call.rawBody).toBe(form);
    expect(call.request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const sent = await call.request.formData();
    expect(sent.get('agent_id')).toBe('a1');
  });

  it('reads a 204 or empty body as undefined (schemas that allow it pass)', async () => {
    const { http } = setup([empty(204), text('', 200)]);
    expect(await http.request({ method: 'DELETE', path: '/x', schema: z.undefined() })).toBeUndefined();
    const e = await errorOf(http.request({ method: 'DELETE', path: '/x', schema: ok }));
    expect(e.kind).toBe('invalid-response');
    expect(e.message).toBe('The service answered 200 with an empty body where data was expected.');
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('retries', () => {
  const retried: [string, () => Reply][] = [
    ['429', () => json({ message: 'slow down' }, 429)],
    ['502', () => text('bad gateway', 502)],
    ['503', () => json({ message: 'unavailable' }, 503)],
    ['504', () => text('', 504)],
    ['network error', () => network()],
  ];

  it.each(retried)('GET is retried after %s', async (_, reply) => {
    const { http, fake } = setup([reply(), reply(), json({ ok: true })]);
    await expect(http.request({ method: 'GET', path: '/x', schema: ok })).resolves.toEqual({ ok: true });
    expect(fake.calls).toHaveLength(3);
  });

  it.each([400, 401, 403, 404, 405, 422, 500])('GET is not retried after %i', async (status) => {
    const { http, fake } = setup([json({ message: 'no' }, status), json({ ok: true })]);
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    expect(e.status).toBe(status);
    expect(fake.calls).toHaveLength(1);
  });

  it.each<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE'])('%s is not retried after 503, 502, 504 or a network error', async (method) => {
    for (const reply of [json({ message: 'down' }, 503), text('', 502), text('', 504), network()]) {
      const { http, fake } = setup([reply, json({ ok: true })]);
      const e = await errorOf(http.request({ method, path: '/x', json: {}, schema: ok }));
      expect(['http', 'network']).toContain(e.kind);
      expect(fake.calls).toHaveLength(1);
    }
  });

  it.each<HttpMethod>(['POST', 'PUT', 'PATCH', 'DELETE'])('%s is retried after 429 (nothing was done)', async (method) => {
    const { http, fake } = setup([json({ message: 'rate' }, 429), json({ ok: true })]);
    await expect(http.request({ method, path: '/x', json: { a: 1 }, schema: ok })).resolves.toEqual({ ok: true });
    expect(fake.calls).toHaveLength(2);
    expect(await fake.calls[1]!.request.json()).toEqual({ a: 1 });
  });

  it('a multipart POST retried after 429 sends its fields again', async () => {
    const { http, fake } = setup([json({}, 429), json({ ok: true })]);
    const form = new FormData();
    form.append('scheduled_at', '2026-11-21T12:10:00+00:00');
    await http.request({ method: 'POST', path: '/batches/b/schedule', form, schema: ok });
    expect((await fake.calls[1]!.request.formData()).get('scheduled_at')).toBe('2026-11-21T12:10:00+00:00');
  });

  it('uses exponential backoff with full jitter (random × min(max, base·2^n))', async () => {
    const { http, clock } = setup([text('', 503), text('', 503), text('', 503), text('', 503), json({ ok: true })], {
      random: () => 0.5,
    });
    await http.request({ method: 'GET', path: '/x', schema: ok });
    expect(clock.sleeps).toEqual([150, 300, 600, 1200]);
  });

  it('caps each backoff at maxDelayMs', async () => {
    const { http, clock } = setup([text('', 503), text('', 503), text('', 503), json({ ok: true })], {
      retry: { baseDelayMs: 3000, maxDelayMs: 5000 },
    });
    await http.request({ method: 'GET', path: '/x', schema: ok });
    expect(clock.sleeps).toEqual([3000, 5000, 5000]);
  });

  it('honours Retry-After in seconds and as an HTTP date; a wait beyond maxDelayMs goes back to the caller, never shortened', async () => {
    const { http, clock, fake } = setup([
      json({}, 429, { 'Retry-After': '2' }),
      json({}, 503, { 'Retry-After': 'Sat, 21 Nov 2026 12:00:05 GMT' }),
      json({}, 429, { 'Retry-After': '120' }),
      json({ ok: true }),
    ]);
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    // 2 s; then the date is 5 s after the clock's start, 2 s of which already passed: 3 s; then 120 s is the caller's to wait.
    expect(clock.sleeps).toEqual([2000, 3000]);
    expect(fake.calls).toHaveLength(3);
    expect(e).toMatchObject({ status: 429, retryAfterMs: 120_000 });
  });

  it('stops after maxRetries (5 attempts by default) and throws the last error', async () => {
    const replies = Array.from({ length: 10 }, () => json({ message: 'busy' }, 503));
    const { http, fake, clock } = setup(replies);
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    expect(fake.calls).toHaveLength(5);
    expect(clock.sleeps).toHaveLength(4);
    expect(e).toMatchObject({ kind: 'http', status: 503, message: 'busy' });
  });

  it('stops when the total time budget would be exceeded', async () => {
    const replies = Array.from({ length: 10 }, () => json({}, 429, { 'Retry-After': '8' }));
    const { http, fake, clock } = setup(replies, { retry: { maxRetries: 10, maxTotalMs: 20_000 } });
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    expect(clock.sleeps).toEqual([8000, 8000]);
    expect(fake.calls).toHaveLength(3);
    expect(e.status).toBe(429);
    expect(e.retryAfterMs).toBe(8000);
  });

  it('retry: false turns retries off for one request', async () => {
    const { http, fake } = setup([text('', 503), json({ ok: true })]);
    await errorOf(http.request({ method: 'GET', path: '/x', schema: ok, retry: false }));
    expect(fake.calls).toHaveLength(1);
  });

  it('a network error names the cause without the key', async () => {
    const { http } = setup([network('ECONNREFUSED')], { retry: { maxRetries: 0 } });
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    expect(e).toMatchObject({ kind: 'network', status: 0 });
    expect(e.message).toBe('Could not reach the service at https://api.example.test (fetch failed).');
    expect((e.cause as Error).message).toContain('ECONNREFUSED');
  });
});

describe('timeout and abort', () => {
  it('times out a request that never answers (kind timeout), and retries a GET', async () => {
    const { http, fake } = setup(['hang', 'hang', json({ ok: true })], { timeoutMs: 20 });
    await expect(http.request({ method: 'GET', path: '/x', schema: ok })).resolves.toEqual({ ok: true });
    expect(fake.calls).toHaveLength(3);
    expect(fake.calls[0]!.signal?.aborted).toBe(true);
  });

  it('a POST that times out is not retried', async () => {
    const { http, fake } = setup(['hang', json({ ok: true })], { timeoutMs: 20 });
    const e = await errorOf(http.request({ method: 'POST', path: '/x', json: {}, schema: ok }));
    expect(e).toMatchObject({ kind: 'timeout', status: 0, method: 'POST', path: '/x' });
    expect(e.message).toBe('The service did not answer within 20 ms.');
    expect(fake.calls).toHaveLength(1);
  });

  it('per-request timeoutMs overrides the configured one, and the message says how long', async () => {
    const { http } = setup(['hang'], { timeoutMs: 60_000, retry: { maxRetries: 0 } });
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok, timeoutMs: 1500 }));
    expect(e.kind).toBe('timeout');
    expect(e.message).toBe('The service did not answer within 1.5 s.');
  });

  it('a caller abort in flight gives kind aborted and no retry', async () => {
    const { http, fake } = setup(['hang', json({ ok: true })]);
    const controller = new AbortController();
    const pending = http.request({ method: 'GET', path: '/x', schema: ok, signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    const e = await errorOf(pending);
    expect(e).toMatchObject({ kind: 'aborted', status: 0, message: 'The request was cancelled.' });
    expect(fake.calls).toHaveLength(1);
  });

  it('an already-aborted signal sends nothing', async () => {
    const { http, fake } = setup([json({ ok: true })]);
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok, signal: AbortSignal.abort() }));
    expect(e.kind).toBe('aborted');
    expect(fake.calls).toHaveLength(0);
  });

  it('an abort during the backoff wait stops the retries', async () => {
    const controller = new AbortController();
    const fake = fakeFetch([text('', 503), json({ ok: true })]);
    const http = createHttp({
      baseUrl: 'https://api.example.test',
      apiKey: 'k',
      fetch: fake.fetch,
      sleep: async () => controller.abort(),
    });
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok, signal: controller.signal }));
    expect(e.kind).toBe('aborted');
    expect(fake.calls).toHaveLength(1);
  });

  it('the default sleep waits for real and ends early on abort', async () => {
    const fake = fakeFetch([json({}, 503, { 'Retry-After': '5' }), json({ ok: true })]);
    const http = createHttp({ baseUrl: 'https://api.example.test', apiKey: 'k', fetch: fake.fetch });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 30);
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok, signal: controller.signal }));
    expect(e.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('invalid responses', () => {
  it('a body over the size cap is refused without parsing (by Content-Length)', async () => {
    const big = JSON.stringify({ ok: true, pad: 'x'.repeat(2000) });
    const { http } = setup([json({ ok: true, pad: 'x'.repeat(2000) })], { maxResponseBytes: 1000 });
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    expect(big.length).toBeGreaterThan(1000);
    expect(e).toMatchObject({ kind: 'invalid-response', status: 200 });
    expect(e.message).toBe("The service's answer is larger than 1 KB; it was not read.");
  });

  it('a streamed body over the cap (no Content-Length) is cut off', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        controller.enqueue(chunk);
      },
    });
    const { http } = setup([new Response(stream, { status: 200 })]);
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    expect(e.kind).toBe('invalid-response');
    expect(e.message).toBe("The service's answer is larger than 5 MB; it was not read.");
    expect(sent).toBeLessThan(100); // it stopped reading soon after 5 MB
  });

  it('a non-JSON answer says so and quotes its start', async () => {
    const { http } = setup([text('<html><body>Maintenance</body></html>', 200, { 'Content-Type': 'text/html' })]);
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    expect(e.kind).toBe('invalid-response');
    expect(e.message).toBe('The service\'s answer is not JSON (it starts with "<html><body>Maintenance</body></html>").');
  });

  it('malformed JSON is refused', async () => {
    const { http } = setup([text('{"ok": tru', 200, { 'Content-Type': 'application/json' })]);
    const e = await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    expect(e.kind).toBe('invalid-response');
    expect(e.message).toMatch(/not JSON/);
  });

  it('a shape mismatch names the first issue path and message', async () => {
    const schema = z.array(z.looseObject({ id: z.string(), status: z.string() }));
    const { http } = setup([json([{ id: 'a', status: 'queued' }, { id: 'b', status: 7 }, { id: 3 }])]);
    const e = await errorOf(http.request({ method: 'GET', path: '/batches/b/executions', schema }));
    expect(e.kind).toBe('invalid-response');
    expect(e.status).toBe(200);
    expect(e.message).toBe(
      "The service's answer does not have the expected shape: [1].status: Invalid input: expected string, received number (and 2 more problems).",
    );
  });

  it('invalid-response is never retried', async () => {
    const { http, fake } = setup([text('oops'), json({ ok: true })]);
    await errorOf(http.request({ method: 'GET', path: '/x', schema: ok }));
    expect(fake.calls).toHaveLength(1);
  });
});

describe('invalid configuration', () => {
  it('refuses to send without a key, with a key that cannot be a header, or to a non-http URL', async () => {
    const fake = fakeFetch([json({ ok: true })]);
    for (const config of [
      { baseUrl: 'https://h.test', apiKey: '  ' },
      { baseUrl: 'https://h.test', apiKey: 'bad key' },
      { baseUrl: 'ftp://h.test', apiKey: 'k' },
      { baseUrl: 'h.test', apiKey: 'k' },
    ]) {
      const e = await errorOf(createHttp({ ...config, fetch: fake.fetch }).request({ method: 'GET', path: '/x', schema: ok }));
      expect(e.kind).toBe('invalid-request');
    }
    expect(fake.calls).toHaveLength(0);
  });

  it('trims a pasted key', async () => {
    const fake = fakeFetch([json({ ok: true })]);
    await createHttp({ baseUrl: 'https://h.test', apiKey: ' k1\n', fetch: fake.fetch }).request({ method: 'GET', path: '/x', schema: ok });
    expect(fake.calls[0]!.headers.get('authorization')).toBe('Bearer k1');
  });
});
