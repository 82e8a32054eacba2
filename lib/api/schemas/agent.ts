import { z } from '../zod';
import { serviceId, timestamp } from './common';

/**
 * Agent configuration shapes (spec 2.1). Built twice from one description: lenient for what the
 * service answers (unknown keys kept), strict for what we send (unknown keys and wrong types refused).
 */
function agentShapes(strict: boolean) {
  const obj = strict ? z.strictObject : z.looseObject;
  const io = obj({ provider: z.string().optional(), format: z.string().optional() });
  const route = obj({
    route_name: z.string(),
    utterances: z.array(z.string()),
    response: z.string().optional(),
    score_threshold: z.number().optional(),
  });
  const llmAgent = obj({
    model: z.string().optional(),
    max_tokens: z.number().int().optional(),
    agent_flow_type: z.string().optional(),
    family: z.string().optional(),
    provider: z.string().optional(),
    base_url: z.string().url().optional(),
    temperature: z.number().optional(),
    request_json: z.boolean().optional(),
    routes: obj({ embedding_model: z.string().optional(), routes: z.array(route).optional() }).optional(),
  });
  const synthesizer = obj({
    provider: z.string().optional(),
    provider_config: obj({
      voice: z.string().optional(),
      engine: z.string().optional(),
      sampling_rate: z.string().optional(),
      language: z.string().optional(),
    }).optional(),
    stream: z.boolean().optional(),
    buffer_size: z.number().int().optional(),
    audio_format: z.string().optional(),
  });
  const transcriber = obj({
    provider: z.string().optional(),
    model: z.string().optional(),
    language: z.string().optional(),
    stream: z.boolean().optional(),
    sampling_rate: z.number().int().optional(),
    encoding: z.string().optional(),
    endpointing: z.number().int().optional(),
  });
  const toolsConfig = obj({
    llm_agent: llmAgent.optional(),
    synthesizer: synthesizer.optional(),
    transcriber: transcriber.optional(),
    input: io.optional(),
    output: io.optional(),
    api_tools: z.record(z.string(), z.unknown()).nullable().optional(),
  });
  const toolchain = obj({
    execution: z.string().optional(),
    pipelines: z.array(z.array(z.string())).optional(),
  });
  const taskConfig = obj({
    hangup_after_silence: z.number().optional(),
    incremental_delay: z.number().optional(),
    number_of_words_for_interruption: z.number().int().optional(),
    hangup_after_LLMCall: z.boolean().optional(),
    call_cancellation_prompt: z.string().nullable().optional(),
    backchanneling: z.boolean().optional(),
    backchanneling_message_gap: z.number().optional(),
    backchanneling_start_delay: z.number().optional(),
    ambient_noise: z.boolean().optional(),
    ambient_noise_track: z.string().optional(),
    call_terminate: z.number().optional(),
    voicemail: z.boolean().optional(),
    inbound_limit: z.number().int().optional(),
    whitelist_phone_numbers: z.array(z.string()).optional(),
    disallow_unknown_numbers: z.boolean().optional(),
  });
  const task = obj({
    task_type: z.string().optional(),
    tools_config: toolsConfig.optional(),
    toolchain: toolchain.optional(),
    task_config: taskConfig.optional(),
  });
  const agentConfig = obj({
    agent_name: z.string().min(1, 'agent_name must not be empty').optional(),
    agent_welcome_message: z.string().optional(),
    webhook_url: z.string().url().nullable().optional(),
    agent_type: z.string().optional(),
    tasks: z.array(task).optional(),
  });
  const prompt = obj({ system_prompt: z.string() });
  // Keys have the form `task_<task_id>`.
  const agentPrompts = z.record(z.string().regex(/^task_\w+$/, 'prompt keys look like task_1'), prompt);
  const ingestSourceConfig = obj({
    source_type: z.string().optional(),
    source_url: z.string().url().optional(),
    source_auth_token: z.string().optional(),
    source_name: z.string().optional(),
  });
  return { route, llmAgent, synthesizer, transcriber, toolsConfig, toolchain, taskConfig, task, agentConfig, agentPrompts, ingestSourceConfig };
}

const read = agentShapes(false);
const write = agentShapes(true);

export const agentTask = read.task;
export const agentConfig = read.agentConfig;
export const agentPrompts = read.agentPrompts;
export const synthesizerConfig = read.synthesizer;
export const ingestSourceConfig = read.ingestSourceConfig;

/** Body of `POST /agent`, `POST /v2/agent` and (both fields required) `PUT /agent/{id}`. */
export const agentCreateBody = z.strictObject({
  agent_config: write.agentConfig.extend({ agent_name: z.string().min(1, 'agent_name is required') }),
  agent_prompts: write.agentPrompts.optional(),
});
export const agentReplaceBody = z.strictObject({
  agent_config: write.agentConfig,
  agent_prompts: write.agentPrompts,
});
/** Body of `PATCH /agent/{id}`: a partial config with the fields the spec lists for PATCH. */
export const agentPatchBody = z.strictObject({
  agent_config: z
    .strictObject({
      agent_name: z.string().min(1).optional(),
      agent_welcome_message: z.string().optional(),
      webhook_url: z.string().url().nullable().optional(),
      synthesizer: write.synthesizer.optional(),
      ingest_source_config: write.ingestSourceConfig.optional(),
    })
    .optional(),
  agent_prompts: write.agentPrompts.optional(),
});

/** Agent read shape (`GET /agent/{id}`, `GET /v2/agent/{id}`, items of `GET /v2/agent/all`). */
export const agent = z.looseObject({
  id: serviceId,
  agent_name: z.string().nullish().transform((name) => name ?? ''),
  agent_type: z.string().nullish(),
  agent_status: z.string().nullish(),
  created_at: timestamp.nullish(),
  updated_at: timestamp.nullish(),
  agent_welcome_message: z.string().nullish(),
  webhook_url: z.string().nullish(),
  tasks: z.array(read.task).nullish(),
  agent_prompts: z.record(z.string(), z.looseObject({ system_prompt: z.string().nullish() })).nullish(),
});
export const agentList = z.array(agent);

/** `POST /agent` answers `{agent_id, status: "created"}`; live v2 answers `{agent_id, state: "created"}`. */
export const agentCreated = z.looseObject({
  agent_id: serviceId,
  status: z.string().optional(),
  state: z.string().optional(),
});
export const agentUpdated = z.looseObject({
  agent_id: serviceId.optional(),
  status: z.string().optional(),
  state: z.string().optional(),
  message: z.string().optional(),
});

export type Agent = z.infer<typeof agent>;
export type AgentCreateBody = z.input<typeof agentCreateBody>;
export type AgentReplaceBody = z.input<typeof agentReplaceBody>;
export type AgentPatchBody = z.input<typeof agentPatchBody>;
export type AgentTask = z.infer<typeof agentTask>;
