import { z } from '../zod';
import { looseNumber, serviceId, timestamp } from './common';
import { executionStatus } from './status';

const num = looseNumber.nullish();
const str = z.string().nullish();

export const costBreakdown = z.looseObject({
  llm: num,
  network: num,
  platform: num,
  synthesizer: num,
  transcriber: num,
});

export const telephonyData = z
  .looseObject({
    duration: num,
    to_number: str,
    from_number: str,
    recording_url: str,
    hosted_telephony: z.boolean().nullish(),
    provider_call_id: str,
    call_type: str,
    provider: str,
    hangup_by: str,
    hangup_reason: str,
    hangup_provider_code: num,
    // Live name for the same code.
    hangup_code: num,
  })
  .transform((t) => ({ ...t, hangup_provider_code: t.hangup_provider_code ?? t.hangup_code ?? null }));

export const transferCallData = z.looseObject({
  provider_call_id: str,
  status: str,
  duration: num,
  cost: num,
  to_number: str,
  from_number: str,
  recording_url: str,
  hangup_by: str,
  hangup_reason: str,
  hangup_provider_code: num,
});

export const batchRunDetails = z.looseObject({
  status: str,
  created_at: timestamp.nullish(),
  updated_at: timestamp.nullish(),
  retried: num,
});

/** Extracted data: agent-specific keys; values are booleans or strings (numbers and null tolerated). */
export const extractedData = z.record(z.string(), z.union([z.string(), z.boolean(), z.number(), z.null()]));

/**
 * Execution (spec 2.2). List routes answer a trimmed record, so everything but `id` and `status`
 * is optional. The duration is read from `conversation_duration` (live) or `conversation_time` (spec).
 */
export const execution = z
  .looseObject({
    id: serviceId,
    agent_id: serviceId.nullish(),
    batch_id: z.string().nullish(),
    status: executionStatus,
    conversation_time: num,
    conversation_duration: num,
    total_cost: num,
    error_message: str,
    answered_by_voice_mail: z.boolean().nullish(),
    transcript: str,
    summary: str,
    created_at: timestamp.nullish(),
    updated_at: timestamp.nullish(),
    cost_breakdown: costBreakdown.nullish(),
    telephony_data: telephonyData.nullish(),
    transfer_call_data: transferCallData.nullish(),
    batch_run_details: batchRunDetails.nullish(),
    extracted_data: extractedData.nullish(),
    context_details: z.record(z.string(), z.unknown()).nullish(),
  })
  .transform((e) => ({ ...e, conversation_duration: e.conversation_duration ?? e.conversation_time ?? null }));

export const executionList = z.array(execution);

/** Paged envelope of `GET /v2/agent/{id}/executions` (live). */
export const executionPage = z.looseObject({
  page_number: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
  has_more: z.boolean(),
  data: executionList,
});

/** A bare array (spec, deprecated routes) or the live envelope, both read as one page. */
export const executionListOrPage = z.union([
  executionList.transform((data) => ({ page_number: 1, page_size: data.length, total: data.length, has_more: false, data })),
  executionPage,
]);

/** `GET /executions/{id}/log` (live shape). */
export const executionLogEntry = z.looseObject({
  created_at: timestamp.nullish(),
  type: z.string().nullish(),
  component: z.string().nullish(),
  provider: z.string().nullish(),
  data: z.string().nullish(),
  reasoning_content: z.string().nullish(),
});
export const executionLog = z.union([
  z.looseObject({ data: z.array(executionLogEntry) }),
  z.array(executionLogEntry).transform((data) => ({ data })),
]);

export type Execution = z.infer<typeof execution>;
export type ExecutionPage = z.infer<typeof executionPage>;
export type ExecutionLogEntry = z.infer<typeof executionLogEntry>;
export type TelephonyData = z.infer<typeof telephonyData>;
export type CostBreakdown = z.infer<typeof costBreakdown>;
