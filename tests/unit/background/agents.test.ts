import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ApiError } from '../../../lib/api/errors';
import { agent } from '../../../lib/api/schemas/agent';
import { addAgentById, readAgentsCache, refreshAgents } from '../../../lib/background/agents';
import type { ServiceClient } from '../../../lib/background/service';

const BASE = 'https://api.example.com';
const routeMissing = () => new ApiError({ kind: 'http', status: 404, message: 'Not Found', serviceMessage: 'Not Found', method: 'GET', path: '/v2/agent/all' });
const client = (overrides: Partial<ServiceClient>) => ({ baseUrl: BASE, timeScale: () => 1, ...overrides }) as ServiceClient;

beforeEach(() => fakeBrowser.reset());

describe('the agent list', () => {
  it('is cached per base URL after a refresh', async () => {
    await refreshAgents(client({ listAgents: async () => [agent.parse({ id: 'a1', agent_name: 'Sales' })] }), 1000);
    expect((await readAgentsCache(BASE)).agents).toEqual([{ id: 'a1', name: 'Sales', status: null, manual: false }]);
    expect((await readAgentsCache('https://other.example.com')).agents).toEqual([]);
  });

  it('where the service has no list route, agents are added by id and kept across refreshes', async () => {
    const view = await refreshAgents(client({ listAgents: async () => Promise.reject(routeMissing()) }), 1000);
    expect(view.listRouteMissing).toBe(true);
    await addAgentById(client({ getAgent: async (id: string) => agent.parse({ id, agent_name: 'Manual' }) }), ' a9 ');
    const again = await refreshAgents(client({ listAgents: async () => Promise.reject(routeMissing()) }), 2000);
    expect(again.agents).toEqual([{ id: 'a9', name: 'Manual', status: null, manual: true }]);
  });

  it('a refused id is not added', async () => {
    const refused = new ApiError({ kind: 'http', status: 404, message: 'Agent not found', serviceMessage: 'Agent not found', method: 'GET', path: '/v2/agent/x' });
    await expect(addAgentById(client({ getAgent: async () => Promise.reject(refused) }), 'x')).rejects.toThrow('Agent not found');
    expect((await readAgentsCache(BASE)).agents).toEqual([]);
  });
});
