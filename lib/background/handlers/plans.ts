/** Answers the requests of lib/requests/plans.ts. */
import type { PlanReplies } from '../../requests/plans';
import type { Handlers } from './types';

export const plansHandlers: Handlers<keyof PlanReplies> = {};
