/**
 * Agent test plans in the side panel, on the production build against the real sandbox: a plan of 6
 * cases written in the editor (passing, failing on a field, failing on status, busy on purpose — the
 * sandbox's persona rules and numbers-by-outcome), run as one batch by the background through a
 * worker stop, judged, opened, exported; "Save as test case" from a finished call; axe on the section.
 */
import { readFile } from 'node:fs/promises';
import { expectAxeClean } from './axe';
import type { Locator, Page } from '@playwright/test';
import { parseStringPromise } from 'xml2js';
import { test, expect, setUp, sandboxRequests, stopServiceWorker } from './fixtures';
import { SEED } from '../../sandbox/seed';

// Slow enough that the worker is stopped before any call starts (2 min 15 s lead / 20 ≈ 7 s).
test.use({ sandboxOptions: { speed: 20 } });

const AGENT = SEED.A.agents.sales;

interface CaseInput {
  label: string;
  number: string;
  status?: string;
  variables?: Record<string, string>;
  checks?: { field: string; check: string; value?: string }[];
  contains?: string;
}

const CASES: CaseInput[] = [
  { label: 'Callback booked', number: '+14155550301', status: 'completed', variables: { intent: 'callback' }, checks: [{ field: 'interested', check: 'equals', value: 'true' }] },
  { label: 'Polite decline', number: '+14155550302', variables: { intent: 'decline' }, checks: [{ field: 'interested', check: 'equals', value: 'false' }], contains: "I'm not interested" },
  { label: 'Decline judged as interest', number: '+14155550303', variables: { intent: 'decline' }, checks: [{ field: 'interested', check: 'equals', value: 'true' }] },
  { label: 'No answer expected to complete', number: '+14155551002', status: 'completed' },
  { label: 'Busy on purpose', number: '+14155551001', status: 'busy' },
  { label: 'Callback time asked', number: '+14155550306', variables: { intent: 'callback', callback_time: 'Friday at 3pm', name: 'Ann' }, checks: [{ field: 'callback_time', check: 'contains', value: 'friday' }, { field: 'customer_name', check: 'present' }] },
];

async function openPlans(openPage: (p: string) => Promise<Page>, url: string): Promise<Page> {
  const options = await openPage('options.html');
  await setUp(options, url);
  await options.close();
  const panel = await openPage('sidepanel.html?section=plans');
  const picker = panel.getByRole('region', { name: 'Test plans' }).getByLabel('Agent', { exact: true });
  await expect(picker.locator(`option[value="${AGENT}"]`)).toBeAttached();
  await picker.selectOption(AGENT);
  return panel;
}

async function fillCase(group: Locator, c: CaseInput): Promise<void> {
  await group.getByLabel('Case label').fill(c.label);
  await group.getByLabel('Number to call').fill(c.number);
  if (c.status) await group.getByLabel('Expected status').selectOption(c.status);
  for (const [name, value] of Object.entries(c.variables ?? {})) {
    await group.getByRole('button', { name: 'Add variable' }).click();
    await group.getByLabel('Variable name').last().fill(name);
    await group.getByLabel('Variable value').last().fill(value);
  }
  for (const check of c.checks ?? []) {
    await group.getByRole('button', { name: 'Add extracted data check' }).click();
    await group.getByLabel('Field', { exact: true }).last().fill(check.field);
    await group.getByLabel('Check', { exact: true }).last().selectOption(check.check);
    if (check.value !== undefined) await group.getByLabel('Expected value').last().fill(check.value);
  }
  if (c.contains) await group.getByLabel('Transcript contains (one phrase per line)').fill(c.contains);
}

const row = (results: Locator, label: string) => results.getByRole('row', { name: new RegExp(`^${label}`) });

test('a plan of 6 cases written in the editor runs as one batch through a worker stop, and its verdicts, calls and JUnit export hold', async ({
  sandbox,
  context,
  openPage,
}) => {
  test.setTimeout(240_000);
  const panel = await openPlans(openPage, sandbox.url);
  await panel.getByRole('button', { name: 'New plan' }).click();
  const editor = panel.getByRole('form', { name: 'Plan editor' });
  await editor.getByLabel('Plan name').fill('Sales regression');
  for (let i = 0; i < CASES.length; i++) {
    if (i > 0) await editor.getByRole('button', { name: 'Add case' }).click();
    await fillCase(editor.getByRole('group', { name: `Case ${i + 1}`, exact: true }), CASES[i]!);
  }
  // A wrong number: refused by place, everything typed stays.
  const sixth = editor.getByRole('group', { name: 'Case 6', exact: true });
  await sixth.getByLabel('Number to call').fill('555');
  await editor.getByRole('button', { name: 'Save plan' }).click();
  await expect(editor.getByRole('alert')).toContainText('Case 6 (Callback time asked), contact_number');
  await expect(editor.getByRole('group', { name: 'Case 2', exact: true }).getByLabel('Variable value')).toHaveValue('decline');
  await expect(sixth.getByLabel('Expected value').first()).toHaveValue('friday');
  await sixth.getByLabel('Number to call').fill(CASES[5]!.number);
  await editor.getByRole('button', { name: 'Save plan' }).click();

  const plan = panel.getByRole('region', { name: 'Plan Sales regression' });
  await expect(plan.getByRole('listitem')).toHaveCount(6);
  await plan.getByRole('button', { name: 'Run plan' }).click();
  const confirm = plan.getByRole('region', { name: 'Confirm the run' });
  await expect(confirm).toContainText('This places 6 real calls');
  for (const c of CASES) await expect(confirm.getByText(c.number, { exact: true })).toBeVisible();
  await expect(confirm).toContainText(/Estimated cost: \$\d/);
  await expect(confirm).toContainText(/The calls start at/);
  await confirm.getByRole('button', { name: 'Place 6 calls' }).click();

  // Stopped once the batch is scheduled, before any call starts: the run's state is in IndexedDB.
  await expect.poll(async () => (await sandboxRequests(sandbox)).some((r) => r.method === 'POST' && /schedule/.test(r.path) && r.status < 300)).toBe(true);
  await stopServiceWorker(context, panel);

  const results = plan.getByRole('region', { name: 'Run results' });
  await expect(results.getByText(/^Verdict:/)).toHaveText('Verdict: Fail. 4 passed, 2 failed, 0 in error.', { timeout: 120_000 });
  const expected = ['Pass', 'Pass', 'Fail', 'Fail', 'Pass', 'Pass'];
  for (let i = 0; i < CASES.length; i++) await expect(row(results, CASES[i]!.label).getByRole('cell').first()).toHaveText(expected[i]!);
  await expect(row(results, 'Busy on purpose')).toContainText('busy');

  // One batch of six rows, each execution read in full once.
  const requests = await sandboxRequests(sandbox);
  expect(requests.filter((r) => r.method === 'POST' && r.path === '/batches')).toHaveLength(1);
  const fullReads = requests.filter((r) => r.method === 'GET' && /^\/(v2\/)?executions?\/[^/]+$/.test(r.path));
  expect(new Set(fullReads.map((r) => r.path)).size).toBe(6);

  // The failing field, expected beside actual.
  await results.getByText('Decline judged as interest: Fail').click();
  const failed = results.getByRole('table', { name: 'Expectations of Decline judged as interest' });
  await expect(failed.getByRole('row', { name: /extracted\.interested equals/ })).toContainText('equals true');
  await expect(failed.getByRole('row', { name: /extracted\.interested equals/ })).toContainText('false');
  await expect(failed.getByRole('row', { name: /extracted\.interested equals/ })).toContainText('Does not hold');

  const [download] = await Promise.all([panel.waitForEvent('download'), results.getByRole('button', { name: 'Download JUnit XML' }).click()]);
  const xml = await parseStringPromise(await readFile((await download.path())!, 'utf8'), { strict: true });
  const suite = xml.testsuites.testsuite[0];
  expect(suite.testcase).toHaveLength(6);
  expect(suite.$).toMatchObject({ tests: '6', failures: '2', errors: '0' });
  expect(suite.testcase.filter((t: { failure?: unknown }) => t.failure).map((t: { $: { name: string } }) => t.$.name)).toEqual([
    'case-3: Decline judged as interest',
    'case-4: No answer expected to complete',
  ]);

  await expectAxeClean(panel);

  await results.getByRole('button', { name: 'Open call of Callback booked' }).click();
  const details = panel.getByRole('region', { name: 'Execution details' });
  await expect(details).toBeVisible();
  await expect(details.getByRole('region', { name: 'Transcript' })).toBeVisible();
});

test('"Save as test case" on a finished call opens its case in the plan editor, to adjust and save', async ({ sandbox, openPage }) => {
  const options = await openPage('options.html');
  await setUp(options, sandbox.url);
  await options.close();
  const popup = await openPage('popup.html');
  await popup.getByLabel('Agent').selectOption(AGENT);
  await popup.getByLabel('Phone number').fill('+14155552671');
  await popup.getByRole('button', { name: 'Call' }).click();
  await popup.getByRole('button', { name: 'Confirm' }).click();
  await expect(popup.locator('.call-status')).toHaveText(/Completed/, { timeout: 60_000 });

  const panel = await openPage('sidepanel.html');
  await panel.getByRole('button', { name: 'Save as test case' }).click();
  const editor = panel.getByRole('form', { name: 'Plan editor' });
  await expect(editor.getByRole('status').first()).toContainText('The call became case 1 of Cases from calls');
  const made = editor.getByRole('group', { name: 'Case 1', exact: true });
  await expect(made.getByLabel('Number to call')).toHaveValue('+14155552671');
  await expect(made.getByLabel('Expected status')).toHaveValue('completed');
  await expect(made.getByLabel('Field', { exact: true }).first()).not.toHaveValue('');
  // The caller's lines of the call are offered as the start of a caller script.
  await expect(made.getByLabel(/^Caller script/)).toHaveValue(/^say: Yes, I have a moment\. Who's calling\?\nsay: /);
  await made.getByLabel('Case label').fill('Happy path from a real call');
  await editor.getByRole('button', { name: 'Save plan' }).click();
  const plan = panel.getByRole('region', { name: 'Plan Cases from calls' });
  await expect(plan.getByRole('listitem')).toHaveText([/Happy path from a real call/]);
});

test('a plan file that does not pass is refused with its problems, its text kept to fix and check again; the editor passes axe', async ({ sandbox, openPage }) => {
  const panel = await openPlans(openPage, sandbox.url);
  const bad = JSON.stringify({ format: 'voice-agent-test-plan', version: 1, name: 'Imported', agent_id: AGENT, cases: [{ id: 'a', label: 'A', contact_number: '555' }] });
  await panel.getByLabel('Import a plan file').setInputFiles({ name: 'plan.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
  await expect(panel.getByRole('alert')).toContainText('cases[0].contact_number');
  const text = panel.getByLabel("The file's text (fix it here and check it again)");
  await expect(text).toHaveValue(bad);
  await text.fill(bad.replace('"555"', '"+14155550123"'));
  await panel.getByRole('button', { name: 'Check again' }).click();
  const editor = panel.getByRole('form', { name: 'Plan editor' });
  await expect(editor.getByLabel('Plan name')).toHaveValue('Imported');
  // The editor, like the results, passes axe.
  await expectAxeClean(panel);
  await editor.getByRole('button', { name: 'Save plan' }).click();
  await expect(panel.getByRole('region', { name: 'Plan Imported' })).toBeVisible();
});

test('a run stopped from the panel is judged on what finished; a second run compares side by side with it', async ({ sandbox, openPage }) => {
  test.setTimeout(240_000);
  const panel = await openPlans(openPage, sandbox.url);
  const file = {
    format: 'voice-agent-test-plan',
    version: 1,
    name: 'Stop and compare',
    agent_id: AGENT,
    cases: [
      { id: 'quick', label: 'Quick callback', contact_number: '+14155550501', variables: { intent: 'callback' }, expect: { status: 'completed' } },
      { id: 'long', label: 'Long call', contact_number: '+14155551007', expect: { status: 'completed' } },
    ],
  };
  await panel.getByLabel('Import a plan file').setInputFiles({ name: 'stop.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
  await panel.getByRole('form', { name: 'Plan editor' }).getByRole('button', { name: 'Save plan' }).click();
  const plan = panel.getByRole('region', { name: 'Plan Stop and compare' });

  await plan.getByRole('button', { name: 'Run plan' }).click();
  await plan.getByRole('button', { name: 'Place 2 calls' }).click();
  const results = plan.getByRole('region', { name: 'Run results' });
  // The long call is under way (it lasts until stopped): stop the run, confirming.
  await expect(results.getByRole('status')).toContainText('In progress', { timeout: 60_000 });
  await results.getByRole('button', { name: 'Stop run' }).click();
  await expect(results.getByText(/Stop this run of Stop and compare\?/)).toBeVisible();
  await results.getByRole('button', { name: 'Stop the run' }).click();
  await expect(results.getByText(/^Verdict:/)).toHaveText(/^Verdict: (Error|Fail)\./, { timeout: 60_000 });
  await expect(row(results, 'Long call').getByRole('cell').first()).not.toHaveText('Pass');
  expect((await sandboxRequests(sandbox)).some((r) => r.method === 'POST' && /\/batches\/[^/]+\/stop$/.test(r.path))).toBe(true);

  // A second run of the same plan, then the two side by side.
  await plan.getByRole('button', { name: 'Run plan' }).click();
  await plan.getByRole('button', { name: 'Place 2 calls' }).click();
  await expect(plan.getByLabel('Run shown').locator('option')).toHaveCount(2);
  const compare = plan.getByRole('region', { name: 'Compare runs' });
  await expect(compare.getByText(/^Run verdict:/)).toBeVisible({ timeout: 120_000 });
  await expect(compare.getByLabel('Earlier run').locator('option')).toHaveCount(2);
  // The long call, stopped the first time, ran to its end the second: its verdict changed.
  await expect(compare.getByRole('article', { name: 'Changes in Long call' })).toContainText(/Verdict: (Error|Fail) then Pass\./);
});
