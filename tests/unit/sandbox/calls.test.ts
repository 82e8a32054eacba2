// Calls end to end over HTTP: batch → schedule → status walk → results, outcomes, stop, wallet, webhooks.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execution, executionLog, isTerminalExecutionStatus } from '../../../lib/api/schemas';
import { EMPTY_WALLET_KEY, OWNER_KEY } from '../../../sandbox/keys';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { batchForm, call, placeCalls, scheduledAtIn, waitFor, waitForTerminal } from '../../../sandbox/testing';

const SPEED = 600;
const A = SEED.A;
let sb: Sandbox;
let base: string;

// A tiny webhook receiver on a free port.
let receiver: Server;
let hookUrl: string;
let received: Array<{ path: string; body: any }> = [];

beforeAll(async () => {
  sb = await startSandbox({ speed: SPEED });
  base = sb.url;
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) });
      res.writeHead(req.url === '/fail' ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sb.close();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(async () => {
  sb.reset();
  received = [];
  await clock({ speed: SPEED });
});

const get = (path: string, key = OWNER_KEY) => call(base, 'GET', path, { key });
/** Sets the sandbox clock's speed for waits armed from now on; `advance` fires every pending wait now. */
const clock = (body: { speed?: number; advance?: boolean }) => fetch(`${base}/__sandbox/clock`, { method: 'POST', body: JSON.stringify(body) });

describe('a call from CSV to results', () => {
  it('multipart batch → schedule (+00:00, 3 min) → completed with transcript, extracted data and a playable recording', async () => {
    // The clock nearly stands while the batch is placed, so 'scheduled' is seen however slow this machine is.
    await clock({ speed: 0.001 });
    const { batchId, executionIds } = await placeCalls(base, A.agents.sales, [{ contact_number: '+14155550123', name: 'Grace', plan: 'gold' }]);
    expect(executionIds).toHaveLength(1);
    const id = executionIds[0]!;
    const scheduled = await get(`/executions/${id}`);
    expect(scheduled.body.status).toBe('scheduled');
    await clock({ speed: SPEED, advance: true });
    expect(scheduled.body.context_details).toEqual({ recipient_data: { name: 'Grace', plan: 'gold' }, recipient_phone_number: '+14155550123' });

    const done = await waitForTerminal(base, id);
    expect(done.status).toBe('completed');
    expect(execution.safeParse(done).success).toBe(true);
    expect(done.conversation_duration).toBeGreaterThan(0);
    expect(done.conversation_time).toBe(done.conversation_duration);
    expect(done.total_cost).toBeGreaterThan(0);
    expect(done.answered_by_voice_mail).toBe(false);
    expect(done.transcript).toMatch(/^assistant: Hello Grace! This is Ava/);
    expect(done.transcript.split('\n').filter((l: string) => l.startsWith('user: ')).length).toBeGreaterThanOrEqual(3);
    expect(done.extracted_data).toMatchObject({ interested: true, callback_time: 'tomorrow 10am' });
    expect(Object.keys(done.cost_breakdown).sort()).toEqual(['llm', 'network', 'platform', 'synthesizer', 'transcriber']);
    expect(done.telephony_data).toMatchObject({ to_number: '+14155550123', from_number: A.phoneNumbers.primary.phone_number, provider: 'twilio', hangup_reason: 'Normal Hangup' });
    expect(done.telephony_data.provider_call_id).toBeTruthy();

    // The recording is served by the sandbox, without a key, and is a real WAV.
    const url: string = done.telephony_data.recording_url;
    expect(url.startsWith(`${base}/recordings/${id}.wav?expires=`)).toBe(true);
    const wav = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    expect(wav.readUInt32LE(40)).toBeGreaterThan(0);
    // Presigned: an expired (or tampered) URL is refused.
    const expired = new URL(url);
    expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10));
    const refused = await fetch(expired);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/AccessDenied/);

    // The component log matches the transcript.
    const log = await get(`/executions/${id}/log`);
    expect(executionLog.safeParse(log.body).success).toBe(true);
    const heard = log.body.data.filter((e: { component: string }) => e.component === 'transcriber').map((e: { data: string }) => e.data);
    expect(heard).toEqual(done.transcript.split('\n').filter((l: string) => l.startsWith('user: ')).map((l: string) => l.slice(6)));

    const batch = await waitFor(async () => {
      const b = await get(`/batches/${batchId}`);
      return b.body.status === 'completed' ? b.body : undefined;
    });
    expect(batch.execution_status).toEqual({ completed: 1 });
    // The wallet paid for it (cents → dollars).
    expect((await get('/user/me')).body.wallet).toBeCloseTo(1250.75 - done.total_cost / 100, 2);
  });

  it('rows are prepared until scheduled; the start waits (scheduled_at − now) / speed', async () => {
    const created = await call(base, 'POST', '/batches', { body: batchForm(A.agents.sales, [{ contact_number: '+14155550123' }]) });
    const batchId = created.body.batch_id;
    const [row] = (await get(`/batches/${batchId}/executions`)).body;
    expect(row.status).toBe('prepared');
    expect((await get(`/batches/${batchId}`)).body).toMatchObject({ status: 'created', execution_status: { prepared: 1 }, valid_contacts: 1, total_contacts: 1 });
    const form = new FormData();
    // 10 minutes ahead at speed 600 → the batch starts about 1 s later.
    form.append('scheduled_at', scheduledAtIn(10 * 60_000));
    const t0 = Date.now();
    await call(base, 'POST', `/batches/${batchId}/schedule`, { body: form });
    expect((await get(`/executions/${row.id}`)).body.status).toBe('scheduled');
    await waitFor(async () => (await get(`/batches/${batchId}`)).body.status === 'running', { timeoutMs: 5000 });
    const waited = Date.now() - t0;
    expect(waited).toBeGreaterThan(800);
    // Unscaled, the wait would be 10 minutes; the margin only absorbs a loaded machine.
    expect(waited).toBeLessThan(5000);
  });

  it('webhooks: every status change is POSTed in order; call-disconnected carries nulls until completed fills them', async () => {
    const { executionIds } = await placeCalls(base, A.agents.sales, [{ contact_number: '+14155550123' }], { extra: { webhook_url: `${hookUrl}/batch-hook` } });
    const id = executionIds[0]!;
    await waitForTerminal(base, id);
    await waitFor(async () => received.some((r) => r.body.status === 'completed'));
    const statuses = received.filter((r) => r.body.id === id).map((r) => r.body.status);
    expect(statuses).toEqual(['scheduled', 'queued', 'initiated', 'ringing', 'in-progress', 'call-disconnected', 'completed']);
    expect(received.every((r) => r.path === '/batch-hook')).toBe(true);
    for (const r of received) expect(execution.safeParse(r.body).success).toBe(true);
    const soft = received.find((r) => r.body.status === 'call-disconnected')!.body;
    expect(soft.conversation_duration).toBeNull();
    expect(soft.total_cost === null || soft.total_cost === 0).toBe(true);
    expect(soft.telephony_data.recording_url).toBeNull();
    expect(soft.extracted_data).toBeNull();
    const done = received.find((r) => r.body.status === 'completed')!.body;
    expect(done.conversation_duration).toBeGreaterThan(0);
    expect(done.telephony_data.recording_url).toMatch(/\/recordings\//);
    expect(done.extracted_data).not.toBeNull();
    const log = (await call(base, 'GET', '/__sandbox/webhooks', { key: null })).body;
    expect(log.filter((d: { outcome: string }) => d.outcome === 'delivered').length).toBe(7);
  });

  it("webhooks go to the agent's webhook_url too; a failing receiver never breaks the sandbox", async () => {
    await call(base, 'PATCH', `/v2/agent/${A.agents.reminder}`, { body: { agent_config: { webhook_url: `${hookUrl}/fail` } } });
    const { executionIds } = await placeCalls(base, A.agents.reminder, [{ contact_number: '+14155551001' }]);
    expect((await waitForTerminal(base, executionIds[0]!)).status).toBe('busy');
    await waitFor(async () => received.some((r) => r.body.status === 'busy'));
    expect(received.every((r) => r.path === '/fail')).toBe(true);
    // A dead receiver: deliveries fail, calls go on.
    await call(base, 'PATCH', `/v2/agent/${A.agents.survey}`, { body: { agent_config: { webhook_url: 'http://127.0.0.1:1/dead' } } });
    const dead = await placeCalls(base, A.agents.survey, [{ contact_number: '+14155551002' }]);
    expect((await waitForTerminal(base, dead.executionIds[0]!)).status).toBe('no-answer');
    const deliveries = await waitFor(async () => {
      const log = (await call(base, 'GET', '/__sandbox/webhooks', { key: null })).body as Array<{ url: string; outcome: string }>;
      const toDead = log.filter((d) => d.url.includes('/dead'));
      return toDead.length > 0 && toDead.every((d) => d.outcome === 'failed') ? log : undefined;
    });
    expect(deliveries.some((d) => d.url.endsWith('/fail') && d.outcome === 'failed')).toBe(true);
    expect((await get('/user/me')).status).toBe(200);
  });
});

describe('outcomes by the last four digits', () => {
  it('1001 busy, 1002 no-answer, 1003 failed, 1004 voicemail, 1005 error, 1006 canceled, 1007 long (until stopped)', async () => {
    // The long call is on the line for two sandbox minutes: at speed 30 that is 4 s, long enough to be seen on a loaded machine.
    await clock({ speed: 30 });
    const numbers = ['+14155551001', '+14155551002', '+14155551003', '+14155551004', '+14155551005', '+14155551006', '+14155551007'];
    const { batchId, executionIds } = await placeCalls(base, A.agents.sales, numbers.map((contact_number) => ({ contact_number })));
    const byNumber = async () => {
      const rows = await Promise.all(executionIds.map(async (id) => (await get(`/executions/${id}`)).body));
      return Object.fromEntries(rows.map((r) => [r.telephony_data.to_number.slice(-4), r])) as Record<string, any>;
    };
    // Everyone but the long call ends; the long call is on the line.
    // Polled every 200 ms (7 reads a poll), well inside the sandbox's per-key rate limit.
    const rows = await waitFor(
      async () => {
        const r = await byNumber();
        const others = Object.entries(r).filter(([k]) => k !== '1007');
        return others.every(([, e]) => isTerminalExecutionStatus(e.status)) && r['1007'].status === 'in-progress' ? r : undefined;
      },
      { intervalMs: 200, timeoutMs: 20_000, what: 'every call but the long one to end' },
    );
    expect(rows['1001']).toMatchObject({ status: 'busy', conversation_duration: 0, telephony_data: { hangup_reason: 'Busy Line' } });
    expect(rows['1002']).toMatchObject({ status: 'no-answer', telephony_data: { hangup_reason: 'No Answer' } });
    expect(rows['1003']).toMatchObject({ status: 'failed', telephony_data: { hangup_reason: 'Destination Unreachable', hangup_provider_code: 2010 } });
    expect(rows['1003'].error_message).toBeTruthy();
    expect(rows['1004']).toMatchObject({ status: 'completed', answered_by_voice_mail: true });
    expect(rows['1004'].conversation_duration).toBeGreaterThan(0);
    expect(rows['1004'].conversation_duration).toBeLessThan(15);
    expect(rows['1005'].status).toBe('error');
    expect(rows['1005'].error_message).toBeTruthy();
    expect(rows['1006'].status).toBe('canceled');
    expect(rows['1007'].status).toBe('in-progress');
    for (const row of Object.values(rows)) expect(execution.safeParse(row).success).toBe(true);

    // execution_status always counts the rows by status.
    const running = (await get(`/batches/${batchId}`)).body;
    expect(running.status).toBe('running');
    expect(running.execution_status).toEqual({ busy: 1, 'no-answer': 1, failed: 1, completed: 1, error: 1, canceled: 1, 'in-progress': 1 });

    const stop = await call(base, 'POST', `/batches/${batchId}/stop`);
    expect(stop.body).toEqual({ message: 'success', state: 'stopped' });
    const stopped = (await get(`/executions/${rows['1007'].id}`)).body;
    expect(stopped.status).toBe('stopped');
    expect(stopped.conversation_duration).toBeGreaterThan(0);
    const after = (await get(`/batches/${batchId}`)).body;
    expect(after.status).toBe('stopped');
    expect(after.execution_status.stopped).toBe(1);
    expect(Object.values(after.execution_status as Record<string, number>).reduce((s, n) => s + n, 0)).toBe(7);
    expect((await call(base, 'POST', `/batches/${batchId}/stop`)).body).toEqual({ error: 404, message: 'Batch is not queued or running' });
  });

  it('a long call that nobody stops ends after two sandbox minutes', async () => {
    const { executionIds } = await placeCalls(base, A.agents.sales, [{ contact_number: '+14155551007' }]);
    const done = await waitForTerminal(base, executionIds[0]!);
    expect(done.status).toBe('completed');
    expect(done.conversation_duration).toBeGreaterThanOrEqual(120);
  });

  it('stopping a scheduled batch stops every row before it dials', async () => {
    const { batchId, executionIds } = await placeCalls(base, A.agents.sales, [{ contact_number: '+14155550123' }, { contact_number: '+14155550124' }]);
    await call(base, 'POST', `/batches/${batchId}/stop`);
    for (const id of executionIds) expect((await get(`/executions/${id}`)).body.status).toBe('stopped');
    expect((await get(`/batches/${batchId}`)).body.execution_status).toEqual({ stopped: 2 });
    // Nothing dials later: fire every timer the sandbox still holds (each moves a call one step)
    // until none is left, instead of waiting for them.
    for (let round = 0; round < 20; round++) {
      const clock = await call(base, 'POST', '/__sandbox/clock', { key: null, body: { advance: true } });
      if (clock.body.pending_timers === 0) break;
    }
    expect((await call(base, 'GET', '/__sandbox/clock', { key: null })).body.pending_timers).toBe(0);
    expect((await get(`/batches/${batchId}`)).body).toMatchObject({ status: 'stopped', execution_status: { stopped: 2 } });
  });

  it('account C (empty wallet): every call ends balance-low with an error message; the batch failed', async () => {
    const { batchId, executionIds } = await placeCalls(base, SEED.C.agents.sales, [{ contact_number: '+13125550123' }, { contact_number: '+13125551001' }], {
      key: EMPTY_WALLET_KEY,
      form: 'spec',
    });
    for (const id of executionIds) {
      const done = await waitForTerminal(base, id, EMPTY_WALLET_KEY);
      expect(done.status).toBe('balance-low');
      expect(done.error_message).toMatch(/balance/i);
    }
    const batch = await waitFor(async () => {
      const b = (await get(`/batches/${batchId}`, EMPTY_WALLET_KEY)).body;
      return b.status !== 'running' ? b : undefined;
    });
    expect(batch).toMatchObject({ status: 'failed', execution_status: { 'balance-low': 2 } });
  });
});

describe('lifecycle', () => {
  it('close() cancels pending calls and resolves promptly', async () => {
    const s = await startSandbox({ speed: 1 });
    await placeCalls(s.url, A.agents.sales, [{ contact_number: '+14155550123' }]);
    const t0 = Date.now();
    await s.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    await expect(fetch(`${s.url}/user/me`)).rejects.toThrow();
  });
  it('reset() cancels a running batch: nothing of it survives', async () => {
    const { batchId } = await placeCalls(base, A.agents.sales, [{ contact_number: '+14155551007' }]);
    sb.reset();
    expect((await get(`/batches/${batchId}`)).status).toBe(404);
    expect((await call(base, 'GET', '/__sandbox/clock', { key: null })).body.pending_timers).toBe(0);
  });
});
