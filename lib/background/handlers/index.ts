/** Every feature's handlers in one map, for the router. */
import { accountHandlers } from './account';
import { agentsHandlers } from './agents';
import { batchesHandlers } from './batches';
import { executionsHandlers } from './executions';
import { knowledgebasesHandlers } from './knowledgebases';
import { numbersHandlers } from './numbers';
import { plansHandlers } from './plans';
import { widgetHandlers } from './widget';
import type { HandlerContext } from './types';

type AnyHandler = (request: never, ctx: HandlerContext) => Promise<unknown>;

export const featureHandlers: Record<string, AnyHandler | undefined> = {
  ...accountHandlers,
  ...agentsHandlers,
  ...batchesHandlers,
  ...executionsHandlers,
  ...knowledgebasesHandlers,
  ...numbersHandlers,
  ...plansHandlers,
  ...widgetHandlers,
};
