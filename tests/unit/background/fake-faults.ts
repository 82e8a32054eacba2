/**
 * What the calls service tests' stand-in services share: a request can be held open until released,
 * or fail — before the service acted, or after it (a lost answer). Each request is logged.
 */
export class FaultyRequests<M extends string> {
  requests: M[] = [];
  private holds = new Map<M, { arrived: () => void; release: Promise<void> }>();
  private faults = new Map<M, () => Error>();

  /** The next request of `method` waits until the returned `release` is called; `arrived` resolves when it is sent. */
  hold(method: M): { arrived: Promise<void>; release: () => void } {
    let arrived!: () => void;
    let release!: () => void;
    const arrival = new Promise<void>((r) => (arrived = r));
    this.holds.set(method, { arrived, release: new Promise<void>((r) => (release = r)) });
    return { arrived: arrival, release };
  }

  /** The next request of `method` fails with this error; with `after`, only once the service acted (a lost answer). */
  fail(method: M, error: () => Error, after = false): void {
    this.faults.set(method, after ? () => Object.assign(error(), { after: true }) : error);
  }

  /** Logs the request, waits out a hold, throws a fault meant for before; answers a fault meant for after. */
  protected async enter(method: M): Promise<Error | undefined> {
    this.requests.push(method);
    const hold = this.holds.get(method);
    if (hold) {
      this.holds.delete(method);
      hold.arrived();
      await hold.release;
    }
    const fault = this.faults.get(method);
    if (!fault) return undefined;
    this.faults.delete(method);
    const error = fault();
    if (!(error as { after?: boolean }).after) throw error;
    return error;
  }

  /** Runs `act` as the service would for a request of `method`; a lost answer throws once the service acted. */
  protected async answer<T>(method: M, act: () => T): Promise<T> {
    const lost = await this.enter(method);
    const value = act();
    if (lost) throw lost;
    return value;
  }
}
