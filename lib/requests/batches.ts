/**
 * Requests of the side panel's Batches section (list, create from CSV, schedule, stop, delete). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender.
 */
// import { z } from '../api/zod';
// import { id } from './common';

export const batchesRequests = [] as const;

/** What each of these requests answers (the `data` of a successful Reply). */
export interface BatchReplies {}
