/**
 * The agent list: served from cache at once, refreshed from `GET /v2/agent/all`. Where that route
 * is missing, the user adds agents by id (checked with `GET /agent/{id}`).
 */
import { isRouteMissing } from '../api/errors';
import type { Agent } from '../api/schemas/agent';
import type { AgentSummary, AgentsView } from '../messages';
import type { AgentsCache } from '../storage-keys';
import { records } from '../store/records';
import type { ServiceClient } from './service';

export function summarize(agent: Agent, manual: boolean): AgentSummary {
  return { id: agent.id, name: agent.agent_name || `Agent ${agent.id.slice(0, 8)}`, status: agent.agent_status ?? null, manual };
}

export async function readAgentsCache(baseUrl: string): Promise<AgentsCache> {
  const cache = await records.agentsCache.read();
  if (cache && cache.baseUrl === baseUrl) return cache;
  return { baseUrl, agents: [], fetchedAt: null, listRouteMissing: false };
}

async function writeAgentsCache(cache: AgentsCache): Promise<void> {
  await records.agentsCache.write(cache);
}

export async function refreshAgents(client: ServiceClient, now: number): Promise<AgentsView> {
  const cache = await readAgentsCache(client.baseUrl);
  const manual = cache.agents.filter((a) => a.manual);
  try {
    const listed = (await client.listAgents()).map((a) => summarize(a, false));
    const ids = new Set(listed.map((a) => a.id));
    const next: AgentsCache = { baseUrl: client.baseUrl, agents: [...listed, ...manual.filter((a) => !ids.has(a.id))], fetchedAt: now, listRouteMissing: false };
    await writeAgentsCache(next);
    return { ...next, refreshError: null };
  } catch (error) {
    if (isRouteMissing(error)) {
      const next: AgentsCache = { ...cache, agents: manual, fetchedAt: now, listRouteMissing: true };
      await writeAgentsCache(next);
      return { ...next, refreshError: null };
    }
    throw error;
  }
}

export async function addAgentById(client: ServiceClient, agentId: string): Promise<AgentsView> {
  const agent = await client.getAgent(agentId.trim());
  const cache = await readAgentsCache(client.baseUrl);
  const others = cache.agents.filter((a) => a.id !== agent.id);
  const next: AgentsCache = { ...cache, agents: [...others, summarize(agent, true)] };
  await writeAgentsCache(next);
  return { ...next, refreshError: null };
}

export async function removeAgent(baseUrl: string, agentId: string): Promise<AgentsView> {
  const cache = await readAgentsCache(baseUrl);
  const next: AgentsCache = { ...cache, agents: cache.agents.filter((a) => a.id !== agentId) };
  await writeAgentsCache(next);
  return { ...next, refreshError: null };
}
