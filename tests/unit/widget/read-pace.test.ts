/**
 * How often the element reads a call: at its pace while the call moves, less and less while a batch
 * call waits for its start with nothing changing, and backing off after failed reads.
 */
import { describe, expect, it } from 'vitest';
import { WidgetSession, readDelay } from '../../../lib/widget/session';
import type { WidgetCallView, WidgetTransport } from '../../../lib/widget/wire';

const view = (status: string | null, done = false): WidgetCallView => ({
  id: 'p1', agentId: 'a', toNumber: '+14155550123', via: 'batch', executionId: status ? 'e1' : null, status, observed: [], done,
  message: null, stopRequested: false, durationSeconds: null, cost: null, transcript: null, recordingUrl: null, extractedData: null,
});

describe('the element’s reads', () => {
  it('a batch call’s two-minute wait costs a dozen reads, not eighty, and the call is still followed to its end', async () => {
    // The service's answers over time: scheduled until 120 s, then in progress, completed at 150 s.
    let clock = 0;
    const statusAt = (t: number) => (t < 120_000 ? 'scheduled' : t < 150_000 ? 'in-progress' : 'completed');
    let reads = 0;
    const transport: WidgetTransport = {
      place: async () => view(null),
      read: async () => {
        reads++;
        const s = statusAt(clock);
        return view(s, s === 'completed');
      },
      stop: async () => view('stopped', true),
    };
    const waits: number[] = [];
    const session = new WidgetSession({ transport, emit: () => undefined, wait: async (ms) => void (waits.push(ms), (clock += ms)), pollMs: 1500 });
    await session.call({ agentId: 'a', toNumber: '+14155550123', variables: {}, via: 'batch' });
    expect(session.view.value?.status).toBe('completed');
    const beforeStart = waits.filter((_, i) => waits.slice(0, i + 1).reduce((a, b) => a + b, 0) <= 120_000).length;
    expect(beforeStart).toBeLessThanOrEqual(20);
    // Once it moves, the pace is the element's again: no wait over 1.5 s after the start was seen.
    const started = waits.findIndex((_, i) => waits.slice(0, i + 1).reduce((a, b) => a + b, 0) > 120_000);
    expect(Math.max(...waits.slice(started + 1))).toBe(1500);
    expect(reads).toBeLessThan(50);
  });

  it('backs off after failed reads, and never waits past 10 s while waiting to start', () => {
    expect(readDelay(1500, 0, 0)).toBe(1500);
    expect(readDelay(1500, 0, 3)).toBe(1500 * 1.5 ** 3);
    expect(readDelay(1500, 0, 50)).toBe(10_000);
    expect(readDelay(1500, 2, 0)).toBe(6000);
    expect(readDelay(1500, 9, 0)).toBe(24_000);
  });
});
