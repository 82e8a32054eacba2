// @vitest-environment happy-dom
// The Executions section against a scripted background: filters sent as asked, a refused range keeps what was typed,
// and the export walks every page into a CSV link (or stops on Cancel).
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { AgentExecutions } from '../../../components/executions/AgentExecutions';
import { localDate } from '../../../lib/executions/filter';
import type { UiRequest } from '../../../lib/messages';
import { AGENT_ID, agentsCache, execution, fail, fakeBackground, keyState, ok, renderWithStore, seedData } from '../ui/helpers';

type ListRequest = Extract<UiRequest, { type: 'executions/list' }>;
const BATCH = '0123abcd0123abcd0123abcd0123abcd';
const page = (r: ListRequest, total: number) => {
  const start = (r.pageNumber - 1) * r.pageSize;
  const count = Math.max(0, Math.min(r.pageSize, total - start));
  const data = Array.from({ length: count }, (_, i) => execution({ id: `e${start + i}`, status: 'completed', batch_id: BATCH, total_cost: 12.5 }));
  return { page_number: r.pageNumber, page_size: r.pageSize, total, has_more: start + count < total, data };
};
const props = { agentId: AGENT_ID, onAgentChange: () => undefined, openExecution: () => undefined, openCall: () => undefined };
const lists = (requests: UiRequest[]) => requests.filter((r): r is ListRequest => r.type === 'executions/list');

beforeEach(async () => {
  fakeBrowser.reset();
  await seedData({ 'ui.keyState': keyState(true), 'agents.cache': agentsCache() });
  URL.createObjectURL = vi.fn(() => 'blob:csv-1');
  URL.revokeObjectURL = vi.fn();
});
afterEach(cleanup);

describe('Executions section', () => {
  it('asks for the filter chosen, on page 1, and names the batch by its file', async () => {
    const { requests } = fakeBackground((r) =>
      r.type === 'executions/list' ? ok(page(r, 3)) : r.type === 'executions/batches' ? ok([{ batchId: BATCH, fileName: 'leads.csv', createdAt: null }]) : undefined,
    );
    await renderWithStore(<AgentExecutions {...props} />);
    expect(await screen.findByText('3 executions match.')).toBeTruthy();
    expect((await screen.findAllByRole('cell', { name: 'leads.csv' })).length).toBe(3);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'no-answer' } });
    fireEvent.change(screen.getByLabelText('Batch'), { target: { value: BATCH } });
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    });
    await waitFor(() => expect(lists(requests).at(-1)).toMatchObject({ status: 'no-answer', batchId: BATCH, pageNumber: 1 }));
  });

  it('refuses 8 days with the reason, keeps the typed dates, and asks nothing', async () => {
    const { requests } = fakeBackground((r) => (r.type === 'executions/list' ? ok(page(r, 3)) : r.type === 'executions/batches' ? ok([]) : undefined));
    await renderWithStore(<AgentExecutions {...props} />);
    await screen.findByText('3 executions match.');
    const asked = lists(requests).length;
    const eightDaysAgo = localDate(Date.now() - 7 * 86_400_000);
    fireEvent.input(screen.getByLabelText('From'), { target: { value: eightDaysAgo } });
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    });
    expect((await screen.findByRole('alert')).textContent).toMatch(/at most 7 days/);
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe(eightDaysAgo);
    expect(lists(requests)).toHaveLength(asked);
  });

  it('exports every page (50 at a time) into a CSV download link', async () => {
    const { requests } = fakeBackground((r) => (r.type === 'executions/list' ? ok(page(r, 120)) : r.type === 'executions/batches' ? ok([]) : undefined));
    let blob: Blob | null = null;
    URL.createObjectURL = vi.fn((b: Blob) => ((blob = b), 'blob:csv-1'));
    await renderWithStore(<AgentExecutions {...props} />);
    await screen.findByText('120 executions match.');
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    });
    const link = (await screen.findByRole('link', { name: /^Download executions-Sales_qualifier-.*\.csv$/ })) as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('blob:csv-1');
    expect(screen.getByText('Export ready: 120 executions.')).toBeTruthy();
    const exportPages = lists(requests).filter((r) => r.pageSize === 50);
    expect(exportPages.map((r) => r.pageNumber)).toEqual([1, 2, 3]);
    const lines = (await blob!.text()).trim().split('\r\n');
    expect(lines).toHaveLength(121);
    expect(lines[1]).toMatch(/^e0,/);
  });

  it('shows a failed export page with the service’s message', async () => {
    fakeBackground((r) =>
      r.type === 'executions/list' ? (r.pageSize === 50 && r.pageNumber === 2 ? fail('Too many requests; try again in a minute.', 429) : ok(page(r, 120))) : r.type === 'executions/batches' ? ok([]) : undefined,
    );
    await renderWithStore(<AgentExecutions {...props} />);
    await screen.findByText('120 executions match.');
    await act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    });
    expect((await screen.findByRole('alert')).textContent).toBe('The export failed: Too many requests; try again in a minute.');
    expect(screen.queryByRole('link', { name: /^Download/ })).toBeNull();
  });
});
