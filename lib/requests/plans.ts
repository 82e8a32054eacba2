/**
 * Requests of agent test plans in the side panel (plans, runs, results). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender.
 */
// import { z } from '../api/zod';
// import { id } from './common';

export const plansRequests = [] as const;

/** What each of these requests answers (the `data` of a successful Reply). */
export interface PlanReplies {}
