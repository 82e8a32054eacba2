/** Agent test plans: the plan file, the judge, the exports, the batch of a run and its tracker. No browser globals. */
export * from './schema';
export { matchers, looseText } from './matchers';
export { judgeCase, judgeRun, callOutcome, type CaseResult, type ExpectationOutcome, type Interruption, type RunResult, type Verdict } from './judge';
export { planCsv, executionsByCase, rowVariables } from './batch';
export { toJUnit, toJson, toCsv, failureLines } from './export';
export { applyList, applyFull, isDone, nextListDelay, newFollowState, statusCounts, type FollowState } from '../placement/follow-batch';
export { caseFromExecution, estimateRunCost } from './from-call';
export { triageCall, neverConnected, TRIAGE_CLASSES, type Triage } from './triage';
export { summarizeRepeats, repeatsVerdict, type CaseRepeats, type CallRun } from './repeats';
export { gateRun, exitFor, parseBaseline, type GateReport } from './gate';

import type { TestPlan } from './schema';
/** A plan as the file users import and export. */
export const planToJson = (plan: TestPlan) => `${JSON.stringify(plan, null, 2)}\n`;
