/**
 * Answers the requests of lib/requests/agents.ts. After each write the agent is read again (the view
 * shows what the service kept, not what we sent) and the agent list is refreshed, so the pickers of
 * every section show a new name, a new agent or a deleted one gone.
 */
import type { AgentReplies } from '../../requests/agents';
import type { AgentsView } from '../../messages';
import { addAgentById, readAgentsCache, refreshAgents, removeAgent } from '../agents';
import { describeError } from '../describe-error';
import { currentClient, type ServiceClient } from '../service';
import type { Handlers } from './types';

/** The refreshed list; when the refresh fails the cached list is kept and the reason given. */
async function agentList(client: ServiceClient, now: number): Promise<AgentsView> {
  try {
    return await refreshAgents(client, now);
  } catch (error) {
    return { ...(await readAgentsCache(client.baseUrl)), refreshError: describeError(error).message };
  }
}

export const agentsHandlers: Handlers<keyof AgentReplies> = {
  async 'agent/get'(request) {
    return (await currentClient()).getAgent(request.agentId);
  },

  async 'agent/update'(request, ctx) {
    const client = await currentClient();
    await client.patchAgent(request.agentId, request.body);
    return { agent: await client.getAgent(request.agentId), agents: await agentList(client, ctx.now()) };
  },

  async 'agent/replace'(request, ctx) {
    const client = await currentClient();
    await client.replaceAgent(request.agentId, request.body);
    return { agent: await client.getAgent(request.agentId), agents: await agentList(client, ctx.now()) };
  },

  async 'agent/create'(request, ctx) {
    const client = await currentClient();
    const { agent_id } = await client.createAgent(request.body);
    let agents = await agentList(client, ctx.now());
    // Where the service cannot list agents, the new one is added by hand so it can be chosen.
    if (!agents.agents.some((a) => a.id === agent_id)) agents = await addAgentById(client, agent_id);
    return { agent: await client.getAgent(agent_id), agents };
  },

  async 'agent/delete'(request, ctx) {
    const client = await currentClient();
    await client.deleteAgent(request.agentId);
    await removeAgent(client.baseUrl, request.agentId);
    const agents = await agentList(client, ctx.now());
    // A list answered before the deletion reached it must not bring the agent back.
    return { ...agents, agents: agents.agents.filter((a) => a.id !== request.agentId) };
  },
};
