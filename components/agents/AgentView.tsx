import type { Agent } from '../../lib/api/schemas/agent';
import { settingsOf, taskViews, type Setting } from '../../lib/agents/view';
import { formatDateTime } from '../../lib/ui/format';

const STAGE_LABELS: Record<string, string> = { transcriber: 'Transcriber', llm: 'LLM', synthesizer: 'Synthesizer' };
const NONE = '—';

function Settings({ settings, label }: { settings: Setting[]; label: string }) {
  if (!settings.length) return <p class="hint">No settings.</p>;
  return (
    <dl class="details" aria-label={label}>
      {settings.map((s) => (
        <div class="details-row" key={s.name}>
          <dt class="mono">{s.name}</dt>
          <dd>{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The agent as the service has it, all as text: service strings are never markup. */
export function AgentView({ agent }: { agent: Agent }) {
  const number = new Intl.NumberFormat(navigator.language, { maximumFractionDigits: 6 });
  const formatNumber = (value: number) => number.format(value);
  const tasks = taskViews(agent, formatNumber);
  const prompts = Object.entries(agent.agent_prompts ?? {});
  const ingest = (agent as Record<string, unknown>).ingest_source_config;
  return (
    <div class="agent-view">
      <h3>{agent.agent_name || 'Unnamed agent'}</h3>
      <dl class="details" aria-label="Agent details">
        <div class="details-row"><dt>Type</dt><dd>{agent.agent_type || NONE}</dd></div>
        <div class="details-row"><dt>Status</dt><dd>{agent.agent_status || NONE}</dd></div>
        <div class="details-row"><dt>Welcome message</dt><dd class="agent-text">{agent.agent_welcome_message || NONE}</dd></div>
        <div class="details-row"><dt>Webhook URL</dt><dd class="mono">{agent.webhook_url || NONE}</dd></div>
        <div class="details-row"><dt>Agent id</dt><dd class="mono">{agent.id}</dd></div>
        <div class="details-row"><dt>Created</dt><dd>{agent.created_at ? formatDateTime(agent.created_at) : NONE}</dd></div>
        <div class="details-row"><dt>Updated</dt><dd>{agent.updated_at ? formatDateTime(agent.updated_at) : NONE}</dd></div>
      </dl>
      {ingest ? (
        <>
          <h4>Knowledge source</h4>
          <Settings settings={settingsOf(ingest, formatNumber)} label="Knowledge source" />
        </>
      ) : null}

      {tasks.length ? null : <p class="hint">This agent has no tasks.</p>}
      {tasks.map((task, i) => (
        <section class="agent-task" key={task.key} aria-labelledby={`agent-task-${i}`}>
          <h4 id={`agent-task-${i}`}>{task.taskType ? `Task ${i + 1}: ${task.taskType}` : `Task ${i + 1}`}</h4>
          {task.execution ? <p class="hint">{`Execution: ${task.execution}`}</p> : null}
          {task.pipelines.length ? null : <p class="hint">No pipeline is configured.</p>}
          {task.pipelines.map((pipeline, p) => (
            <div class="agent-pipeline" key={p}>
              <p class="agent-pipeline-stages" aria-label={`Pipeline ${p + 1}`}>
                {pipeline.map((s) => STAGE_LABELS[s.stage] ?? s.stage).join(' → ')}
              </p>
              {pipeline.map((s) => (
                <details key={s.stage}>
                  <summary>{STAGE_LABELS[s.stage] ?? s.stage} settings</summary>
                  <Settings settings={s.settings} label={`${STAGE_LABELS[s.stage] ?? s.stage} settings`} />
                </details>
              ))}
            </div>
          ))}
          <h5>Routes</h5>
          {task.routes.length ? (
            <ul class="plain agent-routes">
              {task.routes.map((r, n) => (
                <li key={n}>
                  <strong>{r.name || NONE}</strong>
                  {r.scoreThreshold !== null ? ` (score threshold ${formatNumber(r.scoreThreshold)})` : ''}
                  <p>Utterances: {r.utterances.join(' · ') || NONE}</p>
                  <p>Response: {r.response ?? NONE}</p>
                </li>
              ))}
            </ul>
          ) : (
            <p class="hint">No routes.</p>
          )}
          <h5>Call behaviour</h5>
          <Settings settings={task.callSettings} label={`Call behaviour of task ${i + 1}`} />
        </section>
      ))}

      <h4>Prompts</h4>
      {prompts.length ? (
        prompts.map(([key, prompt]) => (
          <div class="agent-prompt" key={key}>
            <p class="mono">{key}</p>
            <p class="agent-text">{prompt.system_prompt || NONE}</p>
          </div>
        ))
      ) : (
        <p class="hint">No prompts.</p>
      )}
    </div>
  );
}
