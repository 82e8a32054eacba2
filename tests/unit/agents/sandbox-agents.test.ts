// The sandbox's agent writes as the spec has them (PATCH changes only what it is sent; PUT drops
// what is left out), and its request log keeps each write's JSON body for tests to check.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { batchForm, call } from '../../../sandbox/testing';

const AGENT = SEED.A.agents.sales;
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 400 });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const read = async () => (await call(sb.url, 'GET', `/v2/agent/${AGENT}`)).body as Record<string, any>;
const log = async (method: string) => (await (await fetch(`${sb.url}/__sandbox/requests?method=${method}`)).json()) as { path: string; body?: unknown }[];

describe('PATCH /v2/agent/{id}', () => {
  it.each([
    ['agent_name', { agent_config: { agent_name: 'Renamed' } }, 'Renamed'],
    ['agent_welcome_message', { agent_config: { agent_welcome_message: 'Hi!' } }, 'Hi!'],
    ['webhook_url', { agent_config: { webhook_url: 'https://hooks.example/x' } }, 'https://hooks.example/x'],
  ])('changes %s only: everything else stays as it was', async (field, body, value) => {
    const before = await read();
    const r = await call(sb.url, 'PATCH', `/v2/agent/${AGENT}`, { body });
    expect(r.status).toBe(200);
    const after = await read();
    expect(after[field]).toBe(value);
    const { updated_at: _a, ...rest } = after;
    const { updated_at: _b, ...was } = before;
    expect(rest).toEqual({ ...was, [field]: value });
  });

  it('a prompt changes that prompt only (the others are kept)', async () => {
    await call(sb.url, 'PATCH', `/v2/agent/${AGENT}`, { body: { agent_prompts: { task_2: { system_prompt: 'Second.' } } } });
    const before = await read();
    await call(sb.url, 'PATCH', `/v2/agent/${AGENT}`, { body: { agent_prompts: { task_1: { system_prompt: 'New prompt.' } } } });
    const after = await read();
    expect(after.agent_prompts).toEqual({ task_1: { system_prompt: 'New prompt.' }, task_2: { system_prompt: 'Second.' } });
    expect(after.tasks).toEqual(before.tasks);
    expect(after.agent_name).toBe(before.agent_name);
  });

  it('a synthesizer replaces every task’s synthesizer, and nothing else of the tasks', async () => {
    const before = await read();
    const synthesizer = { provider: 'elevenlabs', provider_config: { voice: 'Rachel' } };
    await call(sb.url, 'PATCH', `/v2/agent/${AGENT}`, { body: { agent_config: { synthesizer } } });
    const after = await read();
    expect(after.tasks[0].tools_config.synthesizer).toEqual(synthesizer);
    expect(after.tasks[0].tools_config.llm_agent).toEqual(before.tasks[0].tools_config.llm_agent);
    expect(after.tasks[0].task_config).toEqual(before.tasks[0].task_config);
    expect(after.agent_name).toBe(before.agent_name);
  });

  it('refuses a bad webhook with a message naming the field, and changes nothing', async () => {
    const before = await read();
    const r = await call(sb.url, 'PATCH', `/v2/agent/${AGENT}`, { body: { agent_config: { webhook_url: 'nope', agent_name: 'X' } } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/webhook_url/);
    expect(await read()).toEqual(before);
  });
});

describe('the request log', () => {
  it('keeps the JSON body of a write exactly as sent, with source tokens masked', async () => {
    const body = { agent_config: { agent_name: 'Logged', ingest_source_config: { source_type: 'url', source_auth_token: 's3cret' } } };
    await call(sb.url, 'PATCH', `/v2/agent/${AGENT}`, { body });
    const [entry] = await log('PATCH');
    expect(entry).toMatchObject({ path: `/v2/agent/${AGENT}` });
    expect(entry!.body).toEqual({ agent_config: { agent_name: 'Logged', ingest_source_config: { source_type: 'url', source_auth_token: '<redacted>' } } });
    expect(JSON.stringify(await log('PATCH'))).not.toContain('s3cret');
  });

  it('keeps no body for reads and forms, and the routes still read the body after the log did', async () => {
    await read();
    const r = await call(sb.url, 'POST', '/batches', { body: batchForm(AGENT, [{ contact_number: '+14155550123' }]) });
    expect(r.status).toBe(201);
    expect((await log('GET'))[0]!.body).toBeUndefined();
    expect((await log('POST'))[0]!.body).toBeUndefined();
    const put = await call(sb.url, 'PUT', `/v2/agent/${AGENT}`, { body: { agent_config: { agent_name: 'Only a name' }, agent_prompts: {} } });
    expect(put.status).toBe(200);
    // PUT replaces the whole config: what was left out is gone.
    const after = await read();
    expect(after).toMatchObject({ agent_name: 'Only a name', tasks: [], agent_welcome_message: null, agent_prompts: {} });
    expect((await log('PUT'))[0]!.body).toEqual({ agent_config: { agent_name: 'Only a name' }, agent_prompts: {} });
  });
});
