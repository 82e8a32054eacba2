/** Answers the requests of lib/requests/account.ts. */
import type { AccountReplies } from '../../requests/account';
import type { Handlers } from './types';

export const accountHandlers: Handlers<keyof AccountReplies> = {};
