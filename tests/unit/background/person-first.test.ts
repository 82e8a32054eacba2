/**
 * A person's request goes first: page work that pauses while one is in flight resumes only once it
 * is answered (or after the longest wait, so a slow service cannot starve pages).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PersonFirst, yieldToOthers } from '../../../lib/background/person-first';

afterEach(() => vi.useRealTimers());

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('PersonFirst', () => {
  it('page work goes on at once when no person is waiting', async () => {
    const gate = new PersonFirst();
    let resumed = false;
    await gate.clear(10_000).then(() => (resumed = true));
    expect(resumed).toBe(true);
  });

  it('page work pauses while a person’s request is in flight, and resumes when the last one is answered', async () => {
    const gate = new PersonFirst();
    const first = deferred();
    const second = deferred();
    const order: string[] = [];
    const a = gate.around(async () => {
      await first.promise;
      order.push('confirm answered');
    });
    const b = gate.around(async () => {
      await second.promise;
      order.push('stop answered');
    });
    const page = gate.clear(60_000).then(() => order.push('page resumed'));
    first.resolve();
    await a;
    // Still one person waiting: the page holds back.
    await Promise.resolve();
    expect(order).toEqual(['confirm answered']);
    second.resolve();
    await Promise.all([b, page]);
    expect(order).toEqual(['confirm answered', 'stop answered', 'page resumed']);
  });

  it('a request that fails releases the page too', async () => {
    const gate = new PersonFirst();
    const failing = deferred();
    const request = gate.around(async () => {
      await failing.promise;
      throw new Error('the service refused');
    });
    const page = gate.clear(60_000);
    failing.resolve();
    await expect(request).rejects.toThrow('the service refused');
    await page;
  });

  it('a slow request holds page work back for at most the longest wait', async () => {
    vi.useFakeTimers();
    const gate = new PersonFirst();
    const never = deferred();
    void gate.around(() => never.promise);
    let resumed = false;
    void gate.clear(500).then(() => (resumed = true));
    await vi.advanceTimersByTimeAsync(499);
    expect(resumed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(resumed).toBe(true);
  });
});

describe('yieldToOthers (the pause between slices of page work)', () => {
  it('asks the platform scheduler for background priority, so a waiting message runs before the next slice', async () => {
    const asked: unknown[] = [];
    const scheduler = {
      postTask: (callback: () => void, options?: unknown) => {
        asked.push(options);
        callback();
        return Promise.resolve();
      },
    };
    await yieldToOthers(scheduler);
    expect(asked).toEqual([{ priority: 'background' }]);
  });

  it('where there is no scheduler (older Firefox, Node), waits for a new task', async () => {
    vi.useFakeTimers();
    let resumed = false;
    void yieldToOthers(undefined).then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(resumed).toBe(true);
  });
});
