/**
 * The proxy path, end to end on loopback: a page's transport → the proxy (Node shell) → the real
 * sandbox over HTTP. Calls walk to done with their results, Stop is confirmed by the service, a lost
 * answer makes one call, 429 and 5xx are retried and said, and the audit log holds each call once.
 * What reached the service is read from the sandbox's own records.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProxyTransportError } from '../../../lib/widget/proxy-transport';
import { call as sandboxCall } from '../../../sandbox/testing';
import { AGENT, callsPlaced, fault, OTHER_AGENT, readUntilDone, startHarness, type Harness } from '../../support/proxy-harness';

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

  it('a lost answer to the create makes one call, not two', async () => {
    await fault(h.sb, { method: 'POST', path: '^/batches$', dropAfter: true });
    const transport = h.transport(await h.mint());
    const placed = await transport.place({ agentId: AGENT, toNumber: '+14155550124', variables: {}, via: 'batch' });
    const { view } = await readUntilDone(transport, placed.id);
    expect(view.status).toBe('completed');
    const log = await h.sandboxRequests();
    expect(log.filter((r) => r.method === 'POST' && r.path === '/batches').length).toBe(2); // the lost one and… no: see below
  });
});
