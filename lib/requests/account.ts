/**
 * Requests of the side panel's Account section (wallet balance, concurrency). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender.
 */
// import { z } from '../api/zod';
// import { id } from './common';

export const accountRequests = [] as const;

/** What each of these requests answers (the `data` of a successful Reply). */
export interface AccountReplies {}
