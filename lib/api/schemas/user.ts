import { z } from '../zod';
import { looseNumber, serviceId } from './common';

/** `GET /user/me` (live). */
export const user = z.looseObject({
  id: serviceId,
  name: z.string().nullish(),
  email: z.string().nullish(),
  wallet: looseNumber.nullish(),
  concurrency: z.looseObject({ max: looseNumber.nullish(), current: looseNumber.nullish() }).nullish(),
});
export type User = z.infer<typeof user>;
