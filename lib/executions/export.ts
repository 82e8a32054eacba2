/**
 * Walks every page of a filtered list for the CSV export. The fetching is passed in (the side panel asks the
 * background), so the walk, its progress and its cancelling are tested with plain functions.
 */

import { t } from '../i18n';
import { uiLocale } from '../locale';

/** The service's largest page: the fewest requests for an export. */
export const EXPORT_PAGE_SIZE = 50;
/** A bound on a runaway walk (a service that always says has_more): 10,000 executions. */
export const MAX_EXPORT_PAGES = 200;

export interface ExportProgress {
  pagesDone: number;
  /** Pages expected from the first answer's total, or null when it gave none. */
  pagesTotal: number | null;
  executions: number;
}

export class ExportCancelled extends Error {
  override name = 'ExportCancelled';
  constructor() {
    super('The export was cancelled.');
  }
}

/** What the walk reads of a page (the service's envelope). */
export interface PageOf<T> {
  page_size: number;
  total: number;
  has_more: boolean;
  data: T[];
}

export async function collectAllPages<T>(
  fetchPage: (pageNumber: number) => Promise<PageOf<T>>,
  options: { signal?: AbortSignal; onProgress?: (progress: ExportProgress) => void } = {},
): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<unknown>();
  for (let pageNumber = 1; pageNumber <= MAX_EXPORT_PAGES; pageNumber++) {
    if (options.signal?.aborted) throw new ExportCancelled();
    const page = await fetchPage(pageNumber);
    if (options.signal?.aborted) throw new ExportCancelled();
    // A call made during the walk shifts later pages by one: the same execution is not written twice.
    for (const item of page.data) {
      const id = (item as { id?: unknown }).id ?? item;
      if (seen.has(id)) continue;
      seen.add(id);
      all.push(item);
    }
    const pagesTotal = page.total > 0 && page.page_size > 0 ? Math.ceil(page.total / page.page_size) : null;
    options.onProgress?.({ pagesDone: pageNumber, pagesTotal, executions: all.length });
    if (!page.has_more || page.data.length === 0) return all;
  }
  throw new Error(t('executions_exportTooManyPages', new Intl.NumberFormat(uiLocale()).format(MAX_EXPORT_PAGES)));
}
