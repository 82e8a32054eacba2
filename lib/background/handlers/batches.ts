/** Answers the requests of lib/requests/batches.ts. */
import type { BatchReplies } from '../../requests/batches';
import type { Handlers } from './types';

export const batchesHandlers: Handlers<keyof BatchReplies> = {};
