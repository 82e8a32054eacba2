/**
 * The Agents section's edit form as plain values: what it starts from (the agent as read), what
 * changed (field by field, old → new) and the PATCH body that sends exactly those changes.
 */
import type { Agent, AgentPatchBody } from '../api/schemas/agent';
import { t } from '../i18n';

/** The synthesizer settings the form edits; the rest of the synthesizer is kept as it is. */
export const SYNTHESIZER_FIELDS = [
  { key: 'provider', labelKey: 'agents_synthProvider', inConfig: false },
  { key: 'voice', labelKey: 'agents_synthVoice', inConfig: true },
  { key: 'engine', labelKey: 'agents_synthEngine', inConfig: true },
  { key: 'language', labelKey: 'agents_synthLanguage', inConfig: true },
] as const;
export type SynthesizerField = (typeof SYNTHESIZER_FIELDS)[number]['key'];

/** The form's values: text throughout ('' means "none"). */
export interface AgentEdits {
  agent_name: string;
  agent_welcome_message: string;
  webhook_url: string;
  synthesizer: Record<SynthesizerField, string>;
  /** System prompts by key (`task_1`, …). */
  prompts: Record<string, string>;
}

export interface FieldChange {
  /** Where the change lands in the PATCH body, e.g. `agent_config.webhook_url`. */
  path: string;
  label: string;
  /** null: the field had (or will have) no value. */
  before: string | null;
  after: string | null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The synthesizer of the agent's first task: the one a PATCH `synthesizer` replaces. */
export function currentSynthesizer(agent: Agent): Json {
  const tools = agent.tasks?.[0]?.tools_config;
  return isObject(tools) && isObject(tools.synthesizer) ? tools.synthesizer : {};
}

/** Prompt keys the form offers: the agent's own, else one per task (`task_1`, …). */
export function promptKeys(agent: Agent): string[] {
  const own = Object.keys(agent.agent_prompts ?? {});
  if (own.length) return own;
  return (agent.tasks ?? []).map((_, i) => `task_${i + 1}`);
}

export function editsFrom(agent: Agent): AgentEdits {
  const synthesizer = currentSynthesizer(agent);
  const config = isObject(synthesizer.provider_config) ? synthesizer.provider_config : {};
  return {
    agent_name: agent.agent_name,
    agent_welcome_message: text(agent.agent_welcome_message),
    webhook_url: text(agent.webhook_url),
    synthesizer: Object.fromEntries(
      SYNTHESIZER_FIELDS.map((f) => [f.key, text(f.inConfig ? config[f.key] : synthesizer[f.key])]),
    ) as AgentEdits['synthesizer'],
    prompts: Object.fromEntries(promptKeys(agent).map((key) => [key, text(agent.agent_prompts?.[key]?.system_prompt)])),
  };
}

const orNull = (value: string): string | null => (value === '' ? null : value);

/** Every field that differs between the form's start and its current values, in form order. */
export function agentChanges(before: AgentEdits, after: AgentEdits): FieldChange[] {
  const changes: FieldChange[] = [];
  const compare = (path: string, label: string, was: string, now: string) => {
    if (was !== now) changes.push({ path, label, before: orNull(was), after: orNull(now) });
  };
  compare('agent_config.agent_name', t('agents_name'), before.agent_name, after.agent_name.trim());
  compare('agent_config.agent_welcome_message', t('agents_welcomeMessage'), before.agent_welcome_message, after.agent_welcome_message);
  compare('agent_config.webhook_url', t('agents_webhookUrl'), before.webhook_url, after.webhook_url.trim());
  for (const f of SYNTHESIZER_FIELDS) {
    const path = f.inConfig ? `agent_config.synthesizer.provider_config.${f.key}` : `agent_config.synthesizer.${f.key}`;
    compare(path, t(f.labelKey), before.synthesizer[f.key], after.synthesizer[f.key].trim());
  }
  for (const key of Object.keys(after.prompts)) {
    compare(`agent_prompts.${key}.system_prompt`, t('agents_promptLabel', key), before.prompts[key] ?? '', after.prompts[key] ?? '');
  }
  return changes;
}

/** Sets or (for '') removes a key, returning a copy. */
function withValue(object: Json, key: string, value: string): Json {
  const { [key]: _old, ...rest } = object;
  return value === '' ? rest : { ...rest, [key]: value };
}

/**
 * The PATCH body for the changes: only changed fields are sent. The synthesizer is one field of
 * the PATCH (the service replaces it whole), so when any of its settings changed it goes whole:
 * the agent's current synthesizer with the changes applied. null when nothing changed.
 */
export function patchBody(agent: Agent, changes: FieldChange[]): AgentPatchBody | null {
  if (!changes.length) return null;
  const config: NonNullable<AgentPatchBody['agent_config']> = {};
  const prompts: NonNullable<AgentPatchBody['agent_prompts']> = {};
  let synthesizer: Json | null = null;
  let providerConfig: Json | null = null;
  for (const change of changes) {
    const value = change.after ?? '';
    const [, field, sub, leaf] = change.path.split('.');
    if (change.path.startsWith('agent_prompts.')) {
      prompts[field!] = { system_prompt: value };
    } else if (field === 'agent_name') {
      config.agent_name = value;
    } else if (field === 'agent_welcome_message') {
      config.agent_welcome_message = value;
    } else if (field === 'webhook_url') {
      // The spec lets PATCH clear the webhook with null.
      config.webhook_url = change.after;
    } else if (field === 'synthesizer') {
      synthesizer ??= { ...currentSynthesizer(agent) };
      if (sub === 'provider_config') {
        providerConfig ??= isObject(synthesizer.provider_config) ? { ...synthesizer.provider_config } : {};
        providerConfig = withValue(providerConfig, leaf!, value);
      } else {
        synthesizer = withValue(synthesizer, sub!, value);
      }
    }
  }
  if (synthesizer) config.synthesizer = providerConfig ? { ...synthesizer, provider_config: providerConfig } : synthesizer;
  return {
    ...(Object.keys(config).length ? { agent_config: config } : {}),
    ...(Object.keys(prompts).length ? { agent_prompts: prompts } : {}),
  };
}
