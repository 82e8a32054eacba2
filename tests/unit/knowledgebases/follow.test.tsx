// @vitest-environment happy-dom
/** The Knowledgebases section follows an ingestion with a modest poll that stops when it settles or the section closes. */
import { act, cleanup, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { KnowledgebasesSection } from '../../../components/knowledgebases/KnowledgebasesSection';
import type { UiRequest } from '../../../lib/messages';
import { fakeBackground, ok, renderWithStore } from '../ui/helpers';

const props = { agentId: '', onAgentChange: () => undefined, openExecution: () => undefined, openCall: () => undefined };
const kb = (status: string, extra: object = {}) => ({ rag_id: 'kb-1', file_name: 'faq.pdf', source_type: 'pdf', status, ...extra });

/** The service's answers to successive reads of kb-1. */
function background(statuses: string[], extra: object = {}) {
  let reads = 0;
  return fakeBackground((request: UiRequest) => {
    if (request.type === 'knowledgebases/list') return ok([kb('processing')]);
    if (request.type === 'knowledgebases/get') return ok(kb(statuses[Math.min(reads++, statuses.length - 1)]!, extra));
    return undefined;
  });
}
const reads = (requests: UiRequest[]) => requests.filter((r) => r.type === 'knowledgebases/get').length;
const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

beforeEach(() => {
  fakeBrowser.reset();
  // Only the section's own waits are faked: Testing Library's checks run on the real setInterval.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('following a knowledgebase being processed', () => {
  it('reads it after 2 s, then less often, stops once processed and says so', async () => {
    const { requests } = background(['processing', 'processing', 'processed']);
    await renderWithStore(<KnowledgebasesSection {...props} />);
    await screen.findByText('Processing');
    await advance(1999);
    expect(reads(requests)).toBe(0);
    await advance(1);
    expect(reads(requests)).toBe(1);
    await advance(2999);
    expect(reads(requests)).toBe(1);
    await advance(1);
    expect(reads(requests)).toBe(2);
    await advance(4500);
    expect(reads(requests)).toBe(3);
    expect(screen.getByText('Processed')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/“faq.pdf” is processed/);
    await advance(120_000);
    expect(reads(requests)).toBe(3);
  });

  it('shows the service’s message when it ends in error', async () => {
    background(['error'], { error_message: 'the PDF has no text layer' });
    await renderWithStore(<KnowledgebasesSection {...props} />);
    await screen.findByText('Processing');
    await advance(2000);
    expect(screen.getByText('Error')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('“faq.pdf” could not be processed: the PDF has no text layer');
  });

  it('stops reading when the section closes', async () => {
    const { requests } = background(['processing']);
    const view = await renderWithStore(<KnowledgebasesSection {...props} />);
    await screen.findByText('Processing');
    await advance(2000);
    expect(reads(requests)).toBe(1);
    view.unmount();
    await advance(600_000);
    expect(reads(requests)).toBe(1);
  });
});
