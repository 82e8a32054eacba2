import { describe, expect, it } from 'vitest';
import { zodIssueText } from '../../../lib/api/http';
import {
  actionAck,
  agent,
  agentCreateBody,
  agentCreated,
  agentPatchBody,
  agentReplaceBody,
  availablePhoneNumberList,
  batch,
  batchCreated,
  batchCreateRequest,
  batchList,
  batchScheduleRequest,
  errorBody,
  execution,
  executionListOrPage,
  executionLog,
  isTerminalExecutionStatus,
  knowledgebase,
  knowledgebaseIngestRequest,
  knowledgebaseList,
  phoneNumber,
  phoneNumberBuyBody,
  phoneNumberSearchQuery,
  user,
} from '../../../lib/api/schemas';
import type { z } from '../../../lib/api/zod';

const AGENT = '3c90c3cc-0d44-4b50-8888-8dd25736052a';
const EXEC = 'a1b2c3d4-0d44-4b50-8888-8dd25736052a';
const BATCH_HEX = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';

/** The readable message a refused value produces (what ApiError would say). */
function refusal(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success).toBe(false);
  return r.success ? '' : zodIssueText(r.error);
}

describe('execution', () => {
  const full = {
    id: EXEC,
    agent_id: AGENT,
    batch_id: BATCH_HEX,
    conversation_time: 31.5,
    total_cost: 4.2,
    status: 'completed',
    error_message: '',
    answered_by_voice_mail: false,
    transcript: 'assistant: Hello\nuser: Hi',
    created_at: '2026-11-21T12:10:00.000Z',
    updated_at: '2026-11-21T12:11:00.000Z',
    cost_breakdown: { llm: 1, network: 0.5, platform: 1, synthesizer: 1, transcriber: 0.7 },
    telephony_data: {
      duration: 31,
      to_number: '+14155550123',
      from_number: '+14155550100',
      recording_url: 'https://rec.example.test/a.mp3',
      hosted_telephony: true,
      provider_call_id: 'CA1',
      call_type: 'outbound',
      provider: 'twilio',
      hangup_by: 'user',
      hangup_reason: 'normal',
      hangup_provider_code: 16,
    },
    transfer_call_data: { provider_call_id: 'CA2', status: 'completed', duration: 5, cost: 0.1 },
    batch_run_details: { status: 'completed', created_at: '2026-11-21T12:10:00Z', updated_at: '2026-11-21T12:11:00Z', retried: 0 },
    extracted_data: { interested: true, callback_time: 'tomorrow' },
    context_details: { recipient_data: { first_name: 'Ann' }, recipient_phone_number: '+14155550123' },
  };

  it('accepts the spec example and reads conversation_time as the duration', () => {
    const e = execution.parse(full);
    expect(e.conversation_duration).toBe(31.5);
    expect(e.telephony_data?.hangup_provider_code).toBe(16);
  });

  it('accepts live variants: conversation_duration, digit-string duration, hangup_code, extra keys', () => {
    const e = execution.parse({
      id: EXEC,
      status: 'completed',
      conversation_duration: 42,
      telephony_data: { duration: '42', hangup_code: '16' },
      usage_breakdown: { llmTokens: 10 },
      latency_data: { ttfb: 300 },
      summary: 'They agreed.',
    });
    expect(e.conversation_duration).toBe(42);
    expect(e.telephony_data).toMatchObject({ duration: 42, hangup_provider_code: 16 });
    expect(e).toMatchObject({ usage_breakdown: { llmTokens: 10 }, summary: 'They agreed.' });
  });

  it('accepts the trimmed list record and the call-disconnected nulls', () => {
    expect(execution.parse({ id: EXEC, status: 'queued' }).conversation_duration).toBeNull();
    const e = execution.parse({
      id: EXEC,
      status: 'call-disconnected',
      conversation_duration: null,
      total_cost: null,
      telephony_data: { recording_url: null },
      extracted_data: null,
    });
    expect(e.status).toBe('call-disconnected');
  });

  it('accepts `prepared` and maps old spellings to the spec ones', () => {
    expect(execution.parse({ id: EXEC, status: 'prepared' }).status).toBe('prepared');
    expect(execution.parse({ id: EXEC, status: 'balance_low' }).status).toBe('balance-low');
    expect(execution.parse({ id: EXEC, status: 'no_answer' }).status).toBe('no-answer');
    expect(execution.parse({ id: EXEC, status: 'cancelled' }).status).toBe('canceled');
    expect(isTerminalExecutionStatus('balance-low')).toBe(true);
    expect(isTerminalExecutionStatus('call-disconnected')).toBe(false);
    expect(isTerminalExecutionStatus('prepared')).toBe(false);
  });

  it('refuses a record without id or status, readably', () => {
    expect(refusal(execution, { status: 'completed' })).toBe('id: Invalid input: expected string, received undefined');
    expect(refusal(execution, { id: EXEC, status: '' })).toMatch(/^status: Too small/);
    expect(refusal(execution, { id: EXEC, status: 'completed', telephony_data: { duration: 'long' } })).toMatch(
      /^telephony_data\.duration: /,
    );
  });

  it('reads a bare array and the paged envelope as the same page shape', () => {
    const bare = executionListOrPage.parse([{ id: EXEC, status: 'completed' }]);
    expect(bare).toEqual({ page_number: 1, page_size: 1, total: 1, has_more: false, data: [expect.objectContaining({ id: EXEC })] });
    const page = executionListOrPage.parse({ page_number: 2, page_size: 20, total: 21, has_more: false, data: [{ id: EXEC, status: 'busy' }] });
    expect(page).toMatchObject({ page_number: 2, total: 21, data: [{ status: 'busy' }] });
  });

  it('a broken page says where', () => {
    expect(refusal(executionListOrPage, { page_number: 1, page_size: 20, total: 1, has_more: false, data: [{ id: EXEC }] })).toBe(
      'data[0].status: Invalid input: expected string, received undefined',
    );
  });

  it('reads the log envelope and a bare log array', () => {
    const entry = { created_at: '2026-11-21T12:10:00Z', type: 'request', component: 'llm', provider: 'openai', data: '{}' };
    expect(executionLog.parse({ data: [entry] }).data).toHaveLength(1);
    expect(executionLog.parse([entry, { ...entry, reasoning_content: 'x' }]).data).toHaveLength(2);
  });
});

describe('batch', () => {
  it('accepts the live record with a 32-hex id and reads batch_id', () => {
    const b = batch.parse({
      batch_id: BATCH_HEX,
      status: 'scheduled',
      scheduled_at: '2026-11-21T12:10:00+00:00',
      created_at: '2026-11-21T12:00:00Z',
      updated_at: '2026-11-21T12:00:00Z',
      humanized_created_at: '5 minutes ago',
      file_name: 'contacts.csv',
      valid_contacts: 1,
      total_contacts: '1',
      from_phone_numbers: ['+14155550100'],
      execution_status: { queued: 1, completed: '0' },
    });
    expect(b).toMatchObject({ batch_id: BATCH_HEX, total_contacts: 1, execution_status: { queued: 1, completed: 0 } });
  });

  it('accepts `id` instead of batch_id and old status values', () => {
    expect(batch.parse({ id: 'b1', status: 'executed' }).batch_id).toBe('b1');
    expect(batch.parse({ batch_id: 'b2', status: 'Queued' }).status).toBe('queued');
    expect(batchList.parse([{ batch_id: 'b3', status: 'created' }])).toHaveLength(1);
  });

  it('refuses a batch without any id or status', () => {
    expect(refusal(batch, { status: 'created' })).toBe('a batch needs batch_id or id');
    expect(refusal(batch, { batch_id: 'b' })).toBe('status: Invalid input: expected string, received undefined');
  });

  it('reads the create answer', () => {
    expect(batchCreated.parse({ batch_id: BATCH_HEX, state: 'created' })).toEqual({ batch_id: BATCH_HEX, state: 'created' });
  });

  it('checks the create request strictly', () => {
    const ok = batchCreateRequest.parse({ agent_id: AGENT, csv: 'first_name, contact_number\nAnn,+14155550123\n' });
    expect(ok.file_name).toBe('contacts.csv');
    expect(refusal(batchCreateRequest, { agent_id: AGENT, csv: 'name\nAnn\n' })).toBe('csv: the CSV header needs a contact_number column');
    expect(refusal(batchCreateRequest, { agent_id: AGENT, csv: 'contact_number\n', extra: 1 })).toBe('Unrecognized key: "extra"');
    expect(refusal(batchCreateRequest, { csv: 'contact_number\n' })).toBe('agent_id: Invalid input: expected string, received undefined');
  });

  it('checks the schedule request', () => {
    expect(batchScheduleRequest.parse({ batch_id: BATCH_HEX, scheduled_at: '2026-11-21T12:10:00+00:00' })).toBeTruthy();
    expect(refusal(batchScheduleRequest, { batch_id: BATCH_HEX })).toMatch(/^scheduled_at: /);
  });
});

describe('agent', () => {
  it('accepts the read shape with live extras and agent_status values', () => {
    const a = agent.parse({
      id: AGENT,
      agent_name: 'Receptionist',
      agent_type: 'other',
      agent_status: 'seeding',
      created_at: '2026-11-21T12:00:00Z',
      updated_at: '2026-11-21T12:00:00Z',
      tasks: [{ task_type: 'conversation', tools_config: { llm_agent: { model: 'gpt-4o', max_tokens: 100 } }, custom: 1 }],
      agent_prompts: { task_1: { system_prompt: 'Be kind.' } },
      humanized_created_at: 'a minute ago',
    });
    expect(a).toMatchObject({ agent_status: 'seeding', humanized_created_at: 'a minute ago' });
    expect(agent.parse({ id: AGENT, agent_name: null }).agent_name).toBe('');
  });

  it('reads both create answers: {status} (spec) and {state} (live v2)', () => {
    expect(agentCreated.parse({ agent_id: AGENT, status: 'created' }).status).toBe('created');
    expect(agentCreated.parse({ agent_id: AGENT, state: 'created' }).state).toBe('created');
    expect(refusal(agentCreated, { state: 'created' })).toBe('agent_id: Invalid input: expected string, received undefined');
  });

  it('checks bodies strictly, readably', () => {
    expect(agentCreateBody.parse({ agent_config: { agent_name: 'A', tasks: [] } })).toBeTruthy();
    expect(refusal(agentCreateBody, { agent_config: { agent_name: '' } })).toBe('agent_config.agent_name: agent_name is required');
    expect(refusal(agentCreateBody, { agent_config: { agent_name: 'A', tasks: [{ task_type: 1 }] } })).toBe(
      'agent_config.tasks[0].task_type: Invalid input: expected string, received number',
    );
    expect(refusal(agentReplaceBody, { agent_config: {} })).toBe('agent_prompts: Invalid input: expected record, received undefined');
    expect(agentPatchBody.parse({ agent_config: { webhook_url: null } })).toBeTruthy();
    expect(refusal(agentPatchBody, { agent_config: { tasks: [] } })).toBe('agent_config: Unrecognized key: "tasks"');
    expect(refusal(agentPatchBody, { agent_prompts: { prompt_1: { system_prompt: 'x' } } })).toBe(
      'agent_prompts.prompt_1: prompt keys look like task_1',
    );
  });
});

describe('phone numbers, knowledgebases, user, errors, acks', () => {
  it('phone number records and search results (price as a string)', () => {
    expect(phoneNumber.parse({ id: 'pn1', phone_number: '+14155550123', agent_id: null, rented: true, price: '1.15' }).price).toBe(1.15);
    expect(phoneNumber.parse({ id: BATCH_HEX, phone_number: '+14155550123' }).id).toBe(BATCH_HEX);
    expect(availablePhoneNumberList.parse([{ phone_number: '+14155550199', friendly_name: '(415) 555-0199', region: 'CA' }])).toHaveLength(1);
    expect(refusal(phoneNumber, { id: 'pn1' })).toBe('phone_number: Invalid input: expected string, received undefined');
  });

  it('phone number requests are strict', () => {
    expect(phoneNumberSearchQuery.parse({ country: 'US', pattern: '415' })).toBeTruthy();
    expect(refusal(phoneNumberSearchQuery, { country: 'USA' })).toBe('country: country must be a two-letter code such as US');
    expect(refusal(phoneNumberSearchQuery, { country: 'US', pattern: '41a' })).toBe('pattern: pattern must be digits');
    expect(refusal(phoneNumberBuyBody, { country: 'US', phone_number: '+0123' })).toBe(
      'phone_number: must be an E.164 phone number such as +14155550123',
    );
  });

  it('knowledgebase records and the ingest request', () => {
    expect(knowledgebase.parse({ rag_id: 'r1', file_name: 'a.pdf', source_type: 'pdf', status: 'processing' }).status).toBe('processing');
    expect(knowledgebaseList.parse([{ rag_id: 'r1', chunk_size: '512' }])[0]!.chunk_size).toBe(512);
    expect(knowledgebaseIngestRequest.parse({ url: 'https://x.test/faq' })).toBeTruthy();
    expect(refusal(knowledgebaseIngestRequest, { url: 'https://x.test', file: { name: 'a.pdf', bytes: new Uint8Array(1) } })).toBe(
      'give either a PDF file or a URL, not both',
    );
    expect(refusal(knowledgebaseIngestRequest, { file: { name: 'a.pdf', bytes: new Uint8Array(20 * 1024 * 1024 + 1) } })).toBe(
      'file.bytes: the PDF is over 20 MB',
    );
  });

  it('user, with a string wallet', () => {
    expect(user.parse({ id: 'u1', name: 'Ann', wallet: '1250', concurrency: { max: 2, current: 1 } }).wallet).toBe(1250);
  });

  it('error bodies in every seen shape', () => {
    expect(errorBody.parse({ error: 400, message: 'agent_id is required' })).toBeTruthy();
    expect(errorBody.parse({ detail: 'Invalid API key' })).toBeTruthy();
    expect(errorBody.parse({ detail: [{ loc: ['body', 'x'], msg: 'm' }] })).toBeTruthy();
    expect(errorBody.parse({ message: 'Batch not found' })).toBeTruthy();
  });

  it('action acknowledgements', () => {
    expect(actionAck.parse({ message: 'success', state: 'scheduled' })).toEqual({ message: 'success', state: 'scheduled' });
  });
});
