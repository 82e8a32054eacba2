/**
 * The side panel's Knowledgebases section on the real sandbox: a page or a PDF (small, and one far over
 * the 64 KB message cap) ingested and followed to processed; a non-PDF refused before any upload; an
 * unreadable PDF followed to error with the service's message; view; delete; axe.
 */
import { expectAxeClean } from './axe';
import type { Page } from '@playwright/test';
import { OWNER_KEY } from '../../sandbox/keys';
import { test, expect, sandboxRequests, setUp } from './fixtures';

/** A real, well-formed PDF (catalog, page, font, content stream, xref table) with `lines` lines of text. */
function makePdf(lines: number): Buffer {
  const text = Array.from({ length: lines }, (_, i) => `BT /F1 10 Tf 40 ${780 - (i % 70) * 11} Td (Line ${i + 1} of the price list.) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function openKnowledgebases(openPage: (p: string) => Promise<Page>, url: string): Promise<Page> {
  const options = await openPage('options.html');
  await setUp(options, url);
  await options.close();
  const panel = await openPage('sidepanel.html?section=knowledgebases');
  await expect(panel.getByRole('table', { name: 'Knowledgebases of this account' })).toBeVisible();
  return panel;
}

const row = (panel: Page, name: string) =>
  panel.getByRole('table', { name: 'Knowledgebases of this account' }).getByRole('row').filter({ has: panel.getByRole('button', { name: `Show details of ${name}`, exact: true }) });

async function serviceRecord(url: string, ragId: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/knowledgebase/${ragId}`, { headers: { Authorization: `Bearer ${OWNER_KEY}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const ingests = async (sandbox: { url: string }) => (await sandboxRequests(sandbox as never)).filter((r) => r.method === 'POST' && r.path === '/knowledgebase');

test('a web page is ingested and followed to processed; its details show the service record', async ({ sandbox, openPage }) => {
  const panel = await openKnowledgebases(openPage, sandbox.url);
  await panel.getByRole('radio', { name: 'A web page' }).check();
  const address = panel.getByLabel('Web page address');
  await address.fill('ftp://example.com/faq');
  await panel.getByRole('button', { name: 'Ingest' }).click();
  await expect(panel.getByRole('alert')).toHaveText(/Only http and https/);
  await expect(address).toHaveValue('ftp://example.com/faq');
  expect(await ingests(sandbox)).toHaveLength(0);

  await address.fill('https://example.com/faq');
  await panel.getByRole('button', { name: 'Ingest' }).click();
  await expect(row(panel, 'https://example.com/faq')).toContainText('Processing');
  await expect(row(panel, 'https://example.com/faq')).toContainText('Processed', { timeout: 20_000 });
  await expect(panel.getByRole('status').filter({ hasText: 'is processed and ready' })).toBeVisible();

  await row(panel, 'https://example.com/faq').getByRole('button', { name: 'Show details of https://example.com/faq' }).click();
  const details = panel.getByRole('region', { name: 'https://example.com/faq' });
  await expect(details).toContainText('Web page');
  await expect(details).toContainText('512'); // the service's default chunk size
  const ragId = (await details.locator('dd.mono').first().textContent())!.trim();
  expect((await serviceRecord(sandbox.url, ragId)).body).toMatchObject({ status: 'processed', source_type: 'url' });
});

for (const [label, lines, minBytes] of [
  ['a small PDF', 3, 0],
  ['a PDF far over the 64 KB message cap', 3000, 150 * 1024],
] as const) {
  test(`${label} is uploaded (through IndexedDB, never in a message) and followed to processed`, async ({ sandbox, openPage }) => {
    const pdf = makePdf(lines);
    expect(pdf.byteLength).toBeGreaterThanOrEqual(minBytes);
    const name = `price-list-${lines}.pdf`;
    const panel = await openKnowledgebases(openPage, sandbox.url);
    await panel.getByLabel('PDF file', { exact: true }).setInputFiles({ name, mimeType: 'application/pdf', buffer: pdf });
    await panel.getByRole('button', { name: 'Ingest' }).click();
    // Processed also proves the upload arrived whole: the sandbox ends a PDF without its %%EOF trailer in error.
    await expect(row(panel, name)).toContainText('Processed', { timeout: 20_000 });
    const posted = await ingests(sandbox);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.status).toBe(200);
    // The pending upload was taken out of the extension's database.
    const left = await panel.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('kb-uploads');
          open.onsuccess = () => {
            const count = open.result.transaction('files').objectStore('files').count();
            count.onsuccess = () => resolve(count.result);
            count.onerror = () => reject(count.error);
          };
          open.onerror = () => reject(open.error);
        }),
    );
    expect(left).toBe(0);
  });
}

test('a file that is not a PDF is refused before any upload, and an unreadable PDF ends in error with the service’s message', async ({ sandbox, openPage }) => {
  const panel = await openKnowledgebases(openPage, sandbox.url);
  const input = panel.getByLabel('PDF file', { exact: true });
  await input.setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('Just some notes, not a PDF.') });
  await expect(panel.getByRole('alert')).toHaveText(/does not start like a PDF/);
  await panel.getByRole('button', { name: 'Ingest' }).click();
  await expect(panel.getByRole('alert')).toHaveText(/does not start like a PDF/);
  await input.setInputFiles({ name: 'scan.png', mimeType: 'image/png', buffer: makePdf(1) });
  await expect(panel.getByRole('alert')).toHaveText(/not a PDF: choose a file whose name ends in \.pdf/);
  expect(await ingests(sandbox)).toHaveLength(0);

  // Starts like a PDF, but was cut short: the service accepts it and then reports an error.
  const cut = makePdf(3).subarray(0, 300);
  await input.setInputFiles({ name: 'cut-short.pdf', mimeType: 'application/pdf', buffer: cut });
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await panel.getByRole('button', { name: 'Ingest' }).click();
  await expect(row(panel, 'cut-short.pdf')).toContainText('Error', { timeout: 20_000 });
  await expect(panel.getByRole('status').filter({ hasText: '“cut-short.pdf” could not be processed' })).toContainText('%%EOF');
});

test('delete asks first, naming the knowledgebase, and removes it from the service', async ({ sandbox, openPage }) => {
  const panel = await openKnowledgebases(openPage, sandbox.url);
  const rows = panel.getByRole('table', { name: 'Knowledgebases of this account' }).getByRole('row');
  await expect(rows).toHaveCount(2); // header + the seeded one
  const name = (await rows.nth(1).getByRole('button').first().textContent())!.trim();
  await rows.nth(1).getByRole('button', { name: `Show details of ${name}` }).click();
  const ragId = (await panel.getByRole('region', { name }).locator('dd.mono').first().textContent())!.trim();

  await rows.nth(1).getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = panel.getByRole('dialog', { name: `Delete “${name}”?` });
  await expect(confirm).toContainText(`The knowledgebase “${name}”`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect((await serviceRecord(sandbox.url, ragId)).status).toBe(200);

  await rows.nth(1).getByRole('button', { name: `Delete ${name}` }).click();
  await panel.getByRole('dialog').getByRole('button', { name: `Delete “${name}”` }).click();
  await expect(panel.getByRole('status').filter({ hasText: `“${name}” was deleted.` })).toBeVisible();
  await expect(rows).toHaveCount(0);
  await expect(panel.getByText('No knowledgebases yet.')).toBeVisible();
  expect((await serviceRecord(sandbox.url, ragId)).status).toBe(404);
});

test('axe: the Knowledgebases section, with details and a confirmation open, has no serious or critical violations', async ({ sandbox, openPage }) => {
  const panel = await openKnowledgebases(openPage, sandbox.url);
  const first = panel.getByRole('table', { name: 'Knowledgebases of this account' }).getByRole('row').nth(1);
  await first.getByRole('button').first().click();
  await first.getByRole('button', { name: /^Delete / }).click();
  await expect(panel.getByRole('dialog')).toBeVisible();
  for (const source of ['A PDF file', 'A web page']) {
    await panel.getByRole('radio', { name: source }).check();
    await expectAxeClean(panel);
  }
});
