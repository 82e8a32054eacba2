/**
 * Asking the browser for pages' origins and giving them back, from extension UI (Options → Sites).
 * `changePageAccess` must be called inside the click or change handler, before any `await`: browsers
 * show the permission prompt only during a user gesture. What is asked and given back is decided by
 * the pure `accessChange` (lib/page/access.ts); see docs/security.md.
 */
import { browser } from '../browser';
import { accessChange, covers } from '../page/access';
import type { Settings } from '../settings/schema';

type Sites = Settings['sites'];

export interface PageAccessRequest {
  /** Settles once the origins no longer needed were given back (an Error when the browser refused). */
  removed: Promise<true | Error>;
  /** true: granted, or nothing to ask; false: the person refused; an Error: the browser could not ask. */
  granted: Promise<boolean | Error>;
  /** The service's origin is asked for again: a grant given back covered it, and Chrome takes it along. */
  asksForService: boolean;
  /** The page origins asked for. */
  requested: string[];
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

function attempt<T>(run: () => Promise<T>): Promise<T | Error> {
  try {
    return run().catch(asError);
  } catch (error) {
    return Promise.resolve(asError(error));
  }
}

/**
 * Gives back what `after` no longer needs, then asks for what it needs (in that order: a browser may
 * drop narrower grants with a wider one it gives back). `servicePattern`: the saved service's origin
 * pattern, asked for again in the same prompt when a page origin given back covers it.
 */
export function changePageAccess(before: Sites, after: Sites, servicePattern: string | null): PageAccessRequest {
  const change = accessChange(before, after);
  const removed = change.remove.length
    ? attempt(() => browser.permissions.remove({ origins: change.remove })).then((r) => (r instanceof Error ? r : true as const))
    : Promise.resolve(true as const);
  const asksForService = !!servicePattern && change.remove.some((p) => covers(p, servicePattern));
  const origins = [...change.request, ...(asksForService && servicePattern ? [servicePattern] : [])];
  const granted = origins.length ? attempt(() => browser.permissions.request({ origins })) : Promise.resolve(true);
  return { removed, granted, asksForService, requested: change.request };
}

/** The patterns the browser does not grant now (a browser that cannot answer grants none). */
export async function missingOrigins(patterns: readonly string[]): Promise<string[]> {
  const held = await Promise.all(
    patterns.map(async (p) => {
      try {
        return await browser.permissions.contains({ origins: [p] });
      } catch {
        return false;
      }
    }),
  );
  return patterns.filter((_, i) => !held[i]);
}

/** Asks for exactly these origins (the "Allow access" button); same rules as above. */
export function requestOrigins(origins: string[]): Promise<boolean | Error> {
  return origins.length ? attempt(() => browser.permissions.request({ origins })) : Promise.resolve(true);
}
