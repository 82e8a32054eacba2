/** The agent a page's call button names and a confirmation starts with: the last one used, else the first listed. */
import { records } from '../store/records';

export async function defaultAgent(): Promise<{ id: string; name: string } | null> {
  const [cache, lastAgentId] = await Promise.all([records.agentsCache.read(), records.lastAgentId.read()]);
  const agents = cache?.agents ?? [];
  const last = agents.find((a) => a.id === lastAgentId);
  const agent = last ?? agents[0];
  return agent ? { id: agent.id, name: agent.name } : null;
}
