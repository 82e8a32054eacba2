// Immediate calls (`POST /call`, `POST /call/:id/stop`): live and both route modes only; outcomes by
// dialled number as batch rows; stop only while queued; refusals with the service's messages.
import { afterAll, describe, expect, it } from 'vitest';
import { callStarted, callStopped, execution } from '../../../lib/api/schemas';
import { READONLY_KEY } from '../../../sandbox/keys';
import type { RoutesMode } from '../../../sandbox/router';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { call, placeCalls, waitFor, waitForTerminal } from '../../../sandbox/testing';

const A = SEED.A;
const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

async function sandbox(routes: RoutesMode, speed = 600): Promise<Sandbox> {
  const sb = await startSandbox({ routes, speed });
  sandboxes.push(sb);
  return sb;
}

const start = (base: string, body: unknown, key?: string) => call(base, 'POST', '/call', { body, key });
const get = (base: string, path: string) => call(base, 'GET', path);
const slow = (base: string) => call(base, 'POST', '/__sandbox/clock', { key: null, body: { speed: 0.001 } });

describe('route modes', () => {
  it('spec: both routes answer the route 404 ("Not Found"), as a service without them', async () => {
    const sb = await sandbox('spec');
    const started = await start(sb.url, { agent_id: A.agents.sales, recipient_phone_number: '+14155550123' });
    expect(started.status).toBe(404);
    expect(started.body).toEqual({ error: 404, message: 'Not Found' });
    const stopped = await call(sb.url, 'POST', `/call/${A.executions.completed}/stop`);
    expect(stopped.status).toBe(404);
    expect(stopped.body.message).toBe('Not Found');
    // Nothing was dialled.
    const executions = await get(sb.url, `/agent/${A.agents.sales}/executions`);
    expect((executions.body as Array<{ batch_id: string | null }>).every((e) => e.batch_id)).toBe(true);
  });

  it.each(['live', 'both'] as RoutesMode[])('%s: POST /call answers queued with an execution that walks to completed, not in any batch', async (mode) => {
    const sb = await sandbox(mode);
    const started = await start(sb.url, { agent_id: A.agents.sales, recipient_phone_number: '+14155550123', user_data: { name: 'Grace', plan: 'gold' } });
    expect(started.status).toBe(200);
    expect(callStarted.parse(started.body)).toMatchObject({ message: 'done', status: 'queued' });
    const id = started.body.execution_id as string;
    const first = await get(sb.url, `/executions/${id}`);
    expect(first.body).toMatchObject({ id, batch_id: null, agent_id: A.agents.sales });
    expect(first.body.context_details).toEqual({ recipient_data: { name: 'Grace', plan: 'gold' }, recipient_phone_number: '+14155550123' });
    // The account's first number when the request names none.
    expect(first.body.telephony_data.from_number).toBe(A.phoneNumbers.primary.phone_number);

    const done = await waitForTerminal(sb.url, id);
    expect(execution.safeParse(done).success).toBe(true);
    expect(done.status).toBe('completed');
    expect(done.conversation_duration).toBeGreaterThan(0);
    expect(done.transcript).toContain('Grace');
    const events = await call(sb.url, 'GET', `/__sandbox/events?execution_id=${id}`, { key: null });
    expect((events.body as Array<{ status: string }>).map((e) => e.status)).toEqual(['queued', 'initiated', 'ringing', 'in-progress', 'call-disconnected', 'completed']);
  });
});

describe('outcomes by number, as batch rows', () => {
  it.each([
    ['+14155551001', 'busy'],
    ['+14155551002', 'no-answer'],
    ['+14155551003', 'failed'],
    ['+14155551004', 'completed'],
    ['+14155551005', 'error'],
    ['+14155551006', 'canceled'],
  ])('%s ends %s, like the same number in a batch', async (number, status) => {
    const sb = await sandbox('live', 2000);
    const started = await start(sb.url, { agent_id: A.agents.sales, recipient_phone_number: number });
    const { executionIds } = await placeCalls(sb.url, A.agents.sales, [{ contact_number: number }]);
    await call(sb.url, 'POST', '/__sandbox/clock', { key: null, body: { advance: true } });
    const now = await waitForTerminal(sb.url, started.body.execution_id);
    expect(now.status).toBe(status);
    const batched = await waitFor(async () => {
      await call(sb.url, 'POST', '/__sandbox/clock', { key: null, body: { advance: true } });
      const r = await get(sb.url, `/executions/${executionIds[0]}`);
      return r.body.status === status ? r.body : undefined;
    }, { what: 'the batch row to end the same way' });
    expect(batched.answered_by_voice_mail).toBe(now.answered_by_voice_mail);
  });
});

describe('refusals name what is wrong', () => {
  it.each([
    [{ recipient_phone_number: '+14155550123' }, 400, /agent_id is required/],
    [{ agent_id: A.agents.sales }, 400, /recipient_phone_number is required/],
    [{ agent_id: A.agents.sales, recipient_phone_number: '4155550123' }, 422, /not an E\.164/],
    [{ agent_id: 'no-such-agent', recipient_phone_number: '+14155550123' }, 404, /Agent not found/],
    [{ agent_id: A.agents.sales, recipient_phone_number: '+14155550123', from_phone_number: '+19995550000' }, 422, /not owned by this account/],
    [{ agent_id: A.agents.sales, recipient_phone_number: '+14155550123', user_data: 'x' }, 400, /user_data/],
  ])('%j → %i', async (body, status, message) => {
    const sb = await sandbox('both');
    const r = await start(sb.url, body);
    expect(r.status).toBe(status);
    expect(r.body.message).toMatch(message);
  });

  it('a read-only key cannot place a call', async () => {
    const sb = await sandbox('both');
    const r = await start(sb.url, { agent_id: A.agents.sales, recipient_phone_number: '+14155550123' }, READONLY_KEY);
    expect(r.status).toBe(403);
  });
});

describe('POST /call/:id/stop', () => {
  it('stops a queued call: the execution ends stopped and never rings', async () => {
    const sb = await sandbox('live');
    await slow(sb.url);
    const started = await start(sb.url, { agent_id: A.agents.sales, recipient_phone_number: '+14155550123' });
    const id = started.body.execution_id as string;
    const stopped = await call(sb.url, 'POST', `/call/${id}/stop`);
    expect(stopped.status).toBe(200);
    expect(callStopped.parse(stopped.body)).toMatchObject({ status: 'stopped', execution_id: id });
    expect((await get(sb.url, `/executions/${id}`)).body.status).toBe('stopped');
    // No pending step of it is left to ring later.
    await call(sb.url, 'POST', '/__sandbox/clock', { key: null, body: { advance: true } });
    const events = await call(sb.url, 'GET', `/__sandbox/events?execution_id=${id}`, { key: null });
    expect((events.body as Array<{ status: string }>).map((e) => e.status)).toEqual(['queued', 'stopped']);
  });

  it('refuses once the call is under way (the live service stops only queued or scheduled calls); the call goes on', async () => {
    const sb = await sandbox('both');
    await slow(sb.url);
    const started = await start(sb.url, { agent_id: A.agents.sales, recipient_phone_number: '+14155550123' });
    const id = started.body.execution_id as string;
    await call(sb.url, 'POST', '/__sandbox/clock', { key: null, body: { advance: true } });
    expect((await get(sb.url, `/executions/${id}`)).body.status).toBe('initiated');
    const refused = await call(sb.url, 'POST', `/call/${id}/stop`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/only a queued or scheduled call can be stopped/);
    expect((await get(sb.url, `/executions/${id}`)).body.status).toBe('initiated');
  });

  it('an unknown execution is a resource 404, not a missing route', async () => {
    const sb = await sandbox('live');
    const r = await call(sb.url, 'POST', '/call/00000000-0000-4000-8000-000000000000/stop');
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Execution not found');
  });
});
