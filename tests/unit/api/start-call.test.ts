/**
 * The client's immediate calls against the real sandbox: `startCall` / `stopCall` where the service
 * has `POST /call` (live and both forms); where it does not (spec form) the route 404 comes back as a
 * missing route and is remembered per base URL (`offersStartCall`); requests are checked before sending.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { ApiError, isRouteMissing } from '../../../lib/api/errors';
import { clearRouteMemory, rememberedRoutes, ROUTE_KEYS } from '../../../lib/api/routes';
import { OWNER_KEY } from '../../../sandbox/keys';
import type { RoutesMode } from '../../../sandbox/router';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { call } from '../../../sandbox/testing';

const A = SEED.A;
const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));
beforeEach(() => clearRouteMemory());

async function clientAt(routes: RoutesMode) {
  const sb = await startSandbox({ routes, speed: 300 });
  sandboxes.push(sb);
  const stored: Record<string, unknown> = {};
  const client = createClient({
    baseUrl: sb.url,
    apiKey: OWNER_KEY,
    routeMemory: { get: (b) => stored[b] as never, set: (b, forms) => void (stored[b] = forms) },
  });
  return { sb, client, stored };
}

describe.each(['live', 'both'] as RoutesMode[])('%s routes', (routes) => {
  it('startCall sends the JSON the service takes and answers the execution id; the route is remembered as offered', async () => {
    const { sb, client } = await clientAt(routes);
    expect(await client.offersStartCall()).toBeUndefined();
    await call(sb.url, 'POST', '/__sandbox/clock', { key: null, body: { speed: 0.001 } });
    const started = await client.startCall({ agent_id: A.agents.sales, recipient_phone_number: '+14155550123', user_data: { name: 'Ann' } });
    expect(started).toMatchObject({ status: 'queued', execution_id: expect.any(String) });
    expect(await client.offersStartCall()).toBe(true);
    const placed = await client.getExecution(started.execution_id);
    expect(placed).toMatchObject({ batch_id: null, status: 'queued' });
    expect(placed.context_details).toMatchObject({ recipient_data: { name: 'Ann' } });

    const stopped = await client.stopCall(started.execution_id);
    expect(stopped).toMatchObject({ status: 'stopped', execution_id: started.execution_id });
    expect((await client.getExecution(started.execution_id)).status).toBe('stopped');
  });

  it('a refused stop is an error with the service’s message, not a missing route', async () => {
    const { client } = await clientAt(routes);
    const error = await client.stopCall(A.executions.completed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isRouteMissing(error)).toBe(false);
    expect((error as ApiError).serviceMessage).toMatch(/only a queued or scheduled call can be stopped/);
  });
});

describe('spec routes (no POST /call)', () => {
  it('startCall fails as a missing route, which is remembered (and persisted) for the base URL', async () => {
    const { sb, client, stored } = await clientAt('spec');
    const error = await client.startCall({ agent_id: A.agents.sales, recipient_phone_number: '+14155550123' }).catch((e: unknown) => e);
    expect(isRouteMissing(error)).toBe(true);
    expect(await client.offersStartCall()).toBe(false);
    expect(rememberedRoutes(sb.url)[ROUTE_KEYS.callStart]).toBe('spec');
    expect(stored[sb.url]).toMatchObject({ [ROUTE_KEYS.callStart]: 'spec' });
  });
});

describe('requests are checked before anything is sent', () => {
  it.each([
    [{ agent_id: A.agents.sales, recipient_phone_number: '4155550123' }, /E\.164/],
    [{ agent_id: '', recipient_phone_number: '+14155550123' }, /agent_id/],
    [{ agent_id: A.agents.sales, recipient_phone_number: '+14155550123', from_phone_number: 'nope' }, /E\.164/],
    [{ agent_id: A.agents.sales, recipient_phone_number: '+14155550123', extra: 1 }, /extra/],
  ])('%j', async (request, message) => {
    const { sb, client } = await clientAt('live');
    const error = await client.startCall(request as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('invalid-request');
    expect((error as ApiError).message).toMatch(message);
    const log = (await call(sb.url, 'GET', '/__sandbox/requests', { key: null })).body as unknown[];
    expect(log).toEqual([]);
  });
});
