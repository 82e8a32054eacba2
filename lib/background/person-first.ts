/**
 * A person's request goes first. The background reads pages' texts (page/find) in short slices, and
 * between slices it used to let every queued task in; a person's Confirm or Stop then resumed after
 * each of its awaits behind the slices of every page's finds in flight, and on a flooding page took
 * seconds. While a person's request is in flight, page work waits at its next pause until that
 * request is answered (or `maxWaitMs` passed, so a slow request to the service cannot starve pages).
 */
export class PersonFirst {
  private inFlight = 0;
  private waiting: Array<() => void> = [];

  /** Runs a person's request; page work holds back until it is answered. */
  async around<T>(request: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await request();
    } finally {
      if (--this.inFlight === 0) this.release();
    }
  }

  /** Resolves at once when no person's request is in flight, else when the last is answered or after `maxWaitMs`. */
  clear(maxWaitMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      let done = false;
      const go = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(go, maxWaitMs);
      this.waiting.push(go);
    });
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }
}

/** The background's one: UI requests go through `around`, page work pauses on `clear`. */
export const personFirst = new PersonFirst();

/** How long page work waits at most for a person's request. */
export const PAGE_WORK_MAX_WAIT_MS = 500;

/** The platform's task scheduler where it has one (Chrome's workers; Firefox from 142). */
interface TaskScheduler {
  postTask(callback: () => void, options?: { priority?: 'user-blocking' | 'user-visible' | 'background' }): Promise<void>;
}

/**
 * Lets every other waiting task run before page work goes on. A new task (setTimeout) queues behind
 * the tasks already waiting, and on a flooding page those are other pages' slices, so a person's
 * message that arrived meanwhile waited behind all of them before its handler even began (the flood
 * bench's worker profile: ~200 ms). At the scheduler's background priority a slice runs only when no
 * other task waits, so the message is taken at the next pause.
 */
export function yieldToOthers(scheduler: TaskScheduler | undefined = (globalThis as { scheduler?: TaskScheduler }).scheduler): Promise<void> {
  if (typeof scheduler?.postTask === 'function') return scheduler.postTask(() => undefined, { priority: 'background' });
  return new Promise((resolve) => setTimeout(resolve, 0));
}
