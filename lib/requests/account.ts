/**
 * Requests of the side panel's Account section (wallet balance, concurrency). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender.
 */
import type { AccountView } from '../account/balance';
import { z } from '../zod';

export const accountRequests = [
  /** The account behind the saved key: `GET /user/me`, or that the service does not offer it. */
  z.strictObject({ type: z.literal('account/get') }),
] as const;

/** What each of these requests answers (the `data` of a successful Reply). */
export interface AccountReplies {
  'account/get': AccountView;
}
