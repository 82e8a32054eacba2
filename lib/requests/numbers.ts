/**
 * Requests of the side panel's Phone numbers section (owned, search, buy, delete). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender.
 */
import type { AvailablePhoneNumber, PhoneNumber } from '../api/schemas/phone-number';
import { z } from '../zod';
import { country, e164, id } from './common';

export const numbersRequests = [
  /** The account's numbers as the service records them (the dial form's picker uses the shorter `phone-numbers/list`). */
  z.strictObject({ type: z.literal('phone-numbers/owned') }),
  z.strictObject({
    type: z.literal('phone-numbers/search'),
    country,
    /** Digits the number should contain, such as an area code ('' for any). */
    pattern: z.string().regex(/^\d{0,10}$/, 'the pattern must be up to 10 digits'),
  }),
  z.strictObject({
    type: z.literal('phone-numbers/buy'),
    country,
    phoneNumber: e164,
    provider: z.string().max(64).optional(),
  }),
  z.strictObject({ type: z.literal('phone-numbers/delete'), id }),
] as const;

/** What each of these requests answers (the `data` of a successful Reply). */
export interface NumberReplies {
  'phone-numbers/owned': PhoneNumber[];
  'phone-numbers/search': AvailablePhoneNumber[];
  /** The bought number's record, or null when the service answered only an acknowledgement. */
  'phone-numbers/buy': PhoneNumber | null;
  'phone-numbers/delete': null;
}
