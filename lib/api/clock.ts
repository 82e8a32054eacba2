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
