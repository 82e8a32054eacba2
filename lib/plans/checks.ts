/**
 * The outcomes of a case's checks on what was said (turn by turn) and how fast, for the judge. Pure.
 */
import type { Execution } from '../api/schemas/execution';
import { latencyFigures, latencyOutcomes } from './latency';
import type { CheckedOutcome } from './outcome-text';
import { agentEnded, counted, inOrder, neverReveals, neverSays, noRepeatedAgentLines, says, turnsOf, withinFirst } from './said';
import type { CaseExpectations } from './schema';
import { patternsFor, type SensitivePattern } from './sensitive';

type Outcome = CheckedOutcome;

export function saidOutcomes(e: CaseExpectations, execution: Execution, planPatterns: readonly SensitivePattern[] = []): Outcome[] {
  const t = e.transcript;
  if (!t) return [];
  const turns = turnsOf(execution.transcript);
  const out: Outcome[] = [];
  for (const l of t.says ?? []) out.push({ name: 'transcript says', ...says(l, turns) });
  for (const l of t.never_says ?? []) out.push({ name: 'transcript never says', ...neverSays(l, turns) });
  if (t.in_order) out.push({ name: 'transcript in order', ...inOrder(t.in_order, turns) });
  for (const rule of t.count ?? []) out.push({ name: 'transcript count', ...counted(rule, turns) });
  for (const l of t.within_first_turns?.says ?? []) out.push({ name: 'transcript within first turns', ...withinFirst(t.within_first_turns!.turns, l, turns) });
  if (t.no_repeated_agent_lines) out.push({ name: 'transcript no repeated agent line', ...noRepeatedAgentLines(turns) });
  if (t.agent_ended_call !== undefined) {
    const hangup = { hangupBy: execution.telephony_data?.hangup_by, callType: execution.telephony_data?.call_type };
    out.push({ name: 'agent ended the call', ...agentEnded(t.agent_ended_call, hangup, turns) });
  }
  if (t.agent_never_reveals) out.push({ name: 'agent never reveals', ...neverReveals(patternsFor(t.agent_never_reveals, planPatterns), turns) });
  return out;
}

/** The execution's latency figures, read from `latency_data` (live and sandbox; absent in the spec). */
export const executionLatency = (execution: Execution) => latencyFigures((execution as { latency_data?: unknown }).latency_data);

export function latencyChecks(e: CaseExpectations, execution: Execution): Outcome[] {
  return e.latency ? latencyOutcomes(e.latency, executionLatency(execution)) : [];
}
