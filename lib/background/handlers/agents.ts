/** Answers the requests of lib/requests/agents.ts. */
import type { AgentReplies } from '../../requests/agents';
import type { Handlers } from './types';

export const agentsHandlers: Handlers<keyof AgentReplies> = {};
