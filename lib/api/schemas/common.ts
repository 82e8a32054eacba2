import { z } from '../zod';

/** ISO 8601 timestamp as the service writes it (kept as a string; parsed where needed). */
export const timestamp = z.string();

/** E.164: `+` then up to 15 digits, first digit not zero. */
export const e164 = z.string().regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 phone number such as +14155550123');

/** Agent and execution ids are UUIDs; batch, knowledgebase and phone-number ids also come as 32 hex chars. */
export const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');
export const hex32 = z.string().regex(/^[0-9a-f]{32}$/i, 'must be 32 hex characters');
/** Any id the service hands out: lenient on read, we never assume UUID-only. */
export const serviceId = z.string().min(1).max(128);

/** A number that live answers sometimes send as a string of digits. */
export const looseNumber = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);

/** Lenient object: unknown keys are kept so nothing the service adds is lost. */
export const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

/** `{message, state}` acknowledgements the live service answers for actions. */
export const actionAck = z.looseObject({
  message: z.string().optional(),
  state: z.string().optional(),
  status: z.string().optional(),
});
export type ActionAck = z.infer<typeof actionAck>;
