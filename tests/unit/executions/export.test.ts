// Walking every page for the export: all rows once, progress after each page, cancelling between pages.
import { describe, expect, it } from 'vitest';
import { collectAllPages, ExportCancelled, MAX_EXPORT_PAGES } from '../../../lib/executions/export';
import { pageCount, shownPage } from '../../../lib/executions/page';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `e${i + 1}`, status: 'completed' }));
/** A service holding `items`, paged by `size`. */
const service = (items: { id: string; status: string }[], size: number) => {
  const asked: number[] = [];
  const fetchPage = async (n: number) => {
    asked.push(n);
    const data = items.slice((n - 1) * size, n * size);
    return { page_number: n, page_size: size, total: items.length, has_more: n * size < items.length, data };
  };
  return { asked, fetchPage };
};

describe('collectAllPages', () => {
  it.each([0, 1, 50, 51, 123])('collects all %i executions, in order, asking each page once', async (n) => {
    const s = service(rows(n), 50);
    const progress: unknown[] = [];
    const all = await collectAllPages(s.fetchPage, { onProgress: (p) => progress.push(p) });
    expect(all.map((e) => e.id)).toEqual(rows(n).map((e) => e.id));
    const pages = Math.max(1, Math.ceil(n / 50));
    expect(s.asked).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
    expect(progress.at(-1)).toEqual({ pagesDone: pages, pagesTotal: n ? pages : null, executions: n });
  });

  it('writes an execution once when a new call shifts the pages during the walk', async () => {
    const items = rows(60);
    const s = service(items, 50);
    const all = await collectAllPages(async (n) => {
      if (n === 2) items.unshift({ id: 'new', status: 'queued' });
      return s.fetchPage(n);
    });
    expect(all.filter((e) => e.id === 'e50')).toHaveLength(1);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
  });

  it('stops when cancelled and asks for no further page', async () => {
    const s = service(rows(200), 50);
    const controller = new AbortController();
    const walk = collectAllPages(s.fetchPage, { signal: controller.signal, onProgress: (p) => p.pagesDone === 2 && controller.abort() });
    await expect(walk).rejects.toBeInstanceOf(ExportCancelled);
    expect(s.asked).toEqual([1, 2]);
  });

  it('gives up on a service that always has more, saying so', async () => {
    let asked = 0;
    const walk = collectAllPages(async (n) => (asked++, { page_number: n, page_size: 1, total: 0, has_more: true, data: [{ id: `e${n}` }] }));
    await expect(walk).rejects.toThrow(/narrow the filter/);
    expect(asked).toBe(MAX_EXPORT_PAGES);
  });

  it('passes a failed page on (the section shows the service message)', async () => {
    await expect(collectAllPages(async () => Promise.reject(new Error('Too many requests')))).rejects.toThrow('Too many requests');
  });
});

describe('shownPage', () => {
  const query = { from: Date.parse('2026-11-20T00:00:00Z'), to: Date.parse('2026-11-27T00:00:00Z'), status: 'busy' };
  const exec = (i: number, status: string) => ({ id: `e${i}`, status, created_at: '2026-11-21T00:00:00Z' });

  it('passes the envelope answer on as it is', () => {
    const answer = { page_number: 2, page_size: 20, total: 25, has_more: false, data: [exec(1, 'completed')] };
    expect(shownPage(answer as never, query, 2, 20)).toBe(answer);
  });

  it('filters and pages a bare-array answer (the deprecated route ignores the query)', () => {
    const all = [...Array.from({ length: 25 }, (_, i) => exec(i, 'busy')), exec(99, 'completed'), { ...exec(98, 'busy'), created_at: '2026-11-01T00:00:00Z' }];
    const answer = { page_number: 1, page_size: all.length, total: all.length, has_more: false, data: all };
    const second = shownPage(answer as never, query, 2, 20);
    expect(second).toMatchObject({ page_number: 2, page_size: 20, total: 25, has_more: false });
    expect(second.data.map((e) => e.id)).toEqual(['e20', 'e21', 'e22', 'e23', 'e24']);
    expect(shownPage(answer as never, query, 1, 20)).toMatchObject({ total: 25, has_more: true });
  });

  it('counts pages from the total', () => {
    expect(pageCount({ total: 41, page_size: 20 })).toBe(3);
    expect(pageCount({ total: 0, page_size: 20 })).toBeNull();
  });
});
