import { z } from '../zod';
import { e164, serviceId } from './common';

/**
 * `POST /call` (live, not in the spec): places one call at once. The client sends these fields,
 * checked strictly; the sandbox reads the same shape leniently (`.loose()`: the live service takes
 * more, e.g. `agent_data`, `retry_config`, `scheduled_at`).
 */
export const callStartRequest = z.strictObject({
  agent_id: serviceId,
  recipient_phone_number: e164,
  from_phone_number: e164.optional(),
  /** The prompt's variables. */
  user_data: z.record(z.string(), z.string()).optional(),
  bypass_call_guardrails: z.boolean().optional(),
});
export type CallStartRequest = z.input<typeof callStartRequest>;

/** `POST /call` answers 200 `{message: "done", status: "queued", execution_id}`. */
export const callStarted = z.looseObject({
  message: z.string().optional(),
  status: z.string().optional(),
  execution_id: serviceId,
});
export type CallStarted = z.infer<typeof callStarted>;

/** `POST /call/{execution_id}/stop` answers `{message: "done", status: "stopped", execution_id}`. */
export const callStopped = z.looseObject({
  message: z.string().optional(),
  status: z.string().optional(),
  execution_id: serviceId.optional(),
});
export type CallStopped = z.infer<typeof callStopped>;
