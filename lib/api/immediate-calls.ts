/**
 * The client's immediate calls (live only, not in the spec): `POST /call` places one call at once,
 * `POST /call/{execution_id}/stop` stops it while it is queued or scheduled. Whether the service has
 * the route is remembered per base URL with the other route forms, so a caller can go straight to the
 * single-call batch where it is missing. Part of `createClient` (client.ts), kept apart for size.
 */
import { isRouteMissing } from './errors';
import type { Http, HttpMethod } from './http';
import { ROUTE_KEYS, type RouteBook } from './routes';
import { callStarted, callStartRequest, callStopped, type CallStarted, type CallStartRequest, type CallStopped } from './schemas';
import type { z } from './zod';

export interface ImmediateCalls {
  startCall(request: CallStartRequest, options?: { signal?: AbortSignal }): Promise<CallStarted>;
  stopCall(executionId: string, options?: { signal?: AbortSignal }): Promise<CallStopped>;
  /** Whether `POST /call` is known to exist at this base URL (true), to be missing (false), or not known yet. */
  offersStartCall(): Promise<boolean | undefined>;
}

export interface ClientParts {
  http: Http;
  routes: RouteBook;
  /** Strict check of a request before it is sent (the client's own). */
  check<S extends z.ZodType>(schema: S, value: unknown, method: HttpMethod, path: string): z.output<S>;
  /** A checked, encoded path segment (the client's own). */
  seg(name: string, value: unknown, method: HttpMethod, path: string): string;
}

export function immediateCalls({ http, routes, check, seg }: ClientParts): ImmediateCalls {
  return {
    async startCall(request, options) {
      const json = check(callStartRequest, request, 'POST', '/call');
      try {
        const started = await http.request({ method: 'POST', path: '/call', json, schema: callStarted, signal: options?.signal });
        routes.remember(ROUTE_KEYS.callStart, 'live');
        return started;
      } catch (error) {
        // Remembered per base URL, so the next call goes straight to the batch where the route is missing.
        if (isRouteMissing(error)) routes.remember(ROUTE_KEYS.callStart, 'spec');
        throw error;
      }
    },

    async stopCall(executionId, options) {
      const id = seg('execution_id', executionId, 'POST', '/call/{execution_id}/stop');
      return http.request({ method: 'POST', path: `/call/${id}/stop`, schema: callStopped, signal: options?.signal });
    },

    async offersStartCall() {
      const form = await routes.recall(ROUTE_KEYS.callStart);
      return form === undefined ? undefined : form === 'live';
    },
  };
}
