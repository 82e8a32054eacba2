/**
 * The background's share for each page's page/find requests (FIND_LIMITS, lib/phone/find-batch.ts:
 * the numbers the page paces itself by): requests in flight and begun in any second, per frame and
 * per tab. A request over the share is not read; it is answered `FindBusy` at once (cheap: before
 * any parsing), and the page asks again then. Pure apart from the clock it is given.
 */
import { FIND_LIMITS, type FindBusy, type FindLimits } from '../phone/find-batch';

interface Share {
  inFlight: number;
  /** When its requests of the last second began. */
  begun: number[];
}

/** What a request turned away for want of a place in flight is told to wait (a request is read in about this long). */
const IN_FLIGHT_WAIT_MS = 200;

export type FindTicket = { done(): void } | FindBusy;

export class FindLimiter {
  private readonly shares = new Map<string, Share>();
  constructor(private readonly limits: FindLimits = FIND_LIMITS) {}

  private share(key: string, now: number): Share {
    let share = this.shares.get(key);
    if (!share) this.shares.set(key, (share = { inFlight: 0, begun: [] }));
    share.begun = share.begun.filter((at) => now - at < 1000);
    return share;
  }

  /** A place for one request of the frame, or how long to wait for one. */
  begin(tabId: number, frameId: number, now: number): FindTicket {
    const tab = this.share(`${tabId}`, now);
    const frame = this.share(`${tabId}:${frameId}`, now);
    const full = (share: Share, inFlight: number, perSecond: number) =>
      share.inFlight >= inFlight ? IN_FLIGHT_WAIT_MS : share.begun.length >= perSecond ? share.begun[0]! + 1000 - now : 0;
    const wait = Math.max(full(frame, this.limits.frameInFlight, this.limits.framePerSecond), full(tab, this.limits.tabInFlight, this.limits.tabPerSecond));
    if (wait > 0) {
      this.prune(now);
      return { retryInMs: Math.ceil(wait) };
    }
    if (this.shares.size >= 200) this.prune(now);
    for (const share of [tab, frame]) {
      share.inFlight++;
      share.begun.push(now);
    }
    let open = true;
    return {
      done: () => {
        if (!open) return;
        open = false;
        tab.inFlight--;
        frame.inFlight--;
      },
    };
  }

  /** Shares with nothing in flight and nothing begun lately are forgotten (tabs come and go). */
  private prune(now: number): void {
    if (this.shares.size < 200) return;
    for (const [key, share] of this.shares) if (share.inFlight === 0 && share.begun.every((at) => now - at >= 1000)) this.shares.delete(key);
  }
}
