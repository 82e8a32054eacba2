/**
 * The service's clock as seen through its `Date` header. `scheduled_at` must be at least 2 minutes
 * ahead on the service's clock, not ours: a local clock running minutes slow would otherwise be refused.
 */

/**
 * The service clock minus ours (ms), from a `Date` header read at `localMs`; undefined without one.
 * The header has whole seconds, so the offset may read up to a second early: inside the scheduling margin.
 */
export function clockOffsetFrom(dateHeader: string | null | undefined, localMs: number): number | undefined {
  if (!dateHeader) return undefined;
  const serviceMs = Date.parse(dateHeader);
  return Number.isNaN(serviceMs) ? undefined : serviceMs - localMs;
}

/** The service's time now, given our time and the offset. */
export function serviceNow(localMs: number, offsetMs: number): number {
  return localMs + offsetMs;
}

/** What a client learns of the service's clock from its answers. */
export interface ServiceClock {
  /** The service clock's speed relative to ours: 1 for the real service; the sandbox says `X-Sandbox-Speed`. */
  timeScale(): number;
  /** The latest offset read from a `Date` header (undefined before one arrived). */
  clockOffset(): number | undefined;
}

/** A `fetch` that reads the clock headers of every answer: the one place both are taken from. */
export function clockReadingFetch(inner: typeof fetch = (input, init) => fetch(input, init)): { fetch: typeof fetch; clock: ServiceClock } {
  let scale = 1;
  let offset: number | undefined;
  const reading: typeof fetch = async (input, init) => {
    const response = await inner(input, init);
    const speed = Number(response.headers.get('x-sandbox-speed'));
    if (Number.isFinite(speed) && speed > 0) scale = speed;
    offset = clockOffsetFrom(response.headers.get('date'), Date.now()) ?? offset;
    return response;
  };
  return { fetch: reading, clock: { timeScale: () => scale, clockOffset: () => offset } };
}
