// Recorded executions in the live shape and the spec shape, read through the client's own schema.
import { execution, type Execution } from '../../../lib/api/schemas/execution';
import { withFollow, type PlanRun } from '../../../lib/plans/run-state';
import { checkPlan, type TestPlan, type TestPlanInput } from '../../../lib/plans/schema';

export function plan(input: Partial<TestPlanInput> & Pick<TestPlanInput, 'cases'>): TestPlan {
  const parsed = checkPlan({ format: 'voice-agent-test-plan', version: 1, name: 'Sales smoke', agent_id: 'agent-1', ...input });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.plan;
}

const TRANSCRIPT = "assistant: Hello! This is Ava.\nuser: Yes, I'd like a  CALLBACK tomorrow.\nassistant: Perfect, noted.";

/** Live: `conversation_duration`, variables under `context_details.recipient_data`, `hangup_code`, a string duration. */
export function liveExecution(over: Record<string, unknown> = {}, caseId: string | null = 'ok'): Execution {
  return execution.parse({
    id: '7c1f4a52-8f4e-4c55-9a77-1f1de1e0a001',
    agent_id: 'agent-1',
    batch_id: 'a'.repeat(32),
    status: 'completed',
    conversation_duration: 42,
    total_cost: 12.5,
    answered_by_voice_mail: false,
    transcript: TRANSCRIPT,
    updated_at: '2026-11-23T10:00:00.000Z',
    telephony_data: { to_number: '+14155550123', duration: '45', hangup_by: 'Callee', hangup_code: 4000 },
    extracted_data: { interested: true, callback_time: 'tomorrow 10am', budget: '1200', customer_name: '' },
    context_details: { recipient_data: caseId ? { test_case_id: caseId, name: 'Ann' } : { name: 'Ann' }, recipient_phone_number: '+14155550123' },
    usage_breakdown: { llm_tokens: 10 },
    ...over,
  });
}

/** Spec: `conversation_time`, `context_details` an object without the live key, numeric telephony duration. */
export function specExecution(over: Record<string, unknown> = {}): Execution {
  return execution.parse({
    id: '7c1f4a52-8f4e-4c55-9a77-1f1de1e0a002',
    agent_id: 'agent-1',
    batch_id: 'b'.repeat(32),
    status: 'completed',
    conversation_time: 30,
    total_cost: 8,
    error_message: '',
    answered_by_voice_mail: false,
    transcript: TRANSCRIPT,
    created_at: '2026-11-23T10:00:00Z',
    updated_at: '2026-11-23T10:01:00Z',
    cost_breakdown: { llm: 1, network: 1, platform: 2, synthesizer: 3, transcriber: 1 },
    telephony_data: { to_number: '+14155550124', duration: 31, hangup_by: 'Caller', hangup_provider_code: 4000 },
    batch_run_details: { status: 'completed', retried: 0 },
    extracted_data: { interested: 'false' },
    context_details: {},
    ...over,
  });
}

/** A run as the placement engine leaves it once its batch is made and scheduled, with its list followed from `now`. */
export function scheduledRun(run: PlanRun, s: { batchId: string; scheduledAt: string; requestAt: number }, now: number): PlanRun {
  const placed: PlanRun = { ...run, step: 'finding-execution', phase: 'following', batchId: s.batchId, scheduledAt: s.scheduledAt, scheduledRequestAt: s.requestAt, status: 'scheduled' };
  return withFollow(placed, now);
}
