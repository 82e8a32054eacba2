/**
 * Requests of the side panel's Agents section (view, edit, create, delete agents). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender. Bodies are checked with the
 * schemas the client sends with (lib/api/schemas/agent.ts), so the UI and the background refuse the same things.
 */
import type { Agent } from '../api/schemas/agent';
import { agentCreateBody, agentPatchBody, agentReplaceBody } from '../api/schemas/agent';
import { z } from '../zod';
import { id } from './common';

export const agentsRequests = [
  /** The agent's whole read shape (`GET /v2/agent/{id}`). */
  z.strictObject({ type: z.literal('agent/get'), agentId: id }),
  /** PATCH: the body carries only what changed (lib/agents/edit.ts builds it). */
  z.strictObject({ type: z.literal('agent/update'), agentId: id, body: agentPatchBody }),
  /** PUT: the whole config; anything left out is dropped by the service. */
  z.strictObject({ type: z.literal('agent/replace'), agentId: id, body: agentReplaceBody }),
  z.strictObject({ type: z.literal('agent/create'), body: agentCreateBody }),
  z.strictObject({ type: z.literal('agent/delete'), agentId: id }),
] as const;

/** An agent after a write: read again from the service, with the agent list as it now is. */
export interface AgentWritten {
  agent: Agent;
  agents: AgentsView;
}

/** What each of these requests answers (the `data` of a successful Reply). */
export interface AgentReplies {
  'agent/get': Agent;
  'agent/update': AgentWritten;
  'agent/replace': AgentWritten;
  'agent/create': AgentWritten;
  'agent/delete': AgentsView;
}

/** What the agent picker needs of an agent. */
export interface AgentSummary {
  id: string;
  name: string;
  status: string | null;
  /** Added by hand (when the service has no list route), rather than listed by the service. */
  manual: boolean;
}
export interface AgentsView {
  agents: AgentSummary[];
  /** When the list was last fetched from the service (ms), null if never. */
  fetchedAt: number | null;
  /** The service has no `GET /v2/agent/all`: the user adds agents by id. */
  listRouteMissing: boolean;
  /** Set when a refresh failed; the cached list is still returned. */
  refreshError: string | null;
}
