import { useEffect, useState } from 'preact/hooks';
import { caseToDraft, emptyPlan, freeCaseId, planToDraft, type PlanDraft } from '../../lib/plans/draft';
import { parsePlan, type PlanProblem } from '../../lib/plans/schema';
import { queryParam } from '../../lib/ui/hooks';
import { send } from '../../lib/ui/send';
import { AgentPicker } from '../agents/AgentPicker';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { PlanEditor } from './PlanEditor';
import { PlanView } from './PlanView';
import { usePlansData } from './usePlansData';

type Mode = { kind: 'list' } | { kind: 'plan'; planId: string } | { kind: 'edit'; planId: string; draft: PlanDraft; note?: string };

/** A file that did not pass: its text stays, editable, with the problems beside it. */
interface FailedImport {
  fileName: string;
  text: string;
  problems: PlanProblem[];
}

/** The side panel's Test plans section: an agent's plans, their editor, runs and results. */
export function PlansSection({ agentId, onAgentChange, openExecution }: SectionProps) {
  const data = usePlansData();
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [failed, setFailed] = useState<FailedImport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const plans = data.plans.filter((p) => p.plan.agent_id === agentId);

  // "Save as test case" on a finished call opens here with the call's execution: make its case, open it to adjust.
  useEffect(() => {
    const executionId = queryParam('fromExecution');
    if (!executionId || !data.ready) return;
    history.replaceState(null, '', location.pathname + '?section=plans');
    void send({ type: 'plans/case-from-execution', executionId }).then((reply) => {
      if (!reply.ok) return setError(`The call could not become a test case: ${reply.error.message}`);
      const { agentId: agent, testCase } = reply.data;
      onAgentChange(agent);
      const target = data.plans.filter((p) => p.plan.agent_id === agent).sort((a, b) => b.updatedAt - a.updatedAt)[0];
      const draft = target ? planToDraft(target.plan) : { ...emptyPlan(agent), name: 'Cases from calls', cases: [] };
      const made = caseToDraft(testCase);
      if (draft.cases.some((c) => c.id === made.id)) made.id = freeCaseId(draft, made.id);
      draft.cases.push(made);
      setMode({
        kind: 'edit',
        planId: target?.id ?? crypto.randomUUID(),
        draft,
        note: `The call became case ${draft.cases.length} of ${draft.name}: adjust it and save the plan.`,
      });
    });
  }, [data.ready]);

  const openImported = (fileName: string, text: string) => {
    const parsed = parsePlan(text);
    if (!parsed.ok) return setFailed({ fileName, text, problems: parsed.problems });
    setFailed(null);
    onAgentChange(parsed.plan.agent_id);
    setMode({ kind: 'edit', planId: crypto.randomUUID(), draft: planToDraft(parsed.plan), note: `Read ${fileName}: check the plan and save it.` });
  };

  const importFile = async (e: Event) => {
    const inputEl = e.currentTarget as HTMLInputElement;
    const file = inputEl.files?.[0];
    inputEl.value = '';
    if (!file) return;
    if (file.size > 1_000_000) return setError(`${file.name} is too large for a plan file (over 1 MB).`);
    setError(null);
    openImported(file.name, await file.text());
  };

  if (mode.kind === 'edit') {
    return (
      <PlanEditor
        planId={mode.planId}
        initial={mode.draft}
        note={mode.note}
        onSaved={(planId) => {
          setNote('The plan was saved.');
          setMode({ kind: 'plan', planId });
        }}
        onCancel={() => setMode(data.plans.some((p) => p.id === mode.planId) ? { kind: 'plan', planId: mode.planId } : { kind: 'list' })}
      />
    );
  }

  const open = mode.kind === 'plan' ? data.plans.find((p) => p.id === mode.planId) : undefined;
  return (
    <section class="plans" aria-label="Test plans">
      <AgentPicker id="plans-agent" value={agentId} refreshOnMount={false} onChange={(id) => (onAgentChange(id), setMode({ kind: 'list' }))} />
      <ErrorMessage>{error}</ErrorMessage>
      <StatusMessage>{note}</StatusMessage>
      {open ? (
        <>
          <button type="button" class="link" onClick={() => setMode({ kind: 'list' })}>
            All plans of this agent
          </button>
          <PlanView
            key={open.id}
            stored={open}
            runs={data.runs.filter((r) => r.planId === open.id).sort((a, b) => b.createdAt - a.createdAt)}
            onEdit={() => setMode({ kind: 'edit', planId: open.id, draft: planToDraft(open.plan) })}
            onDeleted={() => (setNote(`The plan ${open.plan.name} was deleted.`), setMode({ kind: 'list' }))}
            openExecution={openExecution}
          />
        </>
      ) : !agentId ? (
        <p class="hint">Choose an agent to see its test plans.</p>
      ) : (
        <>
          <h2>Test plans</h2>
          {!data.ready ? <p class="hint">Loading…</p> : plans.length === 0 ? <p class="hint">This agent has no test plans yet.</p> : null}
          <ul class="plans-list">
            {plans.map((p) => (
              <li key={p.id}>
                <button type="button" class="link" onClick={() => setMode({ kind: 'plan', planId: p.id })}>
                  {p.plan.name}
                </button>{' '}
                <span class="hint">{p.plan.cases.length === 1 ? '1 case' : `${p.plan.cases.length} cases`}</span>
              </li>
            ))}
          </ul>
          <div class="actions">
            <button type="button" class="primary" onClick={() => setMode({ kind: 'edit', planId: crypto.randomUUID(), draft: emptyPlan(agentId) })}>
              New plan
            </button>
            <label class="secondary plans-import">
              Import a plan file
              <input type="file" accept=".json,application/json" onChange={importFile} />
            </label>
          </div>
        </>
      )}
      {failed ? (
        <div class="plans-import-failed">
          <div class="message message-error" role="alert">
            <p>{failed.fileName} is not a plan this extension can read:</p>
            <ul>
              {failed.problems.map((p, i) => (
                <li key={i}>{p.path ? `${p.path}: ${p.message}` : p.message}</li>
              ))}
            </ul>
          </div>
          <label class="field">
            The file's text (fix it here and check it again)
            <textarea rows={10} class="mono" value={failed.text} onInput={(e) => setFailed({ ...failed, text: (e.currentTarget as HTMLTextAreaElement).value })} />
          </label>
          <div class="actions">
            <button type="button" class="secondary" onClick={() => openImported(failed.fileName, failed.text)}>
              Check again
            </button>
            <button type="button" class="secondary" onClick={() => setFailed(null)}>
              Dismiss
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
