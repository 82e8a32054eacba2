/**
 * The Firefox smoke's batch: from the side panel page (sidepanel.html?section=batches), a contact
 * list chosen as a file, checked, created and scheduled at the picker's first time; the sandbox
 * must have received the batch and its schedule. The smoke's own helpers are passed in.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';

export interface SmokeHelpers {
  byLabel(page: Page, label: string): Promise<ElementHandle<HTMLElement>>;
  buttonNamed(page: Page, name: string): Promise<ElementHandle<HTMLButtonElement>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  waitFor(page: Page, expected: string, fn: (...args: any[]) => unknown, args: unknown[], timeout?: number): Promise<void>;
  fail(expected: string, shown: string): never;
  requests(): Promise<Array<{ method: string; path: string; status: number }>>;
}

const CSV = 'contact_number,first_name\r\n+14155552671,Ana\r\n(415) 555-2672,Bo\r\n';

export async function batchCreatedAndScheduled(p: Page, h: SmokeHelpers): Promise<void> {
  const agent = await h.byLabel(p, 'Agent');
  await h.waitFor(p, 'at least one agent in "Agent"', (select: HTMLElement) => [...(select as HTMLSelectElement).options].some((o) => o.value), [agent]);
  const first = await agent.evaluate((el) => [...(el as HTMLSelectElement).options].find((o) => o.value)!.value);
  await agent.select(first);

  const dir = mkdtempSync(join(tmpdir(), 'ff-batch-'));
  try {
    const file = join(dir, 'firefox-batch.csv');
    writeFileSync(file, CSV);
    const input = (await h.byLabel(p, 'Contact list (CSV file)')) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(file);
    await h.waitFor(p, '"All 2 contacts are ready."', () => document.body.innerText.includes('All 2 contacts are ready.'), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await (await h.buttonNamed(p, 'Create batch')).click();
  await h.waitFor(p, 'the new batch, "Status: Created, not scheduled."', () =>
    document.querySelector('.batch-status')?.textContent === 'Status: Created, not scheduled.', []);
  // The picker starts at the earliest time the service accepts, shown with its time zone.
  await h.waitFor(p, 'the time zone under the start', () => /Time zone: .+\(UTC/.test(document.body.innerText), []);
  await (await h.buttonNamed(p, 'Schedule')).click();
  await h.waitFor(p, '"Status: Scheduled." (or later)', () =>
    /^Status: (Scheduled|Running|Completed)\.$/.test(document.querySelector('.batch-status')?.textContent ?? ''), []);
  const log = await h.requests();
  const created = log.filter((r) => r.method === 'POST' && /^\/batches\/?$/.test(r.path) && r.status === 201);
  const scheduled = log.filter((r) => r.method === 'POST' && /schedule$/.test(r.path) && r.status === 200);
  if (created.length !== 1 || scheduled.length !== 1) {
    h.fail('one POST /batches (201) and one schedule (200) more', log.map((r) => `${r.method} ${r.path} ${r.status}`).join(', '));
  }
}
