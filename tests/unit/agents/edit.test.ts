import { describe, expect, it } from 'vitest';
import { agentChanges, editsFrom, patchBody, type AgentEdits } from '../../../lib/agents/edit';
import { agent as agentSchema, agentPatchBody, type Agent } from '../../../lib/api/schemas/agent';
import { sampleTask } from '../../../sandbox/seed';

const ID = 'a1a1a1a1-0000-4000-8000-000000000001';

function agentWith(overrides: Record<string, unknown> = {}): Agent {
  return agentSchema.parse({
    id: ID,
    agent_name: 'Sales',
    agent_welcome_message: 'Hello!',
    webhook_url: null,
    tasks: [sampleTask({ voice: 'Joanna' })],
    agent_prompts: { task_1: { system_prompt: 'Sell.' } },
    ...overrides,
  });
}

function edit(agent: Agent, change: (e: AgentEdits) => void) {
  const before = editsFrom(agent);
  const after: AgentEdits = structuredClone(before);
  change(after);
  const changes = agentChanges(before, after);
  return { changes, body: patchBody(agent, changes) };
}

describe('the edit form of an agent', () => {
  it('starts from the agent as read, with "" for what is missing (a live agent without a welcome or prompts)', () => {
    const bare = agentSchema.parse({ id: ID, agent_name: null, tasks: [{ task_type: 'conversation' }] });
    expect(editsFrom(bare)).toEqual({
      agent_name: '',
      agent_welcome_message: '',
      webhook_url: '',
      synthesizer: { provider: '', voice: '', engine: '', language: '' },
      prompts: { task_1: '' },
    });
    expect(editsFrom(agentWith()).synthesizer.voice).toBe('Joanna');
  });

  it('nothing changed: no changes and no PATCH body', () => {
    const { changes, body } = edit(agentWith(), () => undefined);
    expect(changes).toEqual([]);
    expect(body).toBeNull();
  });

  it('a changed name is the only thing sent', () => {
    const { changes, body } = edit(agentWith(), (e) => (e.agent_name = 'Sales v2'));
    expect(changes).toEqual([{ path: 'agent_config.agent_name', label: 'Name', before: 'Sales', after: 'Sales v2' }]);
    expect(body).toEqual({ agent_config: { agent_name: 'Sales v2' } });
  });

  it('whitespace around a name or URL is not a change', () => {
    const { changes } = edit(agentWith({ webhook_url: 'https://hooks.example/a' }), (e) => {
      e.agent_name = '  Sales ';
      e.webhook_url = ' https://hooks.example/a';
    });
    expect(changes).toEqual([]);
  });

  it('a webhook set, and a webhook cleared (sent as null, as the spec allows on PATCH)', () => {
    const set = edit(agentWith(), (e) => (e.webhook_url = 'https://hooks.example/new'));
    expect(set.changes).toEqual([{ path: 'agent_config.webhook_url', label: 'Webhook URL', before: null, after: 'https://hooks.example/new' }]);
    expect(set.body).toEqual({ agent_config: { webhook_url: 'https://hooks.example/new' } });
    const cleared = edit(agentWith({ webhook_url: 'https://hooks.example/a' }), (e) => (e.webhook_url = ''));
    expect(cleared.body).toEqual({ agent_config: { webhook_url: null } });
    expect(agentPatchBody.safeParse(cleared.body).success).toBe(true);
  });

  it('a changed prompt sends that prompt only; other prompts stay out', () => {
    const agent = agentWith({ agent_prompts: { task_1: { system_prompt: 'Sell.' }, task_2: { system_prompt: 'Follow up.' } } });
    const { changes, body } = edit(agent, (e) => (e.prompts.task_2 = 'Follow up kindly.'));
    expect(changes.map((c) => c.path)).toEqual(['agent_prompts.task_2.system_prompt']);
    expect(body).toEqual({ agent_prompts: { task_2: { system_prompt: 'Follow up kindly.' } } });
  });

  it('a synthesizer setting sends the synthesizer whole, with only that setting changed', () => {
    const agent = agentWith();
    const before = structuredClone(agent.tasks![0]!.tools_config!.synthesizer!) as Record<string, unknown>;
    const { changes, body } = edit(agent, (e) => (e.synthesizer.voice = 'Matthew'));
    expect(changes).toEqual([
      { path: 'agent_config.synthesizer.provider_config.voice', label: 'Synthesizer voice', before: 'Joanna', after: 'Matthew' },
    ]);
    const sent = body!.agent_config!.synthesizer as Record<string, unknown>;
    expect(sent).toEqual({ ...before, provider_config: { ...(before.provider_config as object), voice: 'Matthew' } });
    expect(Object.keys(body!)).toEqual(['agent_config']);
    expect(Object.keys(body!.agent_config!)).toEqual(['synthesizer']);
    // The agent as read is not changed by building the body.
    expect(agent.tasks![0]!.tools_config!.synthesizer).toEqual(before);
  });

  it('a cleared synthesizer setting is left out of the synthesizer sent', () => {
    const { body } = edit(agentWith(), (e) => (e.synthesizer.engine = ''));
    const config = (body!.agent_config!.synthesizer as { provider_config: Record<string, unknown> }).provider_config;
    expect('engine' in config).toBe(false);
    expect(config.voice).toBe('Joanna');
  });

  it('an agent without a synthesizer gets one made of what was typed', () => {
    const agent = agentWith({ tasks: [{ task_type: 'conversation' }] });
    const { body } = edit(agent, (e) => {
      e.synthesizer.provider = 'elevenlabs';
      e.synthesizer.voice = 'Rachel';
    });
    expect(body).toEqual({ agent_config: { synthesizer: { provider: 'elevenlabs', provider_config: { voice: 'Rachel' } } } });
  });

  it('several changes: each listed old → new, all sent together and nothing else', () => {
    const { changes, body } = edit(agentWith(), (e) => {
      e.agent_welcome_message = 'Hi there!';
      e.prompts.task_1 = 'Sell politely.';
      e.synthesizer.provider = 'elevenlabs';
    });
    expect(changes.map((c) => [c.label, c.before, c.after])).toEqual([
      ['Welcome message', 'Hello!', 'Hi there!'],
      ['Synthesizer provider', 'polly', 'elevenlabs'],
      ['Prompt (task_1)', 'Sell.', 'Sell politely.'],
    ]);
    expect(body!.agent_prompts).toEqual({ task_1: { system_prompt: 'Sell politely.' } });
    expect(Object.keys(body!.agent_config!).sort()).toEqual(['agent_welcome_message', 'synthesizer']);
    expect(agentPatchBody.safeParse(body).success).toBe(true);
  });

  it('an emptied name is a change the PATCH schema refuses, naming the field', () => {
    const { body } = edit(agentWith(), (e) => (e.agent_name = ' '));
    const parsed = agentPatchBody.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['agent_config', 'agent_name']);
  });
});
