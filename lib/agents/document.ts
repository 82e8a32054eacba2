/**
 * The JSON documents of the Agents section: the whole config for a PUT (prefilled from the agent
 * as read), a template or a copy for a POST, and their checking with the schemas of lib/api before
 * anything is sent. Every problem names its path in the document.
 */
import type { z } from '../zod';
import { t } from '../i18n';
import { agentCreateBody, agentReplaceBody, type Agent, type AgentCreateBody, type AgentReplaceBody } from '../api/schemas/agent';

/** The config keys a PUT or POST takes (spec 2.1); the read shape's other keys (id, status, times) are not config. */
const CONFIG_KEYS = ['agent_name', 'agent_welcome_message', 'webhook_url', 'agent_type', 'tasks'] as const;

/** The agent's whole config as a PUT body: what the agent is now, so that saving it unchanged changes nothing. */
export function replaceDocument(agent: Agent): AgentReplaceBody {
  const source = agent as Record<string, unknown>;
  const config: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const value = source[key];
    // A copy: the editor's document must never share objects with the agent as read.
    if (value !== undefined && value !== null) config[key] = structuredClone(value);
  }
  const prompts = Object.fromEntries(
    Object.entries(agent.agent_prompts ?? {}).map(([key, prompt]) => [key, { system_prompt: prompt.system_prompt ?? '' }]),
  );
  return { agent_config: config as AgentReplaceBody['agent_config'], agent_prompts: prompts };
}

/** A copy of the agent to create: its whole config under a new name. */
export function duplicateDocument(agent: Agent): AgentCreateBody {
  const { agent_config, agent_prompts } = replaceDocument(agent);
  return { agent_config: { ...agent_config, agent_name: t('agents_copyOf', agent.agent_name || agent.id) }, agent_prompts };
}

/** A small agent to start from: one conversation task with the three stages of a pipeline. */
export function agentTemplate(): AgentCreateBody {
  return {
    agent_config: {
      agent_name: 'New agent',
      agent_welcome_message: 'Hello, this is an automated assistant. How can I help?',
      agent_type: 'other',
      tasks: [
        {
          task_type: 'conversation',
          tools_config: {
            llm_agent: { model: 'gpt-4o-mini', provider: 'openai', family: 'openai', agent_flow_type: 'streaming', max_tokens: 150, temperature: 0.2 },
            synthesizer: { provider: 'polly', provider_config: { voice: 'Joanna', engine: 'neural', language: 'en-US' }, stream: true },
            transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en', stream: true },
            input: { provider: 'twilio', format: 'wav' },
            output: { provider: 'twilio', format: 'wav' },
          },
          toolchain: { execution: 'parallel', pipelines: [['transcriber', 'llm', 'synthesizer']] },
          task_config: { hangup_after_silence: 10 },
        },
      ],
    },
    agent_prompts: { task_1: { system_prompt: 'You are a helpful assistant. Keep answers short.' } },
  };
}

export const documentText = (document: unknown): string => JSON.stringify(document, null, 2);

export type Checked<T> = { ok: true; body: T } | { ok: false; problems: string[] };

/** `agent_config.tasks[0].task_type` */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

type Issue = z.core.$ZodIssue;

/** A record key's issue carries the key's own problem inside: that one says what is wrong. */
function unwrap(issue: Issue): { path: PropertyKey[]; message: string } {
  if (issue.code === 'invalid_key' && issue.issues[0]) {
    const inner = unwrap(issue.issues[0]);
    return { path: [...issue.path, ...inner.path], message: inner.message };
  }
  return { path: issue.path, message: issue.message };
}

function issueLines(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const { path, message } = unwrap(issue);
    const where = issuePath(path);
    return where ? `${where}: ${message}` : message;
  });
}

function check<T>(schema: z.ZodType<T>, text: string): Checked<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [t('agents_notJson', error instanceof Error ? error.message : String(error))] };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, problems: issueLines(parsed.error) };
}

/** Checks a PUT document with the schema the client sends with. */
export const checkReplaceDocument = (text: string): Checked<AgentReplaceBody> => check(agentReplaceBody as z.ZodType<AgentReplaceBody>, text);
/** Checks a POST document with the schema the client sends with. */
export const checkCreateDocument = (text: string): Checked<AgentCreateBody> => check(agentCreateBody as z.ZodType<AgentCreateBody>, text);
