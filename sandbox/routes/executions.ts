/** Single executions and their component log. */
import { execution, executionLog } from '../../lib/api/schemas';
import { logEntries, type Providers } from '../calls';
import { route, type RouteDef } from '../router';
import type { AgentRec } from '../store';
import { executionWire } from '../wire';
import { getExecution, isObject } from './util';

/** Providers named in the agent's first task, so the log matches its configuration. */
function providersOf(agent: AgentRec | undefined): Providers {
  const task = agent?.tasks[0];
  const tools = isObject(task) && isObject(task.tools_config) ? task.tools_config : {};
  const pick = (part: string, fallback: string) => {
    const section = tools[part];
    return isObject(section) && typeof section.provider === 'string' ? section.provider : fallback;
  };
  return { transcriber: pick('transcriber', 'deepgram'), llm: pick('llm_agent', 'openai'), synthesizer: pick('synthesizer', 'polly') };
}

export const executionRoutes: RouteDef[] = [
  route('GET', '/executions/:execution_id', { schema: execution }, ({ rt, account, params }) => ({
    body: executionWire(rt, getExecution(account, params.execution_id!)),
  })),
  route('GET', '/executions/:execution_id/log', { schema: executionLog }, ({ account, params }) => {
    const exec = getExecution(account, params.execution_id!);
    const answeredAt = exec.answered_at_ms ?? Date.parse(exec.updated_at);
    return { body: { data: logEntries(exec.transcript, answeredAt, providersOf(account.agents.get(exec.agent_id))) } };
  }),
];
