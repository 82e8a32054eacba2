/**
 * The Agents section's requests through the background router, against a real sandbox: what is sent,
 * what the agent list (the pickers' cache) becomes, and what the UI is told.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { CallsService } from '../../../lib/background/calls-service';
import { writeKey } from '../../../lib/background/key-store';
import { readAgentsCache } from '../../../lib/background/agents';
import { handleUiRequest, type RouterDeps } from '../../../lib/background/router';
import { storeSettings } from '../../../lib/background/settings-store';
import { agentTemplate } from '../../../lib/agents/document';
import { uiRequest, type Reply, type UiRequest } from '../../../lib/messages';
import type { AgentWritten } from '../../../lib/requests/agents';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { OWNER_KEY } from '../../../sandbox/keys';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';

const SALES = SEED.A.agents.sales;
const deps: RouterDeps = { calls: {} as CallsService, openPanel: async () => undefined, now: () => Date.parse('2026-11-23T10:00:00Z') };
const send = (request: UiRequest) => handleUiRequest(request, deps);
const data = <T,>(reply: Reply<unknown>): T => {
  if (!reply.ok) throw new Error(`expected ok, got ${reply.error.message}`);
  return reply.data as T;
};

let shared: Sandbox;
beforeAll(async () => {
  shared = await startSandbox({ port: 0, speed: 400 });
});
afterAll(() => shared.close());

async function useSandbox(): Promise<Sandbox> {
  const sb = shared;
  await sb.reset();
  fakeBrowser.reset();
  await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: sb.url });
  await writeKey(sb.url, OWNER_KEY, true);
  return sb;
}
const logged = async (sb: Sandbox, method: string) => (await (await fetch(`${sb.url}/__sandbox/requests?method=${method}`)).json()) as { path: string; body?: unknown }[];

describe('agent requests', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await useSandbox();
  });

  it('agent/update sends the PATCH body as given and answers the agent read again, the list renamed', async () => {
    const reply = data<AgentWritten>(await send({ type: 'agent/update', agentId: SALES, body: { agent_config: { agent_name: 'Renamed' } } }));
    expect(reply.agent).toMatchObject({ id: SALES, agent_name: 'Renamed' });
    expect(reply.agents.agents.find((a) => a.id === SALES)?.name).toBe('Renamed');
    expect((await readAgentsCache(sb.url)).agents.find((a) => a.id === SALES)?.name).toBe('Renamed');
    expect(await logged(sb, 'PATCH')).toEqual([expect.objectContaining({ path: `/v2/agent/${SALES}`, body: { agent_config: { agent_name: 'Renamed' } } })]);
  });

  it('agent/create: the new agent joins the cached list', async () => {
    const reply = data<AgentWritten>(await send({ type: 'agent/create', body: agentTemplate() }));
    expect(reply.agent.agent_name).toBe('New agent');
    expect(reply.agents.agents.map((a) => a.id)).toContain(reply.agent.id);
    expect((await readAgentsCache(sb.url)).agents.map((a) => a.id)).toContain(reply.agent.id);
  });

  it('agent/delete: the agent leaves the cached list', async () => {
    await send({ type: 'agents/list', refresh: true });
    expect((await readAgentsCache(sb.url)).agents.map((a) => a.id)).toContain(SALES);
    const view = data<{ agents: { id: string }[] }>(await send({ type: 'agent/delete', agentId: SALES }));
    expect(view.agents.map((a) => a.id)).not.toContain(SALES);
    expect((await readAgentsCache(sb.url)).agents.map((a) => a.id)).not.toContain(SALES);
  });

  it('a refusal of the service reaches the UI with its message, and the list is left as it was', async () => {
    await fetch(`${sb.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'PUT', path: '/v2/agent/', status: 400, body: { error: 400, message: 'tasks are locked for this agent' } }),
    });
    const reply = await send({ type: 'agent/replace', agentId: SALES, body: { agent_config: { agent_name: 'X' }, agent_prompts: {} } });
    expect(reply).toMatchObject({ ok: false, error: { message: expect.stringContaining('tasks are locked for this agent') } });
  });
});

describe('where the service cannot list agents', () => {
  it('a created agent is added to the list by id, so it can be chosen', async () => {
    const sb = await useSandbox();
    // The list route answers as a missing route does.
    await fetch(`${sb.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'GET', path: '^/v2/agent/all$', status: 404, count: 10, body: { error: 404, message: 'Not Found' } }),
    });
    const reply = data<AgentWritten>(await send({ type: 'agent/create', body: agentTemplate() }));
    expect(reply.agents.listRouteMissing).toBe(true);
    expect(reply.agents.agents).toEqual([expect.objectContaining({ id: reply.agent.id, name: 'New agent', manual: true })]);
    expect((await readAgentsCache(sb.url)).agents.map((a) => a.id)).toEqual([reply.agent.id]);
  });
});

describe('the request schemas', () => {
  it.each([
    ['an unknown key in a PATCH body', { type: 'agent/update', agentId: SALES, body: { agent_config: { colour: 'red' } } }],
    ['a PATCH of a field PATCH does not take', { type: 'agent/update', agentId: SALES, body: { agent_config: { tasks: [] } } }],
    ['a PUT without prompts', { type: 'agent/replace', agentId: SALES, body: { agent_config: { agent_name: 'A' } } }],
    ['a create without a name', { type: 'agent/create', body: { agent_config: {} } }],
    ['a delete without an id', { type: 'agent/delete', agentId: '' }],
  ])('refuse %s', (_name, request) => {
    expect(uiRequest.safeParse(request).success).toBe(false);
  });
});
