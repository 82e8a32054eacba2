/**
 * Every delayed action of the sandbox goes through one Timers instance so that close() and reset()
 * can cancel all of them at once: tests must never hang on a forgotten timeout.
 */
export class Timers {
  private readonly pending = new Map<ReturnType<typeof setTimeout>, () => void>();
  private readonly sleepers = new Set<() => void>();

  /** Runs `fn` after `ms` real milliseconds; returns a cancel function. */
  after(ms: number, fn: () => void): () => void {
    const handle = setTimeout(() => {
      this.pending.delete(handle);
      fn();
    }, Math.max(0, ms));
    // Unref: a pending call walk alone must not keep a test process alive.
    handle.unref?.();
    this.pending.set(handle, fn);
    return () => {
      clearTimeout(handle);
      this.pending.delete(handle);
    };
  }

  /** A promise that resolves after `ms`, or early when clearAll() runs (so no request hangs). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.sleepers.delete(wake);
        cancel();
        resolve();
      };
      const cancel = this.after(ms, wake);
      this.sleepers.add(wake);
    });
  }

  /** Fires every pending timer now (the clock control's "skip the wait"). */
  fireAll(): number {
    const due = [...this.pending.entries()];
    for (const [handle] of due) clearTimeout(handle);
    this.pending.clear();
    for (const [, fn] of due) fn();
    return due.length;
  }

  /** Ends every sleep now (requests held by a fault's delay go on), leaving other timers alone. */
  wakeSleepers(): number {
    const sleepers = [...this.sleepers];
    for (const wake of sleepers) wake();
    return sleepers.length;
  }

  clearAll(): void {
    for (const handle of this.pending.keys()) clearTimeout(handle);
    this.pending.clear();
    for (const wake of [...this.sleepers]) wake();
  }

  get size(): number {
    return this.pending.size;
  }
}
