/**
 * Wire shapes: how records are written in responses and webhook bodies. Every shape here must
 * parse with the matching schema of lib/api/schemas (tests/unit/sandbox/schemas.test.ts checks).
 */
import { latencyData } from './latency';
import { presignRecording } from './audio';
import type { Runtime } from './runtime';
import type { Account, AgentRec, BatchRec, ExecRec, KbRec, PhoneRec } from './store';
import { humanize } from './time';

export function agentWire(agent: AgentRec) {
  return {
    ...agent.extra,
    id: agent.id,
    agent_name: agent.agent_name,
    agent_type: agent.agent_type,
    agent_status: agent.agent_status,
    agent_welcome_message: agent.agent_welcome_message,
    webhook_url: agent.webhook_url,
    tasks: agent.tasks,
    agent_prompts: agent.agent_prompts,
    ...(agent.ingest_source_config ? { ingest_source_config: agent.ingest_source_config } : {}),
    created_at: agent.created_at,
    updated_at: agent.updated_at,
  };
}

/** Counts of the batch's executions by status (status → count), always present. */
export function executionStatusCounts(account: Account, batch: BatchRec): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const id of batch.execution_ids) {
    const exec = account.executions.get(id);
    if (exec) counts[exec.status] = (counts[exec.status] ?? 0) + 1;
  }
  return counts;
}

export function batchWire(account: Account, batch: BatchRec) {
  return {
    batch_id: batch.batch_id,
    agent_id: batch.agent_id,
    status: batch.status,
    scheduled_at: batch.scheduled_at,
    created_at: batch.created_at,
    updated_at: batch.updated_at,
    humanized_created_at: humanize(batch.created_at),
    file_name: batch.file_name,
    valid_contacts: batch.valid_contacts,
    total_contacts: batch.total_contacts,
    from_phone_numbers: batch.from_phone_numbers,
    webhook_url: batch.webhook_url,
    retry_config: batch.retry_config,
    execution_status: executionStatusCounts(account, batch),
  };
}

/** Plivo reports the duration as a string of digits; the sandbox mirrors that per provider. */
const providerDuration = (exec: ExecRec) =>
  exec.telephony_duration === null ? null : exec.provider === 'plivo' ? String(exec.telephony_duration) : exec.telephony_duration;

/** Full record, as `GET /executions/{id}` and webhooks send it. */
export function executionWire(rt: Runtime, exec: ExecRec) {
  const recordingUrl = exec.has_recording ? presignRecording(rt.baseUrl, rt.secret, exec.id) : null;
  const finished = exec.has_recording && exec.conversation_duration !== null;
  return {
    id: exec.id,
    agent_id: exec.agent_id,
    batch_id: exec.batch_id,
    status: exec.status,
    // Spec name and live name of the same value.
    conversation_time: exec.conversation_duration,
    conversation_duration: exec.conversation_duration,
    total_cost: exec.total_cost,
    error_message: exec.error_message,
    answered_by_voice_mail: exec.answered_by_voice_mail,
    transcript: exec.transcript,
    summary: exec.summary,
    created_at: exec.created_at,
    updated_at: exec.updated_at,
    cost_breakdown: exec.cost_breakdown,
    usage_breakdown: finished
      ? {
          llm_tokens: (exec.transcript?.length ?? 0) * 3,
          synthesizer_characters: exec.transcript?.length ?? 0,
          transcriber_duration: exec.conversation_duration,
        }
      : null,
    latency_data: finished ? latencyData(exec) : null,
    telephony_data: {
      duration: providerDuration(exec),
      to_number: exec.to_number,
      from_number: exec.from_number,
      recording_url: recordingUrl,
      hosted_telephony: true,
      provider_call_id: exec.provider_call_id,
      call_type: 'outbound',
      provider: exec.provider,
      hangup_by: exec.hangup_by,
      hangup_reason: exec.hangup_reason,
      hangup_provider_code: exec.hangup_provider_code,
    },
    transfer_call_data: null,
    batch_run_details: exec.batch_id
      ? { status: exec.status, created_at: exec.created_at, updated_at: exec.updated_at, retried: exec.retried }
      : null,
    extracted_data: exec.extracted_data,
    context_details: { recipient_data: exec.recipient_data, recipient_phone_number: exec.to_number },
  };
}

/** Trimmed record of the live list routes: enough to show a row, not the results. */
export function executionSummaryWire(exec: ExecRec) {
  return {
    id: exec.id,
    agent_id: exec.agent_id,
    batch_id: exec.batch_id,
    status: exec.status,
    conversation_duration: exec.conversation_duration,
    total_cost: exec.total_cost,
    created_at: exec.created_at,
    updated_at: exec.updated_at,
    telephony_data: {
      to_number: exec.to_number,
      from_number: exec.from_number,
      duration: providerDuration(exec),
      provider: exec.provider,
    },
  };
}

export const phoneWire = (phone: PhoneRec) => ({ ...phone });

export function kbWire(kb: KbRec) {
  const { url, language_support, ...rest } = kb;
  return { ...rest, ...(url ? { url } : {}), ...(language_support ? { language_support } : {}) };
}
