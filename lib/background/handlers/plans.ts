/** Answers the requests of lib/requests/plans.ts. */
import { earliestScheduledAt, liveStartTime } from '../../api/schedule';
import { UploadError, UploadStaging } from '../../batches/upload';
import { callerScriptFromExecution, caseFromExecution, estimateRunCost } from '../../plans/from-call';
import { checkPlan, problemsText, runCalls } from '../../plans/schema';
import type { PlanReplies } from '../../requests/plans';
import { describeError } from '../describe-error';
import { InputError } from '../input-error';
import { planRuns } from '../plan-runs';
import { planStore } from '../plan-store';
import { currentClient, hostOf } from '../service';
import type { Handlers } from './types';

/** Recent calls the estimate goes by. */
const RECENT = 20;

async function storedPlan(planId: string) {
  const found = (await planStore.plans()).find((p) => p.id === planId);
  if (!found) throw new InputError('This test plan is no longer stored (it may have been deleted in another window).');
  return found;
}

/** Plans on their way in, in parts (per upload id); lost with the worker, which the panel reports. */
const uploads = new UploadStaging();

function fromUpload<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    // The staging's own words are about contact lists.
    if (e instanceof UploadError) throw new InputError('The test plan did not reach the extension’s background whole (or waited too long); save it again.');
    throw e;
  }
}

async function savePlan(planId: string, plan: unknown, now: () => number) {
  const checked = checkPlan(plan);
  if (!checked.ok) throw new InputError(`The plan was not saved:\n${problemsText(checked.problems)}`);
  await planStore.editPlans((plans) => {
    const entry = { id: planId, plan: checked.plan, updatedAt: now() };
    // An edited plan keeps its baseline: cases added since are "new" against it, never regressions.
    const items = plans.some((p) => p.id === planId) ? plans.map((p) => (p.id === planId ? { ...p, ...entry } : p)) : [...plans, entry];
    return { items, result: undefined };
  }, now());
  return { planId };
}

export const plansHandlers: Handlers<keyof PlanReplies> = {
  async 'plans/save'({ planId, plan }, { now }) {
    return savePlan(planId, plan, now);
  },

  async 'plans/upload-part'({ uploadId, index, total, text }) {
    return fromUpload(() => uploads.put(uploadId, index, total, text));
  },

  async 'plans/save-upload'({ planId, uploadId }, { now }) {
    const text = fromUpload(() => uploads.take(uploadId));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new InputError('The test plan did not reach the extension’s background whole; save it again.');
    }
    return savePlan(planId, value, now);
  },

  async 'plans/delete'({ planId }, { now }) {
    await planStore.editPlans((plans) => ({ items: plans.filter((p) => p.id !== planId), result: undefined }), now());
    // Its runs go with it (a run in progress is stopped first, so no call is left unfollowed).
    for (const run of (await planStore.runs()).filter((r) => r.planId === planId)) {
      if (run.phase !== 'finished' && run.phase !== 'failed') await planRuns().stop(run.id);
      else await planRuns().remove(run.id);
    }
    return null;
  },

  async 'plans/case-from-execution'({ executionId }) {
    const execution = await (await currentClient()).getExecution(executionId);
    if (!execution.agent_id) throw new InputError('This call does not say which agent made it, so it cannot become a test case.');
    const id = `call-${execution.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || 'case'}`;
    const testCase = caseFromExecution(execution, id, 'Case from a call');
    return { agentId: execution.agent_id, testCase, callerScript: callerScriptFromExecution(execution) };
  },

  async 'plans/preview-run'({ planId }, { now }) {
    const { plan } = await storedPlan(planId);
    const client = await currentClient();
    let estimate = null;
    let estimateError = null;
    try {
      // The live route wants a window of at most 7 days (as the Executions section asks); `to` rounded up to the second.
      const to = Math.ceil(now() / 1000) * 1000;
      const recent = await client.listAgentExecutions(plan.agent_id, { page_number: 1, page_size: RECENT, from: new Date(to - 7 * 24 * 3600_000), to: new Date(to) });
      estimate = estimateRunCost(recent.data, runCalls(plan));
    } catch (error) {
      estimateError = describeError(error).message;
    }
    // The same rule a run applies when it is confirmed, on the service's clock, told on ours.
    const local = now();
    const serviceAt = local + (client.clockOffset() ?? 0);
    const at = earliestScheduledAt(new Date(serviceAt));
    // The sandbox's clock may run faster than ours (timeScale): a wait there is shorter here.
    const toLocal = (t: Date) => local + (t.getTime() - serviceAt) / client.timeScale();
    return {
      calls: runCalls(plan),
      numbers: [...new Set(plan.cases.map((c) => c.contact_number))],
      estimate,
      estimateError,
      startsAt: toLocal(at),
      liveStartsAt: toLocal(liveStartTime(at)),
      service: hostOf(client.baseUrl),
    };
  },

  async 'plans/run'({ planId, runId }) {
    const { plan } = await storedPlan(planId);
    // Fails here, before anything is stored, when there is no key for the saved service.
    const client = await currentClient();
    const run = await planRuns().start({ id: runId, planId, plan, baseUrl: client.baseUrl });
    return { runId: run.id };
  },

  async 'plans/run-guided'({ planId, runId, caseId, toNumber }) {
    const { plan } = await storedPlan(planId);
    const guided = plan.cases.find((c) => c.id === caseId);
    if (!guided) throw new InputError('This case is no longer in the plan.');
    if (!guided.caller_script) throw new InputError('This case has no caller script to guide a call with.');
    const client = await currentClient();
    // One case, dialled to the tester's phone; everything else it checks stays as the plan says.
    const one = { ...plan, cases: [{ ...guided, contact_number: toNumber }] };
    const run = await planRuns().start({ id: runId, planId, plan: one, baseUrl: client.baseUrl, guided: { caseId, toNumber, marks: [] } });
    return { runId: run.id };
  },

  async 'plans/mark-step'({ runId, step, mark, note, atMs }) {
    await planRuns().markStep(runId, step, mark ? { step, mark, note: note.trim(), atMs } : null);
    return null;
  },

  async 'plans/stop-run'({ runId }) {
    const run = await planRuns().stop(runId);
    if (!run) throw new InputError('This run is no longer stored.');
    return null;
  },

  async 'plans/pin-baseline'({ planId, runId }, { now }) {
    const run = runId === null ? null : (await planStore.runs()).find((r) => r.id === runId && r.planId === planId);
    if (runId !== null && !run?.result) throw new InputError('Only a finished run of this plan can be its baseline.');
    await planStore.editPlans((plans) => {
      if (!plans.some((p) => p.id === planId)) throw new InputError('This test plan is no longer stored (it may have been deleted in another window).');
      const items = plans.map((p) => {
        if (p.id !== planId) return p;
        const { baseline: _old, ...rest } = p;
        return run?.result ? { ...rest, baseline: { runId: run.id, pinnedAt: now(), result: run.result } } : rest;
      });
      return { items, result: undefined };
    }, now());
    return null;
  },

  async 'plans/delete-run'({ runId }) {
    const run = (await planStore.runs()).find((r) => r.id === runId);
    if (run && run.phase !== 'finished' && run.phase !== 'failed') throw new InputError('This run is still in progress: stop it before deleting it.');
    await planRuns().remove(runId);
    return null;
  },
};
