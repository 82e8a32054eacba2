import { describe, expect, it } from 'vitest';
import {
  agentTemplate,
  checkCreateDocument,
  checkReplaceDocument,
  documentText,
  duplicateDocument,
  replaceDocument,
} from '../../../lib/agents/document';
import { taskViews } from '../../../lib/agents/view';
import { agent as agentSchema } from '../../../lib/api/schemas/agent';
import { sampleTask } from '../../../sandbox/seed';

const ID = 'a1a1a1a1-0000-4000-8000-000000000001';
const agent = agentSchema.parse({
  id: ID,
  agent_name: 'Sales',
  agent_type: 'sales',
  agent_status: 'processed',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
  agent_welcome_message: 'Hello!',
  webhook_url: null,
  tasks: [sampleTask()],
  agent_prompts: { task_1: { system_prompt: 'Sell.' } },
  humanized_created_at: 'a year ago',
});

describe('the PUT document', () => {
  it('is the agent’s config and prompts only (no id, status, times or extra read keys), and passes the check as it is', () => {
    const doc = replaceDocument(agent);
    expect(Object.keys(doc.agent_config).sort()).toEqual(['agent_name', 'agent_type', 'agent_welcome_message', 'tasks']);
    expect(doc.agent_prompts).toEqual({ task_1: { system_prompt: 'Sell.' } });
    const checked = checkReplaceDocument(documentText(doc));
    expect(checked).toEqual({ ok: true, body: doc });
  });

  it.each([
    ['not JSON', '{"agent_config": {', /^This is not valid JSON: /],
    ['prompts left out (PUT needs both fields)', '{"agent_config": {"agent_name": "A"}}', /^agent_prompts: /],
    ['a wrong type deep inside', null, /^agent_config\.tasks\[0\]\.task_config\.hangup_after_silence: /],
    ['an unknown key', '{"agent_config": {"agent_name": "A", "colour": "red"}, "agent_prompts": {}}', /^agent_config: .*colour/],
    ['a bad webhook URL', '{"agent_config": {"webhook_url": "not a url"}, "agent_prompts": {}}', /^agent_config\.webhook_url: /],
    ['a prompt key of the wrong form', '{"agent_config": {}, "agent_prompts": {"main": {"system_prompt": "x"}}}', /^agent_prompts\.main: prompt keys look like task_1/],
    ['an array instead of an object', '[]', /expected object/i],
  ])('refuses %s, naming the path', (_name, text, problem) => {
    const doc = replaceDocument(agent) as { agent_config: { tasks: { task_config: Record<string, unknown> }[] } };
    doc.agent_config.tasks[0]!.task_config.hangup_after_silence = 'ten';
    const checked = checkReplaceDocument(text ?? documentText(doc));
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problems[0]).toMatch(problem);
  });

  it('lists every problem, not only the first', () => {
    const checked = checkReplaceDocument('{"agent_config": {"agent_name": 5, "tasks": "none"}}');
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.problems.some((p) => p.startsWith('agent_config.agent_name: '))).toBe(true);
      expect(checked.problems.some((p) => p.startsWith('agent_config.tasks: '))).toBe(true);
      expect(checked.problems.some((p) => p.startsWith('agent_prompts: '))).toBe(true);
    }
  });
});

describe('the POST document', () => {
  it('the template and a duplicate pass the create check; the duplicate is renamed and keeps the config', () => {
    expect(checkCreateDocument(documentText(agentTemplate())).ok).toBe(true);
    const copy = duplicateDocument(agent);
    expect(copy.agent_config.agent_name).toBe('Copy of Sales');
    expect(copy.agent_config.tasks).toEqual(agent.tasks);
    expect(copy.agent_prompts).toEqual({ task_1: { system_prompt: 'Sell.' } });
    expect(checkCreateDocument(documentText(copy))).toMatchObject({ ok: true });
  });

  it('refuses a document without a name', () => {
    const checked = checkCreateDocument('{"agent_config": {"agent_type": "other"}}');
    expect(checked).toEqual({ ok: false, problems: [expect.stringMatching(/^agent_config\.agent_name: /)] });
  });
});

describe('the readable view of tasks', () => {
  it('shows each pipeline stage with its settings, the routes and the call settings', () => {
    const [task] = taskViews(agent);
    expect(task!.key).toBe('task_1');
    expect(task!.pipelines[0]!.map((s) => s.stage)).toEqual(['transcriber', 'llm', 'synthesizer']);
    const llm = task!.pipelines[0]![1]!.settings;
    expect(llm).toContainEqual({ name: 'model', value: 'gpt-4o-mini' });
    expect(llm.some((s) => s.name === 'routes.routes')).toBe(false);
    expect(task!.pipelines[0]![2]!.settings.some((s) => s.name === 'provider_config.voice')).toBe(true);
    expect(task!.routes[0]).toMatchObject({ name: 'politics', scoreThreshold: 0.9 });
    expect(task!.callSettings.length).toBeGreaterThan(0);
  });

  it('reads leniently: no toolchain, odd values, unknown keys', () => {
    const odd = agentSchema.parse({
      id: ID,
      agent_name: 'Odd',
      tasks: [{ tools_config: { transcriber: { provider: 'deepgram', extra: { deep: true } }, synthesizer: { provider: 'x' } }, task_config: { whitelist_phone_numbers: ['+1', '+2'], mystery: null } }],
    });
    const [task] = taskViews(odd);
    expect(task!.pipelines).toEqual([
      [
        { stage: 'transcriber', settings: [{ name: 'provider', value: 'deepgram' }, { name: 'extra.deep', value: 'true' }] },
        { stage: 'synthesizer', settings: [{ name: 'provider', value: 'x' }] },
      ],
    ]);
    expect(task!.callSettings).toEqual([
      { name: 'whitelist_phone_numbers', value: '+1, +2' },
      { name: 'mystery', value: '—' },
    ]);
    expect(taskViews(agentSchema.parse({ id: ID, tasks: null }))).toEqual([]);
  });

  it('numbers are written by the formatter given (the UI passes the browser locale’s)', () => {
    const german = new Intl.NumberFormat('de-DE');
    const [task] = taskViews(agent, (n) => german.format(n));
    const transcriber = task!.pipelines[0]![0]!.settings;
    expect(transcriber).toContainEqual({ name: 'sampling_rate', value: '16.000' });
    expect(task!.pipelines[0]![1]!.settings).toContainEqual({ name: 'temperature', value: '0,2' });
  });
});
