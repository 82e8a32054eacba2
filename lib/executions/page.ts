/**
 * Pages of an agent's executions as the section shows them. The deprecated route answers every execution as one
 * bare array and ignores the query: such an answer is filtered and paged here, so the section works the same.
 */
import type { ExecutionPage } from '../api/schemas/execution';
import { matchesQuery, type ExecutionQuery } from './filter';

/**
 * The page to show. `answer` is the service's; an answer whose `page_size` is not the one asked for is the bare
 * array (the envelope echoes the size asked for), read as the whole list.
 */
export function shownPage(answer: ExecutionPage, query: ExecutionQuery, pageNumber: number, pageSize: number): ExecutionPage {
  if (answer.page_size === pageSize) return answer;
  const all = answer.data.filter((execution) => matchesQuery(execution, query));
  const start = (pageNumber - 1) * pageSize;
  return { page_number: pageNumber, page_size: pageSize, total: all.length, has_more: start + pageSize < all.length, data: all.slice(start, start + pageSize) };
}

/** How many pages a page's total makes, or null when the total is unknown. */
export function pageCount(page: Pick<ExecutionPage, 'total' | 'page_size'>): number | null {
  if (!(page.total > 0) || !(page.page_size > 0)) return null;
  return Math.ceil(page.total / page.page_size);
}
