/** The whole route table, in match order (static segments before parameters where shapes overlap). */
import type { RouteDef } from '../router';
import { agentRoutes } from './agents';
import { batchRoutes } from './batches';
import { callRoutes } from './call';
import { executionRoutes } from './executions';
import { knowledgebaseRoutes } from './knowledgebase';
import { phoneNumberRoutes } from './phone-numbers';
import { recordingRoutes } from './recordings';
import { userRoutes } from './user';

export const ROUTES: readonly RouteDef[] = [
  ...agentRoutes,
  ...batchRoutes,
  ...callRoutes,
  ...executionRoutes,
  ...phoneNumberRoutes,
  ...knowledgebaseRoutes,
  ...userRoutes,
  ...recordingRoutes,
];
