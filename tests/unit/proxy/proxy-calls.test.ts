/**
 * The proxy path, end to end on loopback: a page's transport → the proxy (Node shell) → the real
 * sandbox over HTTP. Calls walk to done with their results, Stop is confirmed by the service, a lost
 * answer makes one call, 429 and 5xx are retried and said, and the audit log holds each call once.
 * What reached the service is read from the sandbox's own records.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProxyTransport, ProxyTransportError } from '../../../lib/widget/proxy-transport';
import { call as sandboxCall } from '../../../sandbox/testing';
import { ALLOWED_ORIGIN, AGENT, callsPlaced, fault, OTHER_AGENT, readUntilDone, startHarness, testPolicy, type Harness } from '../../support/proxy-harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.sb.reset());

describe('calls through the proxy', () => {
  it.each(['call', 'batch'] as const)('a call placed via %s walks to done with its transcript, recording and data; the audit log holds it once', async (via) => {
    const transport = h.transport(await h.mint());
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550123', variables: { name: 'Ada' }, via });
    expect(placed).toMatchObject({ agentId: AGENT, toNumber: '+14155550123', via, done: false, stopRequested: false });
    const { view } = await readUntilDone(transport, placed.id);
    expect(view.status).toBe('completed');
    expect(view.executionId).toEqual(expect.any(String));
    expect(view.transcript).toEqual(expect.stringMatching(/\S/));
    expect(view.recordingUrl).toMatch(/^http/);
    expect(view.extractedData).not.toBeNull();
    expect(view.durationSeconds).toBeGreaterThan(0);
    expect(view.message).toBeNull();
    expect(view.observed.map((o) => o.status)).toContain('completed');
    // The sandbox's own truth: that execution, completed, and one placing request.
    const execution = await sandboxCall(h.sb.url, 'GET', `/executions/${view.executionId}`);
    expect(execution.body.status).toBe('completed');
    expect(callsPlaced(await h.sandboxRequests())).toBe(1);
    const lines = h.audit().filter((a) => a.placementId === placed.id);
    expect(lines).toEqual([expect.objectContaining({ executionId: view.executionId, origin: 'http://127.0.0.1:4101', agentId: AGENT, toNumber: '+14155550123', who: 'tester@crm.example', outcome: 'placed' })]);
  });

  it('Stop: a long call is stopped, the view says so once the service confirms, nothing more rings', async () => {
    const transport = h.transport(await h.mint());
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155551007', variables: {}, via: 'call' });
    // Wait until it rings or talks, then stop.
    for (let view = placed; !['ringing', 'in-progress'].includes(view.status ?? ''); view = await transport.read(placed.id)) {
      expect(view.done).toBe(false);
      await new Promise((r) => setTimeout(r, 100));
    }
    const stopping = await transport.stop(placed.id);
    expect(stopping.stopRequested).toBe(true);
    const { view } = await readUntilDone(transport, placed.id);
    expect(view.done).toBe(true);
    const execution = await sandboxCall(h.sb.url, 'GET', `/executions/${view.executionId}`);
    expect(execution.body.status).toBe(view.status);
    expect(['stopped', 'canceled', 'completed', 'call-disconnected']).toContain(view.status);
    expect(h.audit().filter((a) => a.placementId === placed.id)).toHaveLength(1);
  });

  it.each([
    ['batch', '^/batches$'],
    ['call', '^/call$'],
  ] as const)('a lost answer to the placing request (via %s) makes one call, not two', async (via, path) => {
    await fault(h.sb, { method: 'POST', path, dropAfter: true });
    const transport = h.transport(await h.mint());
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550124', variables: {}, via });
    const { view } = await readUntilDone(transport, placed.id);
    expect(view.status).toBe('completed');
    const log = await h.sandboxRequests();
    // The service acted on the one request whose answer was lost; the engine looked it up instead of sending it again.
    expect(log.filter((r) => r.method === 'POST' && new RegExp(path).test(r.path))).toHaveLength(1);
    const executions = await sandboxCall(h.sb.url, 'GET', `/v2/agent/${AGENT}/executions?page_size=50`);
    expect(executions.body.data.filter((e: { telephony_data?: { to_number?: string } }) => e.telephony_data?.to_number === '+14155550124')).toHaveLength(1);
    expect(h.audit().filter((a) => a.placementId === placed.id)).toEqual([expect.objectContaining({ executionId: view.executionId, outcome: 'placed' })]);
  });

  it('429s with Retry-After on the create are retried, and the view says so while it waits', async () => {
    // The client tries a 429 again by itself 4 times; the fifth reaches the engine, which waits and tries again.
    await fault(h.sb, { method: 'POST', path: '^/batches$', status: 429, retryAfter: 0, count: 5 });
    const transport = h.transport(await h.mint());
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550125', variables: {}, via: 'batch' });
    expect(placed.done).toBe(false);
    expect(placed.message).toMatch(/429/);
    expect(placed.message).toMatch(/Trying again/);
    const { view } = await readUntilDone(transport, placed.id);
    expect(view.status).toBe('completed');
    expect(view.message).toBeNull();
    const log = await h.sandboxRequests();
    expect(log.filter((r) => r.method === 'POST' && r.path === '/batches').map((r) => r.status)).toEqual([429, 429, 429, 429, 429, 201]);
    expect(callsPlaced(log)).toBe(1);
  });

  it('a 503 on the schedule is retried, and the view says so while it waits', async () => {
    await fault(h.sb, { method: 'POST', path: 'schedule$', status: 503, count: 2 });
    const transport = h.transport(await h.mint());
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550126', variables: {}, via: 'batch' });
    const { view, seen } = await readUntilDone(transport, placed.id);
    expect(seen.some((s) => /503/.test(s.message ?? '') && /Trying again/.test(s.message ?? ''))).toBe(true);
    expect(view.status).toBe('completed');
    const log = await h.sandboxRequests();
    expect(log.filter((r) => r.method === 'POST' && /schedule$/.test(r.path) && r.status !== 404).map((r) => r.status)).toEqual([503, 503, 200]);
    expect(callsPlaced(log)).toBe(1);
  });

  it('the retry message names the HTTP status even when the service\'s text does not', async () => {
    await fault(h.sb, { method: 'POST', path: '^/call$', status: 503, body: { detail: 'Upstream busy' } });
    const transport = h.transport(await h.mint());
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550132', variables: {}, via: 'call' });
    expect(placed.message).toBe('The service answered 503: Upstream busy. Trying again.');
    expect((await readUntilDone(transport, placed.id)).view.status).toBe('completed');
    expect(callsPlaced(await h.sandboxRequests())).toBe(1);
  });

  it('a refusal that will not pass ends the call with the service\'s reason, audited as not placed', async () => {
    await fault(h.sb, { method: 'POST', path: '^/batches$', status: 400, body: { error: 400, message: 'Invalid contact list' } });
    const transport = h.transport(await h.mint());
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550127', variables: {}, via: 'batch' });
    expect(placed.done).toBe(true);
    expect(placed.message).toMatch(/Invalid contact list/);
    expect(callsPlaced(await h.sandboxRequests())).toBe(0);
    expect(h.audit().filter((a) => a.placementId === placed.id)).toEqual([expect.objectContaining({ executionId: null, outcome: 'not-placed' })]);
  });

  it('a place whose answer is lost on the way to the page is sent again and answered with the same call', async () => {
    let lost = false;
    const transport = createProxyTransport({
      url: h.proxy.url,
      token: await h.mint(),
      fetch: async (input, init) => {
        const response = await fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: ALLOWED_ORIGIN } });
        if (!lost && init?.method === 'POST') {
          lost = true; // the proxy placed the call; the page never hears of it
          throw new TypeError('network error');
        }
        return response;
      },
    });
    const held = h.proxy.placements.size();
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550133', variables: {}, via: 'call' });
    expect(lost).toBe(true);
    expect(h.proxy.placements.size()).toBe(held + 1);
    await readUntilDone(transport, placed.id);
    expect(callsPlaced(await h.sandboxRequests())).toBe(1);
    expect(h.audit().filter((a) => a.toNumber === '+14155550133')).toHaveLength(1);
    // The same key for another call is refused, not mistaken for it.
    const token = await h.mint();
    const first = await h.raw('POST', '/v1/calls', { token, body: { agentId: AGENT, toNumber: '+14155550134', via: 'call' }, headers: { 'Idempotency-Key': 'intent-0001' } });
    const again = await h.raw('POST', '/v1/calls', { token, body: { agentId: AGENT, toNumber: '+14155550134', via: 'call' }, headers: { 'Idempotency-Key': 'intent-0001' } });
    const other = await h.raw('POST', '/v1/calls', { token, body: { agentId: AGENT, toNumber: '+14155550135', via: 'call' }, headers: { 'Idempotency-Key': 'intent-0001' } });
    expect([first.status, again.status, other.status]).toEqual([201, 200, 409]);
    expect(again.body.id).toBe(first.body.id);
  });

  it('a call can be read and stopped only with the token that placed it', async () => {
    const mine = h.transport(await h.mint());
    const theirs = h.transport(await h.mint({ who: 'someone-else' }));
    const placed = await mine.place({ agentId: AGENT, toNumber: '+14155551007', variables: {}, via: 'call' });
    await expect(theirs.read(placed.id)).rejects.toMatchObject({ status: 404, code: 'not-found' });
    await expect(theirs.stop(placed.id)).rejects.toMatchObject({ status: 404, code: 'not-found' });
    const stopped = await mine.stop(placed.id);
    expect(stopped.stopRequested).toBe(true);
    await readUntilDone(mine, placed.id);
  });
});

describe('limits', () => {
  it('per token: calls past tokenCallsPerMinute are refused with Retry-After and said; another token still calls', async () => {
    const limited = await startHarness({ policy: testPolicy({ limits: { tokenCallsPerMinute: 1 } }) });
    try {
      const token = await limited.mint();
      const transport = limited.transport(token);
      const first = await transport.place({ agentId: AGENT, toNumber: '+14155550128', variables: {}, via: 'call' });
      const refused = await transport.place({ agentId: AGENT, toNumber: '+14155550129', variables: {}, via: 'call' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ProxyTransportError);
      expect(refused).toMatchObject({ status: 429, code: 'rate-limited' });
      expect((refused as ProxyTransportError).retryAfterSeconds).toBeGreaterThan(0);
      expect((refused as Error).message).toMatch(/Too many requests to the proxy\. Try again in \d+ s\./);
      await limited.transport(await limited.mint()).place({ agentId: AGENT, toNumber: '+14155550130', variables: {}, via: 'call' });
      await readUntilDone(transport, first.id);
      expect(callsPlaced(await limited.sandboxRequests())).toBe(2);
    } finally {
      await limited.close();
    }
  });

  it('the proxy\'s own budget of service requests: past it nothing is sent, the call waits and says why', async () => {
    const limited = await startHarness({ policy: testPolicy({ limits: { serviceRequestsPerMinute: 2 } }) });
    try {
      const transport = limited.transport(await limited.mint());
      // The engine's first step of a call is two requests (POST /call, then the first read): the whole budget.
      const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550136', variables: {}, via: 'call' });
      expect(placed.executionId).toEqual(expect.any(String));
      await expect.poll(async () => (await transport.read(placed.id)).message, { timeout: 10_000 }).toMatch(/^The proxy's own budget of 2 service requests a minute is spent \(429 from the proxy, not the service\)\. Trying again\.$/);
      const log = await limited.sandboxRequests();
      expect(log.map((r) => r.method)).toEqual(['POST', 'GET']);
      expect((await transport.read(placed.id)).done).toBe(false);
    } finally {
      await limited.close();
    }
  });

  it('globally: requests past requestsPerMinute are refused for every token', async () => {
    const limited = await startHarness({ policy: testPolicy({ limits: { requestsPerMinute: 2 } }) });
    try {
      const a = limited.transport(await limited.mint());
      const b = limited.transport(await limited.mint());
      const placed = await a.place({ agentId: AGENT, toNumber: '+14155550131', variables: {}, via: 'call' });
      await a.read(placed.id);
      await expect(b.read(placed.id)).rejects.toMatchObject({ status: 429, code: 'rate-limited' });
      await expect(a.read(placed.id)).rejects.toMatchObject({ status: 429 });
    } finally {
      await limited.close();
    }
  });
});
