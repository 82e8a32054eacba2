// @vitest-environment happy-dom
/** The batch list is looked at again only while a batch runs, the page is visible and the section is on screen. */
import { act, cleanup, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { useBatchList } from '../../../components/batches/useBatches';
import { ACTIVE_REFRESH_MS } from '../../../lib/batches/status';
import { fakeBackground, ok } from '../ui/helpers';

function Harness({ agentId }: { agentId: string }) {
  const { batches } = useBatchList(agentId);
  return <p data-testid="statuses">{batches ? batches.map((b) => b.status).join(',') : 'none'}</p>;
}

/** The background answers the list with the next of `statuses` (the last one repeats). */
function background(statuses: string[]) {
  let answered = 0;
  const { requests } = fakeBackground((request) => {
    if (request.type !== 'batches/list') return undefined;
    const status = statuses[Math.min(answered++, statuses.length - 1)]!;
    return ok([{ batch_id: 'b'.repeat(32), status, execution_status: {} }]);
  });
  return { lists: () => requests.filter((r) => r.type === 'batches/list').length };
}

/** Moves the clock, then lets the answers that timers asked for arrive and render. */
async function advance(ms: number): Promise<void> {
  await act(async () => void (await vi.advanceTimersByTimeAsync(ms)));
  await act(async () => void (await vi.advanceTimersByTimeAsync(50)));
}
const setVisibility = (state: 'hidden' | 'visible') =>
  act(() => {
    Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });

beforeEach(() => {
  fakeBrowser.reset();
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('refreshing the batch list', () => {
  it('asks every 5 s while a batch runs, and stops once none does', async () => {
    const { lists } = background(['running', 'running', 'completed']);
    render(<Harness agentId="agent-1" />);
    await advance(10);
    expect(lists()).toBe(1);
    await advance(ACTIVE_REFRESH_MS + 100);
    expect(lists()).toBe(2);
    await advance(ACTIVE_REFRESH_MS + 100);
    expect(lists()).toBe(3);
    expect(screen.getByTestId('statuses').textContent).toBe('completed');
    await advance(10 * 60_000);
    expect(lists()).toBe(3);
  });

  it('does not ask while the page is hidden, and asks again once it is shown', async () => {
    const { lists } = background(['running']);
    render(<Harness agentId="agent-1" />);
    await advance(10);
    await setVisibility('hidden');
    await advance(10 * 60_000);
    expect(lists()).toBe(1);
    await setVisibility('visible');
    await advance(ACTIVE_REFRESH_MS + 100);
    expect(lists()).toBe(2);
  });

  it('stops when the section leaves the screen', async () => {
    const { lists } = background(['running']);
    const view = render(<Harness agentId="agent-1" />);
    await advance(10);
    view.unmount();
    await advance(10 * 60_000);
    expect(lists()).toBe(1);
  });

  it('never asks without an agent', async () => {
    const { lists } = background(['running']);
    render(<Harness agentId="" />);
    await advance(60_000);
    expect(lists()).toBe(0);
  });
});
