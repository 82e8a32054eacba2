import { z } from '../zod';
import { e164, looseNumber, serviceId, timestamp } from './common';

/** Owned phone number record (live shape; the spec shows none). */
export const phoneNumber = z.looseObject({
  id: serviceId,
  phone_number: z.string(),
  agent_id: serviceId.nullish(),
  telephony_provider: z.string().nullish(),
  rented: z.boolean().nullish(),
  price: looseNumber.nullish(),
  created_at: timestamp.nullish(),
  updated_at: timestamp.nullish(),
  renewal_at: timestamp.nullish(),
});
export const phoneNumberList = z.array(phoneNumber);

/** A number offered by `GET /phone-numbers/search`. */
export const availablePhoneNumber = z.looseObject({
  phone_number: z.string(),
  friendly_name: z.string().nullish(),
  locality: z.string().nullish(),
  region: z.string().nullish(),
  provider: z.string().nullish(),
  price: looseNumber.nullish(),
});
export const availablePhoneNumberList = z.array(availablePhoneNumber);

export const phoneNumberSearchQuery = z.strictObject({
  country: z.string().regex(/^[A-Z]{2}$/, 'country must be a two-letter code such as US'),
  pattern: z.string().regex(/^\d{0,10}$/, 'pattern must be digits').optional(),
  provider: z.string().optional(),
  region: z.string().optional(),
});
export const phoneNumberBuyBody = z.strictObject({
  country: z.string().regex(/^[A-Z]{2}$/, 'country must be a two-letter code such as US'),
  phone_number: e164,
  provider: z.string().optional(),
});

export type PhoneNumber = z.infer<typeof phoneNumber>;
export type AvailablePhoneNumber = z.infer<typeof availablePhoneNumber>;
export type PhoneNumberSearchQuery = z.input<typeof phoneNumberSearchQuery>;
export type PhoneNumberBuyBody = z.input<typeof phoneNumberBuyBody>;
