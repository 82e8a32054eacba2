import { z } from '../zod';

/** Spec: `{error: int, message}`. Live also answers `{detail}` or `{message}` alone. */
export const errorBody = z.looseObject({
  error: z.union([z.number(), z.string()]).optional(),
  message: z.string().optional(),
  detail: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
