import type { Agent } from '../../lib/api/schemas/agent';
import { settingsOf, taskViews, type Setting } from '../../lib/agents/view';
import { t, uiLocale, type MessageKey } from '../../lib/i18n';
import { formatDateTime } from '../../lib/ui/format';
import { ShortValue } from '../shared/ShortValue';

const STAGE_LABELS: Record<string, MessageKey> = { transcriber: 'agents_stageTranscriber', llm: 'agents_stageLlm', synthesizer: 'agents_synthesizer' };
const stageLabel = (stage: string) => (STAGE_LABELS[stage] ? t(STAGE_LABELS[stage]) : stage);
const NONE = '—';

function Settings({ settings, label }: { settings: Setting[]; label: string }) {
  if (!settings.length) return <p class="hint">{t('agents_noSettings')}</p>;
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
  const number = new Intl.NumberFormat(uiLocale(), { maximumFractionDigits: 6 });
  const formatNumber = (value: number) => number.format(value);
  const tasks = taskViews(agent, formatNumber);
  const prompts = Object.entries(agent.agent_prompts ?? {});
  const ingest = (agent as Record<string, unknown>).ingest_source_config;
  return (
    <div class="agent-view">
      <h3>{agent.agent_name || t('agents_unnamed')}</h3>
      <dl class="details" aria-label={t('agents_details')}>
        <div class="details-row"><dt>{t('agents_type')}</dt><dd>{agent.agent_type || NONE}</dd></div>
        <div class="details-row"><dt>{t('agents_status')}</dt><dd>{agent.agent_status || NONE}</dd></div>
        <div class="details-row"><dt>{t('agents_welcomeMessage')}</dt><dd class="agent-text">{agent.agent_welcome_message || NONE}</dd></div>
        <div class="details-row"><dt>{t('agents_webhookUrl')}</dt><dd class="mono">{agent.webhook_url || NONE}</dd></div>
        <div class="details-row"><dt>{t('agents_agentId')}</dt><dd><ShortValue value={agent.id} name={t('agents_agentId')} /></dd></div>
        <div class="details-row"><dt>{t('agents_createdAt')}</dt><dd>{agent.created_at ? formatDateTime(agent.created_at) : NONE}</dd></div>
        <div class="details-row"><dt>{t('agents_updatedAt')}</dt><dd>{agent.updated_at ? formatDateTime(agent.updated_at) : NONE}</dd></div>
      </dl>
      {ingest ? (
        <>
          <h4>{t('agents_knowledgeSource')}</h4>
          <Settings settings={settingsOf(ingest, formatNumber)} label={t('agents_knowledgeSource')} />
        </>
      ) : null}

      {tasks.length ? null : <p class="hint">{t('agents_noTasks')}</p>}
      {tasks.map((task, i) => (
        <section class="agent-task" key={task.key} aria-labelledby={`agent-task-${i}`}>
          <h4 id={`agent-task-${i}`}>{task.taskType ? t('agents_taskWithType', i + 1, task.taskType) : t('agents_task', i + 1)}</h4>
          {task.execution ? <p class="hint">{t('agents_execution', task.execution)}</p> : null}
          {task.pipelines.length ? null : <p class="hint">{t('agents_noPipeline')}</p>}
          {task.pipelines.map((pipeline, p) => (
            <div class="agent-pipeline" key={p}>
              <p class="agent-pipeline-stages" aria-label={t('agents_pipeline', p + 1)}>
                {pipeline.map((s) => stageLabel(s.stage)).join(' → ')}
              </p>
              {pipeline.map((s) => (
                <details key={s.stage}>
                  <summary>{t('agents_stageSettings', stageLabel(s.stage))}</summary>
                  <Settings settings={s.settings} label={t('agents_stageSettings', stageLabel(s.stage))} />
                </details>
              ))}
            </div>
          ))}
          <h5>{t('agents_routes')}</h5>
          {task.routes.length ? (
            <ul class="plain agent-routes">
              {task.routes.map((r, n) => (
                <li key={n}>
                  <strong>{r.name || NONE}</strong>
                  {r.scoreThreshold !== null ? ` ${t('agents_scoreThreshold', formatNumber(r.scoreThreshold))}` : ''}
                  <p>{t('agents_utterances', r.utterances.join(' · ') || NONE)}</p>
                  <p>{t('agents_response', r.response ?? NONE)}</p>
                </li>
              ))}
            </ul>
          ) : (
            <p class="hint">{t('agents_noRoutes')}</p>
          )}
          <h5>{t('agents_callBehaviour')}</h5>
          <Settings settings={task.callSettings} label={t('agents_callBehaviourOfTask', i + 1)} />
        </section>
      ))}

      <h4>{t('agents_prompts')}</h4>
      {prompts.length ? (
        prompts.map(([key, prompt]) => (
          <div class="agent-prompt" key={key}>
            <p class="mono">{key}</p>
            <p class="agent-text">{prompt.system_prompt || NONE}</p>
          </div>
        ))
      ) : (
        <p class="hint">{t('agents_noPrompts')}</p>
      )}
    </div>
  );
}
