/**
 * The Executions and Account sections and call notifications, on the production build against the real sandbox:
 * filters (status, batch, a date range refused past 7 days), paging, the CSV export checked row by row against the
 * sandbox's own list, the wallet balance, the low-balance warning when dialling, and a notification click.
 */
import { expectAxeClean } from './axe';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, sandboxRequests, setUpExtension, callFromPopup } from './fixtures';
import { OWNER_KEY } from '../../sandbox/keys';
import { SEED } from '../../sandbox/seed';
import { call, placeCalls } from '../../sandbox/testing';
import { readCsv } from '../../lib/batches/csv-read';

const A = SEED.A;

async function openExecutions(openPage: (p: string) => Promise<Page>) {
  const panel = await openPage('sidepanel.html');
  await panel.getByRole('tab', { name: 'Executions' }).click();
  const region = panel.getByRole('region', { name: 'Agent executions' });
  const picker = region.getByLabel('Agent');
  await expect(picker.locator(`option[value="${A.agents.sales}"]`)).toBeAttached();
  await picker.selectOption(A.agents.sales);
  return { panel, region };
}

const expectNoSeriousViolations = (page: Page) => expectAxeClean(page);

/** YYYY-MM-DD of a local day `daysAgo` before today (the browser shares this machine's time zone). */
function localDay(daysAgo: number): string {
  const d = new Date();
  d.setDate(d.getDate() - daysAgo);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The file as a spreadsheet reads it (the project's one CSV reader). */
const parseCsv = (text: string): string[][] => readCsv(text, ',').records.map((r) => r.cells);

const executionsRequests = async (sandbox: { url: string }) =>
  (await sandboxRequests(sandbox as never)).filter((r) => r.method === 'GET' && /^\/v2\/agent\/[^/]+\/executions$/.test(r.path));

test.describe('executions of an agent', () => {
  // Slow calls: the placed rows stay `scheduled` for the whole test, so the list does not change under it.
  test.use({ sandboxOptions: { speed: 0.01 } });

  test('filters by status and batch, pages, and refuses a range over 7 days keeping what was typed', async ({ sandbox, openPage }) => {
    const placed = await placeCalls(sandbox.url, A.agents.sales, Array.from({ length: 21 }, (_, i) => ({ contact_number: `+1415555${2600 + i}` })));
    await setUpExtension(openPage, sandbox.url);
    const { panel, region } = await openExecutions(openPage);

    // 21 placed + the seed batch's 3, over the default 7 days.
    await expect(region.getByText('24 executions match.')).toBeVisible();
    await expect(region.getByText('Page 1 of 2')).toBeVisible();
    await expect(region.locator('tbody tr')).toHaveCount(20);
    const first = region.locator('tbody tr').first();
    await expect(first.getByRole('cell').nth(1)).toHaveText(/^\+1415555\d{4}$/);
    await expect(first.getByRole('cell').nth(5)).toHaveText('contacts.csv');
    await region.getByRole('button', { name: 'Next' }).click();
    await expect(region.getByText('Page 2 of 2')).toBeVisible();
    await expect(region.locator('tbody tr')).toHaveCount(4);
    await expect(region.getByRole('button', { name: 'Next' })).toBeDisabled();

    // Status: only the seed's busy call.
    await region.getByLabel('Status').selectOption('busy');
    await region.getByRole('button', { name: 'Apply filters' }).click();
    await expect(region.getByText('1 execution matches.')).toBeVisible();
    await expect(region.locator('tbody tr')).toHaveCount(1);
    await expect(region.locator(`tbody tr[data-execution-id="${A.executions.busy}"]`)).toHaveCount(1);
    await expect(region.locator('tbody tr').getByRole('cell').nth(2)).toHaveText('Busy');
    await expect(region.getByText('Page 1 of 1')).toBeVisible();

    // Batch: the placed batch, every status.
    await region.getByLabel('Status').selectOption('');
    await region.getByLabel('Batch').selectOption(placed.batchId);
    await region.getByRole('button', { name: 'Apply filters' }).click();
    await expect(region.getByText('21 executions match.')).toBeVisible();
    await region.getByLabel('Batch').selectOption(A.batch);
    await region.getByRole('button', { name: 'Apply filters' }).click();
    await expect(region.getByText('3 executions match.')).toBeVisible();
    await expect(region.locator('tbody tr').getByRole('cell').nth(5).first()).toHaveText('leads-week-1.csv');

    // The service was asked with the filter (not filtered here).
    const asked = await executionsRequests(sandbox);
    const log = await (await fetch(`${sandbox.url}/__sandbox/requests?method=GET&path=executions`)).json();
    expect(log.some((r: { query?: string }) => (r.query ?? '').includes('status=busy'))).toBe(true);
    expect(log.some((r: { query?: string }) => (r.query ?? '').includes(`batch_id=${A.batch}`))).toBe(true);

    // 8 days: refused before any request, with the reason; the typed dates stay.
    await region.getByLabel('From').fill(localDay(7));
    await region.getByLabel('To').fill(localDay(0));
    await region.getByRole('button', { name: 'Apply filters' }).click();
    await expect(region.getByRole('alert')).toHaveText(/at most 7 days/);
    await expect(region.getByLabel('From')).toHaveValue(localDay(7));
    await expect(region.getByLabel('From')).toHaveAttribute('aria-invalid', 'true');
    expect((await executionsRequests(sandbox)).length).toBe(asked.length);
    await expect(region.getByText('3 executions match.')).toBeVisible();

    // A window before the seed batch (26 hours ago) holds none of it.
    await region.getByLabel('From').fill(localDay(6));
    await region.getByLabel('To').fill(localDay(3));
    await region.getByRole('button', { name: 'Apply filters' }).click();
    await expect(region.getByText('No executions match these filters.')).toBeVisible();
    await expect(region.getByRole('alert')).toHaveCount(0);

    await expectNoSeriousViolations(panel);
  });

  test('exports every page of the filtered list as CSV, row by row as the service lists them', async ({ sandbox, openPage }) => {
    // 55 + the seed's 3: two export pages of 50.
    await placeCalls(sandbox.url, A.agents.sales, Array.from({ length: 55 }, (_, i) => ({ contact_number: `+1415555${3000 + i}`, name: `Row ${i}` })));
    await setUpExtension(openPage, sandbox.url);
    const { panel, region } = await openExecutions(openPage);
    await expect(region.getByText('58 executions match.')).toBeVisible();

    const before = (await executionsRequests(sandbox)).length;
    await region.getByRole('button', { name: 'Export CSV' }).click();
    await expect(region.getByText('Export ready: 58 executions.')).toBeVisible();
    const exportRequests = (await executionsRequests(sandbox)).slice(before);
    expect(exportRequests).toHaveLength(2);
    const link = region.getByRole('link', { name: /^Download executions-.*\.csv$/ });
    const [download] = await Promise.all([panel.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^executions-.*\.csv$/);
    const rows = parseCsv(readFileSync((await download.path())!, 'utf8'));

    // The sandbox's own list over the same days.
    const expected: Array<Record<string, any>> = [];
    const from = new Date();
    from.setHours(0, 0, 0, 0);
    from.setDate(from.getDate() - 6);
    const to = new Date(from);
    to.setDate(to.getDate() + 7);
    for (let page = 1; page <= 2; page++) {
      const q = new URLSearchParams({ page_number: String(page), page_size: '50', from: from.toISOString(), to: new Date(to.getTime() - 1000).toISOString() });
      const r = await call(sandbox.url, 'GET', `/v2/agent/${A.agents.sales}/executions?${q}`, { key: OWNER_KEY });
      expected.push(...r.body.data);
    }
    expect(expected).toHaveLength(58);
    expect(rows[0]).toEqual(['execution_id', 'created_at', 'to_number', 'from_number', 'status', 'conversation_duration_seconds', 'total_cost_cents', 'batch_id']);
    expect(rows).toHaveLength(59);
    const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    expected.forEach((e, i) => {
      expect(rows[i + 1]).toEqual([
        e.id,
        e.created_at,
        text(e.telephony_data?.to_number),
        text(e.telephony_data?.from_number),
        e.status,
        text(e.conversation_duration),
        text(e.total_cost),
        text(e.batch_id),
      ]);
    });
    await expectNoSeriousViolations(panel);
  });

  test('an export shows its progress and can be cancelled, saving nothing', async ({ sandbox, openPage }) => {
    await setUpExtension(openPage, sandbox.url);
    const { region } = await openExecutions(openPage);
    await expect(region.getByText('3 executions match.')).toBeVisible();
    // The export's first page is held by the sandbox until released: the walk is mid-way, deterministically.
    const armed = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ method: 'GET', path: '^/v2/agent/[^/]+/executions$', delayMs: 120_000, count: 1 }),
    });
    expect(armed.status).toBe(200);
    await region.getByRole('button', { name: 'Export CSV' }).click();
    await expect(region.getByRole('status').filter({ hasText: 'Exporting' })).toHaveText(/Exporting: asking for the first page/);
    await region.getByRole('button', { name: 'Cancel export' }).click();
    await fetch(`${sandbox.url}/__sandbox/faults/release`, { method: 'POST' });
    await expect(region.getByText('The export was cancelled; nothing was saved.')).toBeVisible();
    await expect(region.getByRole('link', { name: /^Download/ })).toHaveCount(0);
    await expect(region.getByRole('button', { name: 'Export CSV' })).toBeVisible();
  });
});

test.describe('account', () => {
  test('the Account section shows the wallet balance and concurrency', async ({ sandbox, openPage }) => {
    await setUpExtension(openPage, sandbox.url);
    const panel = await openPage('sidepanel.html?section=account');
    const region = panel.getByRole('region', { name: 'Account' });
    const money = await panel.evaluate(() => new Intl.NumberFormat(navigator.language, { style: 'currency', currency: 'USD' }).format(1250.75));
    await expect(region.getByTestId('wallet-balance')).toHaveText(money);
    await expect(region.getByText(/0 in progress of at most \d+/)).toBeVisible();
    await expect(region.getByText(/The balance is below/)).toHaveCount(0);

    // A low balance, after Refresh.
    await fetch(`${sandbox.url}/__sandbox/wallet`, { method: 'POST', body: JSON.stringify({ account: 'A', wallet: 1.5 }) });
    await region.getByRole('button', { name: 'Refresh' }).click();
    await expect(region.getByTestId('wallet-balance')).toHaveText(await panel.evaluate(() => new Intl.NumberFormat(navigator.language, { style: 'currency', currency: 'USD' }).format(1.5)));
    await expect(region.getByText(/The balance is below/)).toBeVisible();
    await expectNoSeriousViolations(panel);
  });

  test('a service without GET /user/me is said plainly, not shown as an error', async ({ sandbox, openPage }) => {
    await setUpExtension(openPage, sandbox.url);
    await fetch(`${sandbox.url}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ method: 'GET', path: '^/user/me$', status: 404, count: 5 }) });
    const panel = await openPage('sidepanel.html?section=account');
    const region = panel.getByRole('region', { name: 'Account' });
    await expect(region.getByText(/does not tell its wallet balance/)).toBeVisible();
    await expect(region.getByRole('alert')).toHaveCount(0);
  });

  test('the dial confirmation warns when the balance is below $2, and not otherwise', async ({ sandbox, openPage }) => {
    await setUpExtension(openPage, sandbox.url);
    const dialTo = async () => {
      const popup = await openPage('popup.html');
      await popup.getByLabel('Agent').selectOption({ index: 1 });
      await popup.getByLabel('Phone number').fill('+14155552671');
      await popup.getByRole('button', { name: 'Call' }).click();
      await expect(popup.getByRole('dialog', { name: 'Place this call?' })).toBeVisible();
      return popup;
    };
    const userMeAnswers = async () => (await sandboxRequests(sandbox)).filter((r) => r.path === '/user/me' && r.status === 200).length;

    // Funded: the balance is read, and no warning.
    const seen = await userMeAnswers();
    const funded = await dialTo();
    await expect.poll(userMeAnswers).toBeGreaterThan(seen);
    await expect(funded.getByText(/Low balance/)).toHaveCount(0);
    await funded.close();

    await fetch(`${sandbox.url}/__sandbox/wallet`, { method: 'POST', body: JSON.stringify({ account: 'A', wallet: 1.5 }) });
    const low = await dialTo();
    const warning = low.getByRole('dialog').getByText(/Low balance: the wallet holds .*1\.50.*, below .*2\.00/);
    await expect(warning).toBeVisible();
    await expectNoSeriousViolations(low);
  });
});

test('clicking a call’s notification opens that call (a tab here: no user gesture when the click is dispatched)', async ({ sandbox, openPage, serviceWorker, context }) => {
  await setUpExtension(openPage, sandbox.url);
  const popup = await openPage('popup.html');
  await callFromPopup(popup, '+14155551001', /Busy/);

  // The real notification the call made.
  const sw = await serviceWorker();
  const notificationIds = () => sw.evaluate(async () => Object.keys(await (globalThis as any).chrome.notifications.getAll()));
  await expect.poll(notificationIds).toEqual([expect.stringMatching(/^call-/)]);
  const [notificationId] = await notificationIds();
  const callId = notificationId!.slice('call-'.length);

  // Headless Chromium shows no notification to click: the click event is dispatched to the extension's listener.
  const opened = context.waitForEvent('page', (p) => p.url().includes('sidepanel.html?call='));
  await sw.evaluate((id) => (globalThis as any).chrome.notifications.onClicked.dispatch(id), notificationId!);
  const page = await opened;
  expect(new URL(page.url()).searchParams.get('call')).toBe(callId);
  await expect(page.locator('.call-status')).toHaveText(/Busy/);
  await expect(page.getByText(/4155551001|415-555-1001|415\) 555-1001/).first()).toBeVisible();
  await expect.poll(notificationIds).toEqual([]);
});
