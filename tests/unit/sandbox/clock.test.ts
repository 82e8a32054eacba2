import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { call, placeCalls, waitForTerminal } from '../../../sandbox/testing';
import { AGENT_ID } from '../../../sandbox/seed';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, speed: 400 });
});
afterAll(() => sandbox.close());

describe('sandbox clock and status events', () => {
  it('tells clients its clock speed on every answer, errors included, and exposes it to CORS', async () => {
    const ok = await call(sandbox.url, 'GET', '/v2/agent/all');
    expect(ok.headers.get('x-sandbox-speed')).toBe('400');
    const refused = await call(sandbox.url, 'GET', '/v2/agent/all', { key: null });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-sandbox-speed')).toBe('400');
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/X-Sandbox-Speed/);
  });

  it('logs each status change of an execution once, in order, with its time', async () => {
    const before = Date.now();
    const placed = await placeCalls(sandbox.url, AGENT_ID, [{ contact_number: '+14155552671' }]);
    const executionId = placed.executionIds[0]!;
    await waitForTerminal(sandbox.url, executionId);
    const res = await fetch(`${sandbox.url}/__sandbox/events?execution_id=${executionId}`);
    const events = (await res.json()) as { status: string; at: number }[];
    const statuses = events.map((e) => e.status);
    expect(statuses.slice(-6)).toEqual(['queued', 'initiated', 'ringing', 'in-progress', 'call-disconnected', 'completed']);
    expect(new Set(statuses).size).toBe(statuses.length);
    for (let i = 1; i < events.length; i++) expect(events[i]!.at).toBeGreaterThanOrEqual(events[i - 1]!.at);
    expect(events[0]!.at).toBeGreaterThanOrEqual(before);
  });
});
