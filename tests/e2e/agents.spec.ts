/** The side panel's Agents section against the real sandbox: view, edit (PATCH), replace (PUT), create, delete. */
import { expectAxeClean } from './axe';
import type { Page } from '@playwright/test';
import { test, expect, setUp } from './fixtures';
import { SEED } from '../../sandbox/seed';
import type { Sandbox } from '../../sandbox/server';
import { call } from '../../sandbox/testing';

const SALES = SEED.A.agents.sales;
const SALES_NAME = 'Sales outreach (Acme Solar)';

async function agentsPanel(openPage: (p: string) => Promise<Page>, url: string, agentId = SALES): Promise<Page> {
  const options = await openPage('options.html');
  await setUp(options, url);
  await options.close();
  const panel = await openPage('sidepanel.html');
  await panel.getByRole('tab', { name: 'Agents' }).click();
  const picker = section(panel).getByLabel('Agent', { exact: true });
  await expect(picker.locator(`option[value="${agentId}"]`)).toBeAttached();
  await picker.selectOption(agentId);
  await expect(section(panel).getByRole('heading', { level: 3 })).toBeVisible();
  return panel;
}

const section = (panel: Page) => panel.getByRole('region', { name: 'Agents' });

/** The agent-write requests the sandbox answered (method, path, JSON body as sent). */
async function writes(sandbox: Sandbox, method: string): Promise<{ path: string; status: number; body?: unknown }[]> {
  const res = await fetch(`${sandbox.url}/__sandbox/requests?method=${method}&path=${encodeURIComponent('agent')}`);
  return res.json();
}

const expectNoSeriousViolations = (panel: Page) => expectAxeClean(panel, { include: '.agents-section' });

test('view: the chosen agent in full, read with GET /v2/agent/{id}; axe finds nothing serious', async ({ sandbox, openPage }) => {
  const panel = await agentsPanel(openPage, sandbox.url);
  const s = section(panel);
  await expect(s.getByRole('heading', { level: 3, name: SALES_NAME })).toBeVisible();
  await expect(s.getByLabel('Agent details').getByText('lead_qualification', { exact: true })).toBeVisible();
  await expect(s.getByLabel('Agent details').getByText('processed', { exact: true })).toBeVisible();
  await expect(s.getByText(/Do you have a minute to talk about solar panels/)).toBeVisible();
  await expect(s.getByLabel('Pipeline 1')).toHaveText('Transcriber → LLM → Synthesizer');
  await s.getByText('Synthesizer settings').click();
  await expect(s.getByRole('definition').filter({ hasText: /^Joanna$/ })).toBeVisible();
  await expect(s.getByText('politics', { exact: true })).toBeVisible();
  await expect(s.getByText(/Utterances: Who should I vote for\?/)).toBeVisible();
  await expect(s.getByLabel('Call behaviour of task 1').getByText('hangup_after_silence')).toBeVisible();
  await expect(s.getByText(/You are Ava, a friendly sales assistant/)).toBeVisible();
  const reads = await (await fetch(`${sandbox.url}/__sandbox/requests?method=GET&path=${encodeURIComponent(`^/v2/agent/${SALES}$`)}`)).json();
  expect(reads.length).toBeGreaterThan(0);
  await expectNoSeriousViolations(panel);
});

test('edit: the diff lists old → new, the PATCH carries exactly the change, the view shows it', async ({ sandbox, openPage }) => {
  const panel = await agentsPanel(openPage, sandbox.url);
  const s = section(panel);
  await s.getByRole('button', { name: 'Edit' }).click();
  const form = s.getByRole('form', { name: 'Edit agent' });
  await form.getByLabel('Welcome message').fill('Hi, Ava here from Acme Solar.');
  await form.getByLabel('Webhook URL').fill('https://hooks.example.test/agent');
  await form.getByLabel('Synthesizer voice').fill('Matthew');
  // A bad webhook is refused before anything is sent, and what was typed stays.
  await form.getByLabel('Webhook URL').fill('not a url');
  await form.getByRole('button', { name: 'Review changes' }).click();
  await expect(form.getByRole('alert')).toContainText('agent_config.webhook_url');
  await expect(form.getByLabel('Welcome message')).toHaveValue('Hi, Ava here from Acme Solar.');
  await form.getByLabel('Webhook URL').fill('https://hooks.example.test/agent');
  await form.getByRole('button', { name: 'Review changes' }).click();

  await expect(form.getByRole('heading', { name: 'These 3 changes will be saved' })).toBeFocused();
  const diff = form.getByRole('list', { name: 'Changes to save' });
  await expect(diff.getByRole('listitem')).toHaveCount(3);
  await expect(diff.getByRole('listitem').nth(0)).toContainText('Welcome message');
  await expect(diff.getByRole('listitem').nth(0)).toContainText('Do you have a minute to talk about solar panels');
  await expect(diff.getByRole('listitem').nth(0)).toContainText('Hi, Ava here from Acme Solar.');
  await expect(diff.getByRole('listitem').nth(1)).toContainText('(none)');
  await expect(diff.getByRole('listitem').nth(2)).toContainText(/Synthesizer voice.*Joanna.*Matthew/s);
  await expect(await writes(sandbox, 'PATCH')).toEqual([]);
  await expectNoSeriousViolations(panel);

  const synthesizer = (await call(sandbox.url, 'GET', `/v2/agent/${SALES}`)).body.tasks[0].tools_config.synthesizer;
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(s.getByRole('status')).toHaveText('Your changes were saved.');
  const [patch, ...more] = await writes(sandbox, 'PATCH');
  expect(more).toEqual([]);
  expect(patch).toMatchObject({ path: `/v2/agent/${SALES}`, status: 200 });
  expect(patch!.body).toEqual({
    agent_config: {
      agent_welcome_message: 'Hi, Ava here from Acme Solar.',
      webhook_url: 'https://hooks.example.test/agent',
      synthesizer: { ...synthesizer, provider_config: { ...synthesizer.provider_config, voice: 'Matthew' } },
    },
  });
  await expect(s.getByText('Hi, Ava here from Acme Solar.')).toBeVisible();
  await expect(s.getByText('https://hooks.example.test/agent')).toBeVisible();
  await expect(s.getByRole('heading', { level: 3, name: SALES_NAME })).toBeVisible();
});

test('replace: a bad document is refused before sending, naming the path, and keeps the text; a good one is PUT', async ({ sandbox, openPage }) => {
  const panel = await agentsPanel(openPage, sandbox.url);
  const s = section(panel);
  await s.getByRole('button', { name: 'Replace from JSON' }).click();
  await expect(s.getByText(/anything left out of the document is dropped/)).toBeVisible();
  const editor = s.getByLabel('Agent JSON');
  const prefilled = JSON.parse(await editor.inputValue());
  expect(prefilled.agent_config.agent_name).toBe(SALES_NAME);
  expect(prefilled.agent_prompts.task_1.system_prompt).toMatch(/You are Ava/);

  const bad = structuredClone(prefilled);
  bad.agent_config.tasks[0].task_config.hangup_after_silence = 'ten seconds';
  const badText = JSON.stringify(bad, null, 2);
  await editor.fill(badText);
  await s.getByRole('button', { name: 'Replace configuration' }).click();
  await expect(s.getByRole('alert')).toContainText('agent_config.tasks[0].task_config.hangup_after_silence');
  await expect(editor).toHaveValue(badText);
  await editor.fill('{ "agent_config": ');
  await s.getByRole('button', { name: 'Replace configuration' }).click();
  await expect(s.getByRole('alert')).toContainText('This is not valid JSON');
  expect(await writes(sandbox, 'PUT')).toEqual([]);
  await expectNoSeriousViolations(panel);

  const good = structuredClone(prefilled);
  good.agent_config.agent_welcome_message = 'Replaced welcome.';
  await editor.fill(JSON.stringify(good));
  await s.getByRole('button', { name: 'Replace configuration' }).click();
  await expect(s.getByRole('status')).toHaveText('The agent’s configuration was replaced.');
  const puts = await writes(sandbox, 'PUT');
  expect(puts.map((p) => [p.path, p.status])).toEqual([[`/v2/agent/${SALES}`, 200]]);
  expect(puts[0]!.body).toEqual(good);
  await expect(s.getByText('Replaced welcome.')).toBeVisible();
});

test('create by duplicating: the copy joins the list and is chosen; delete asks, naming it, and it leaves the list', async ({ sandbox, openPage }) => {
  const panel = await agentsPanel(openPage, sandbox.url);
  const s = section(panel);
  const picker = s.getByLabel('Agent', { exact: true });
  await s.getByRole('button', { name: 'Duplicate' }).click();
  const editor = s.getByLabel('Agent JSON');
  expect(JSON.parse(await editor.inputValue()).agent_config.agent_name).toBe(`Copy of ${SALES_NAME}`);
  await s.getByRole('button', { name: 'Create agent' }).click();
  await expect(s.getByRole('status')).toHaveText(`The agent “Copy of ${SALES_NAME}” was created and is now chosen.`);
  const [post] = await writes(sandbox, 'POST');
  expect(post).toMatchObject({ path: '/v2/agent', status: 201 });
  const copyId = (await picker.inputValue()) as string;
  expect(copyId).not.toBe(SALES);
  await expect(picker.locator('option:checked')).toHaveText(`Copy of ${SALES_NAME}`);
  await expect(s.getByRole('heading', { level: 3, name: `Copy of ${SALES_NAME}` })).toBeVisible();

  await s.getByRole('button', { name: 'Delete' }).click();
  const dialog = s.getByRole('alertdialog');
  await expect(dialog).toContainText(`Delete the agent “Copy of ${SALES_NAME}”?`);
  await expect(dialog).toContainText(copyId);
  await expectNoSeriousViolations(panel);
  // By keyboard: focus starts on Cancel, Escape cancels and focus returns to Delete.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await panel.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(s.getByRole('button', { name: 'Delete' })).toBeFocused();
  expect(await writes(sandbox, 'DELETE')).toEqual([]);

  await s.getByRole('button', { name: 'Delete' }).click();
  await s.getByRole('alertdialog').getByRole('button', { name: 'Delete agent' }).click();
  await expect(s.getByRole('status')).toHaveText(`The agent “Copy of ${SALES_NAME}” was deleted.`);
  expect((await writes(sandbox, 'DELETE')).map((d) => [d.path, d.status])).toEqual([[`/v2/agent/${copyId}`, 200]]);
  await expect(picker.locator(`option[value="${copyId}"]`)).toHaveCount(0);
  await expect(picker).toHaveValue('');
  expect((await call(sandbox.url, 'GET', `/v2/agent/${copyId}`)).status).toBe(404);
});

test('a refusal from the service is shown, and drafts are kept when moving between sections', async ({ sandbox, openPage }) => {
  const panel = await agentsPanel(openPage, sandbox.url);
  const s = section(panel);
  await s.getByRole('button', { name: 'New agent' }).click();
  const editor = s.getByLabel('Agent JSON');
  const doc = JSON.parse(await editor.inputValue());
  doc.agent_config.agent_name = 'Refused agent';
  const text = JSON.stringify(doc, null, 2);
  await editor.fill(text);
  await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'POST', path: '^/v2/agent$', status: 400, body: { error: 400, message: 'agent_type is not allowed here' } }),
  });
  await s.getByRole('button', { name: 'Create agent' }).click();
  await expect(s.getByRole('alert')).toContainText('agent_type is not allowed here');
  await expect(editor).toHaveValue(text);
  // Moving away, even to another section, and back keeps the drafts.
  await s.getByRole('button', { name: 'Close' }).click();
  await s.getByRole('button', { name: 'Edit' }).click();
  await s.getByLabel('Welcome message').fill('A welcome not saved yet.');
  await panel.getByRole('tab', { name: 'Calls' }).click();
  await panel.getByRole('tab', { name: 'Agents' }).click();
  await expect(s.getByText('Your unsaved edits of this agent are kept: press Edit to return to them.')).toBeVisible();
  await expect(s.getByText('Your unsent new agent is kept: press New agent to return to it.')).toBeVisible();
  await s.getByRole('button', { name: 'Edit' }).click();
  await expect(s.getByLabel('Welcome message')).toHaveValue('A welcome not saved yet.');
  await s.getByRole('button', { name: 'New agent' }).click();
  await expect(s.getByLabel('Agent JSON')).toHaveValue(text);
  expect((await writes(sandbox, 'PATCH')).length).toBe(0);
});
