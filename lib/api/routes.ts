/**
 * Route forms where the spec and the live service disagree. The client speaks one form first, falls
 * back to the other when the first is missing, and remembers per base URL which form worked, so the
 * next call goes straight to it. Memory is an in-process map, optionally mirrored to a store the
 * extension provides (for example `browser.storage.local`).
 */
import { isRouteMissing } from './errors';

export type RouteForm = 'spec' | 'live';
export type RouteForms = Record<string, RouteForm>;

/** Persistence the extension may plug in; both methods may be sync or async. */
export interface RouteMemoryStore {
  get(baseUrl: string): RouteForms | undefined | Promise<RouteForms | undefined>;
  set(baseUrl: string, forms: RouteForms): void | Promise<void>;
}

/** The route pairs that differ (names are stable: they are the persisted keys). */
export const ROUTE_KEYS = {
  /** spec `POST /batches/schedule` (form batch_id, scheduled_at) vs live `POST /batches/{id}/schedule`. */
  batchSchedule: 'batch.schedule',
  /** spec `GET /batches/{agent_id}` vs live `GET /batches/{agent_id}/all`. */
  agentBatches: 'agent.batches',
  /** live and spec 4.3 `GET /batches/{id}/executions` (tried first) vs spec 4.4 `GET /batch/{id}/executions`. */
  batchExecutions: 'batch.executions',
  /** spec `POST /phone-numbers/all` vs live `GET /phone-numbers/all`. */
  phoneNumberList: 'phone-numbers.list',
  /** spec `DELETE /phone-numbers/delete` with `{id}` vs live `DELETE /phone-numbers/{id}`. */
  phoneNumberDelete: 'phone-numbers.delete',
  /** live `GET /v2/agent/{id}` (tried first) vs deprecated spec `GET /agent/{id}`. */
  agentGet: 'agent.get',
  /** `GET /v2/agent/{id}/executions` envelope (tried first; labelled live) vs deprecated `GET /agent/{id}/executions` array (spec). */
  agentExecutions: 'agent.executions',
  /** live `POST /v2/agent` (tried first) vs deprecated spec `POST /agent`. */
  agentCreate: 'agent.create',
  /** live `PUT /v2/agent/{id}` (tried first) vs deprecated spec `PUT /agent/{id}`. */
  agentReplace: 'agent.replace',
  /** live `PATCH /v2/agent/{id}` (tried first) vs deprecated spec `PATCH /agent/{id}`. */
  agentPatch: 'agent.patch',
  /** live `POST /call` (a call placed at once) vs spec: no such route, the call goes out as a single-call batch. */
  callStart: 'call.start',
} as const;
export type RouteKey = (typeof ROUTE_KEYS)[keyof typeof ROUTE_KEYS];

const memory = new Map<string, RouteForms>();
const loaded = new Set<string>();

export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** Forgets what was learned (one base URL, or all). For tests and for "the user changed the service URL". */
export function clearRouteMemory(baseUrl?: string): void {
  if (baseUrl === undefined) {
    memory.clear();
    loaded.clear();
  } else {
    memory.delete(normalizeBaseUrl(baseUrl));
    loaded.delete(normalizeBaseUrl(baseUrl));
  }
}

/** What is remembered for a base URL right now (a copy). */
export function rememberedRoutes(baseUrl: string): RouteForms {
  return { ...(memory.get(normalizeBaseUrl(baseUrl)) ?? {}) };
}

export class RouteBook {
  readonly baseUrl: string;
  constructor(
    baseUrl: string,
    private readonly store?: RouteMemoryStore,
  ) {
    this.baseUrl = normalizeBaseUrl(baseUrl);
  }

  async recall(key: string): Promise<RouteForm | undefined> {
    const known = memory.get(this.baseUrl)?.[key];
    if (known) return known;
    if (this.store && !loaded.has(this.baseUrl)) {
      loaded.add(this.baseUrl);
      try {
        const stored = await this.store.get(this.baseUrl);
        if (stored && typeof stored === 'object') {
          const clean: RouteForms = {};
          for (const [k, v] of Object.entries(stored)) if (v === 'spec' || v === 'live') clean[k] = v;
          memory.set(this.baseUrl, { ...clean, ...(memory.get(this.baseUrl) ?? {}) });
        }
      } catch {
        // A broken store only costs a fallback round trip.
      }
    }
    return memory.get(this.baseUrl)?.[key];
  }

  remember(key: string, form: RouteForm): void {
    const forms = memory.get(this.baseUrl) ?? {};
    if (forms[key] === form) return;
    const next = { ...forms, [key]: form };
    memory.set(this.baseUrl, next);
    if (this.store) {
      try {
        Promise.resolve(this.store.set(this.baseUrl, { ...next })).catch(() => undefined);
      } catch {
        // Persistence is best effort.
      }
    }
  }
}

export interface DualRoute<T> {
  key: string;
  /** The form tried first when nothing is remembered. */
  first: RouteForm;
  spec: () => Promise<T>;
  live: () => Promise<T>;
  /**
   * When the first-tried form's error means "try the other form". Defaults to `isRouteMissing`.
   * Routes whose spec path collides with a live resource path (`/batches/{agent_id}` is read live as
   * a batch id) also fall back on a resource 404.
   */
  fallbackOn?: (error: unknown) => boolean;
}

/**
 * Calls the remembered form, or the route's first form then the other one. Learns the form that
 * answered. When both fail, the error that is not "route missing" is thrown (the more telling one).
 */
export async function callDual<T>(book: RouteBook, route: DualRoute<T>): Promise<T> {
  const remembered = await book.recall(route.key);
  const first: RouteForm = remembered ?? route.first;
  const other: RouteForm = first === 'spec' ? 'live' : 'spec';
  // A remembered form is trusted: only a truly missing route sends us to the other form.
  const shouldFallback = remembered ? isRouteMissing : (route.fallbackOn ?? isRouteMissing);
  try {
    const result = await route[first]();
    book.remember(route.key, first);
    return result;
  } catch (firstError) {
    if (!shouldFallback(firstError)) throw firstError;
    let result: T;
    try {
      result = await route[other]();
    } catch (otherError) {
      throw isRouteMissing(otherError) ? firstError : otherError;
    }
    book.remember(route.key, other);
    return result;
  }
}
