/**
 * Error answers. The spec (section 7) says every 4xx/5xx is JSON `{error: int, message}`; `error` is
 * "an internal code", and we use the HTTP status so it is predictable in tests.
 *
 * Two kinds of 404 must stay distinguishable, because the client falls back from the spec's form of
 * a route to the live one only when the *route* is missing:
 * - route 404: message exactly `Not Found` (ROUTE_NOT_FOUND_MESSAGE), like a framework's default;
 * - resource 404: message names the resource, e.g. `Batch not found`.
 */
export const ROUTE_NOT_FOUND_MESSAGE = 'Not Found';
export const METHOD_NOT_ALLOWED_MESSAGE = 'Method Not Allowed';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Answered in the live service's `{detail}` form instead of the spec's `{error, message}`. */
    readonly liveForm = false,
  ) {
    super(message);
  }
  body(): { error: number; message: string } | { detail: string } {
    return this.liveForm ? { detail: this.message } : { error: this.status, message: this.message };
  }
}

export const errorBody = (status: number, message: string) => ({ error: status, message });

export const badRequest = (message: string) => new ApiError(400, message);
export const required = (name: string) => new ApiError(400, `${name} is required`);
export const unauthorized = (message: string) => new ApiError(401, message);
/**
 * A key the service refuses: the spec's 401 `{error, message}`, or, where the sandbox plays the live
 * service (`--routes live`), what that answers: 403 `{detail}` (service-facts.md, "Conventions").
 */
export const keyRefused = (message: string, live: boolean) => (live ? new ApiError(403, message, {}, true) : unauthorized(message));
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (resource: string) => new ApiError(404, `${resource} not found`);
export const unprocessable = (message: string) => new ApiError(422, message);
export const internalError = () => new ApiError(500, 'internal server error');
export const routeNotFound = () => new ApiError(404, ROUTE_NOT_FOUND_MESSAGE);
export const methodNotAllowed = (allow: string[]) =>
  new ApiError(405, METHOD_NOT_ALLOWED_MESSAGE, { Allow: allow.join(', ') });
