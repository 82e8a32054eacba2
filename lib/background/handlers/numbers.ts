/** Answers the requests of lib/requests/numbers.ts. */
import type { NumberReplies } from '../../requests/numbers';
import type { Handlers } from './types';

export const numbersHandlers: Handlers<keyof NumberReplies> = {};
