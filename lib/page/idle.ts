/**
 * Runs chunked work in idle time: `requestIdleCallback` where the browser has it (with a timeout so
 * background tabs still progress), `setTimeout` otherwise. One slice runs chunks until its time
 * budget is spent, so no main-thread task it causes is longer than the budget plus one chunk.
 */

export interface IdleHost {
  requestIdleCallback?: (cb: (deadline: { timeRemaining(): number; didTimeout: boolean }) => void, opts?: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
  setTimeout(cb: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export interface IdleRunnerOptions {
  /** Longest a slice may keep working (ms). Default 8. */
  sliceMs?: number;
  /** requestIdleCallback timeout (ms): the latest a slice starts. Default 500. */
  timeoutMs?: number;
  /** After each slice, with whether work remains. */
  onSlice?: (more: boolean) => void;
  now?: () => number;
}

export interface IdleRunner {
  /** Make sure a slice is coming. */
  schedule(): void;
  stop(): void;
}

/**
 * `work()` does one small chunk and returns true while more remains, or 'yield' when more remains
 * but the slice should end now (a step that should be a task of its own).
 */
export function createIdleRunner(host: IdleHost, work: () => boolean | 'yield', options: IdleRunnerOptions = {}): IdleRunner {
  const sliceMs = options.sliceMs ?? 8;
  const timeoutMs = options.timeoutMs ?? 500;
  const now = options.now ?? (() => performance.now());
  let pending: unknown = null;
  let viaIdle = false;
  let stopped = false;

  const slice = (deadline?: { timeRemaining(): number; didTimeout: boolean }) => {
    pending = null;
    if (stopped) return;
    const start = now();
    // An idle period says how long it has left; a timed-out or timer slice gets the plain budget.
    const budget = deadline && !deadline.didTimeout ? Math.min(sliceMs, Math.max(deadline.timeRemaining(), 1)) : sliceMs;
    let more = true;
    for (;;) {
      const result = work();
      more = result !== false;
      if (!more || result === 'yield' || now() - start >= budget) break;
    }
    options.onSlice?.(more);
    if (more) schedule();
  };

  const schedule = () => {
    if (stopped || pending !== null) return;
    viaIdle = typeof host.requestIdleCallback === 'function';
    pending = viaIdle ? host.requestIdleCallback!(slice, { timeout: timeoutMs }) : host.setTimeout(slice, 16);
  };

  return {
    schedule,
    stop() {
      stopped = true;
      if (pending === null) return;
      if (viaIdle) host.cancelIdleCallback?.(pending as number);
      else host.clearTimeout(pending);
      pending = null;
    },
  };
}
