import { z } from '../zod';
import { e164, looseNumber, serviceId, timestamp } from './common';
import { batchStatus } from './status';

/** Batch record (`GET /batches/{id}` and list items). `id` or `batch_id` — live uses `batch_id`. */
export const batch = z
  .looseObject({
    batch_id: serviceId.optional(),
    id: serviceId.optional(),
    agent_id: serviceId.nullish(),
    status: batchStatus,
    scheduled_at: timestamp.nullish(),
    created_at: timestamp.nullish(),
    updated_at: timestamp.nullish(),
    humanized_created_at: z.string().nullish(),
    file_name: z.string().nullish(),
    valid_contacts: looseNumber.nullish(),
    total_contacts: looseNumber.nullish(),
    from_phone_numbers: z.array(z.string()).nullish(),
    execution_status: z.record(z.string(), looseNumber).nullish(),
  })
  .refine((b) => b.batch_id ?? b.id, { message: 'a batch needs batch_id or id' })
  .transform((b) => ({ ...b, batch_id: (b.batch_id ?? b.id) as string }));
export const batchList = z.array(batch);

/** `POST /batches` answers 201 `{batch_id, state: "created"}`. */
export const batchCreated = z.looseObject({
  batch_id: serviceId,
  state: z.string().optional(),
  status: z.string().optional(),
});

/** Fields of the multipart `POST /batches` body, checked before sending. */
export const batchCreateRequest = z.strictObject({
  agent_id: serviceId,
  /** UTF-8 CSV text whose header has a `contact_number` column. */
  csv: z
    .string()
    .min(1, 'the CSV is empty')
    .max(5_000_000, 'the CSV is over 5 MB')
    .refine((csv) => /(^|,)\s*contact_number\s*(,|$)/.test(csv.split(/\r?\n/, 1)[0] ?? ''), {
      message: 'the CSV header needs a contact_number column',
    }),
  file_name: z.string().min(1).default('contacts.csv'),
  from_phone_numbers: z.array(e164).optional(),
  retry_config: z.record(z.string(), z.unknown()).optional(),
  webhook_url: z.string().url().optional(),
});
export type BatchCreateRequest = z.input<typeof batchCreateRequest>;

/** Fields of the schedule request (spec: `POST /batches/schedule` with `batch_id`; live: `/batches/{id}/schedule`). */
export const batchScheduleRequest = z.strictObject({
  batch_id: serviceId,
  scheduled_at: z.string().min(1),
  bypass_call_guardrails: z.boolean().optional(),
});
export type BatchScheduleRequest = z.input<typeof batchScheduleRequest>;

export type Batch = z.infer<typeof batch>;
