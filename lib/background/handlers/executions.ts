/** Answers the requests of lib/requests/executions.ts. */
import type { ExecutionReplies } from '../../requests/executions';
import type { Handlers } from './types';

export const executionsHandlers: Handlers<keyof ExecutionReplies> = {};
