/** Answers the requests of lib/requests/knowledgebases.ts. */
import type { KnowledgebaseReplies } from '../../requests/knowledgebases';
import type { Handlers } from './types';

export const knowledgebasesHandlers: Handlers<keyof KnowledgebaseReplies> = {};
