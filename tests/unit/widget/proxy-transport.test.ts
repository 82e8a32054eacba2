/**
 * The widget's proxy transport: the token goes in Authorization (never cookies), every answer is
 * parsed, and each failure reads as a sentence with the proxy's code. (Against the real proxy:
 * tests/unit/proxy/proxy-calls.test.ts and worker.test.ts.)
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createProxyTransport, ProxyTransportError } from '../../../lib/widget/proxy-transport';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => async () =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const failure = async (fetchImpl: typeof fetch): Promise<ProxyTransportError> => {
  const error = await createProxyTransport({ url: 'https://proxy.example/', token: 'vat1.a.b', fetch: fetchImpl }).read('call-1').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProxyTransportError);
  return error as ProxyTransportError;
};

describe('createProxyTransport', () => {
  it('sends the token in Authorization, JSON, without credentials, to the proxy\'s routes', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const view = { id: 'c1', agentId: 'a', toNumber: '+14155550123', via: 'call', executionId: null, status: null, observed: [], done: false, message: null, stopRequested: false, durationSeconds: null, cost: null, transcript: null, recordingUrl: null, extractedData: null };
    const transport = createProxyTransport({
      url: 'https://proxy.example/',
      token: 'vat1.a.b',
      fetch: async (url, init) => {
        seen.push({ url: String(url), init: init! });
        return new Response(JSON.stringify(view), { status: 200 });
      },
    });
    await transport.place({ agentId: 'a', toNumber: '+14155550123', variables: {}, via: 'call' });
    await transport.read('c/1');
    await transport.stop('c1');
    expect(seen.map((s) => `${s.init.method} ${s.url}`)).toEqual(['POST https://proxy.example/v1/calls', 'GET https://proxy.example/v1/calls/c%2F1', 'POST https://proxy.example/v1/calls/c1/stop']);
    expect(seen[0]!.init).toMatchObject({ credentials: 'omit', headers: { Authorization: 'Bearer vat1.a.b', 'Content-Type': 'application/json' } });
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ agentId: 'a', toNumber: '+14155550123', variables: {}, via: 'call' });
  });

  it('a place whose answer never came is sent once more under the same Idempotency-Key', async () => {
    const keys: Array<string | undefined> = [];
    const view = { id: 'c1', agentId: 'a', toNumber: '+14155550123', via: 'call', executionId: null, status: null, observed: [], done: false, message: null, stopRequested: false, durationSeconds: null, cost: null, transcript: null, recordingUrl: null, extractedData: null };
    const transport = createProxyTransport({
      url: 'https://proxy.example',
      token: 't',
      fetch: async (_url, init) => {
        keys.push((init!.headers as Record<string, string>)['Idempotency-Key']);
        if (keys.length === 1) throw new TypeError('network error');
        return new Response(JSON.stringify(view), { status: 201 });
      },
    });
    expect((await transport.place({ agentId: 'a', toNumber: '+14155550123', variables: {}, via: 'call' })).id).toBe('c1');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('says what each refusal means', async () => {
    expect(await failure(answer(401, { error: 'The widget token has expired: the page needs a new one.', code: 'token-expired' }))).toMatchObject({
      status: 401,
      code: 'token-expired',
      message: "The proxy refused the widget's token (The widget token has expired: the page needs a new one.). Ask the page's owner for a new token.",
    });
    expect(await failure(answer(403, { error: 'Agent x is not in this proxy\'s policy.', code: 'agent-not-allowed' }))).toMatchObject({ code: 'agent-not-allowed', message: "The proxy refused this request: Agent x is not in this proxy's policy." });
    expect(await failure(answer(429, { error: 'Too many', code: 'rate-limited' }, { 'Retry-After': '7' }))).toMatchObject({ code: 'rate-limited', retryAfterSeconds: 7, message: 'Too many requests to the proxy. Try again in 7 s.' });
    expect(await failure(answer(502, '<html>Bad gateway</html>'))).toMatchObject({ status: 502, code: 'http-502', message: 'The proxy failed (502). Try again in a moment.' });
    expect(await failure(answer(404, { error: 'No call with this id was placed with this widget token.', code: 'not-found' }))).toMatchObject({ message: 'The proxy refused this request (404): No call with this id was placed with this widget token.' });
  });

  it('refuses an answer that is not a call view', async () => {
    expect(await failure(answer(200, { id: 'c1', apiKey: 'x' }))).toMatchObject({ code: 'bad-answer', message: 'The proxy answered something this widget does not understand (200).' });
  });

  it('a proxy that cannot be reached is named', async () => {
    // A port that was just free: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const error = await createProxyTransport({ url: `http://127.0.0.1:${port}`, token: 't' }).read('c1').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network', status: 0, message: `Could not reach the proxy at http://127.0.0.1:${port}. Check the connection and the proxy's address.` });
  });
});
