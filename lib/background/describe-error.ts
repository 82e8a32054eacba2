/** Turns anything thrown while talking to the service into words for a person (never the key). */
import { isApiError } from '../api/errors';
import type { StepError } from '../calls/dial';
import { ActiveCallError } from '../calls/latest';
import type { ReplyError } from '../messages';
import { NoKeyError } from './service';

export function describeError(error: unknown): StepError & ReplyError {
  if (error instanceof NoKeyError) return { message: error.message, transient: false, kind: 'no-key' };
  if (error instanceof ActiveCallError) return { message: error.message, transient: false, kind: 'active-call' };
  if (isApiError(error)) {
    const transient = error.kind === 'network' || error.kind === 'timeout' || error.status === 429 || error.status >= 500;
    let message = error.message;
    if (error.status === 401) message = `The service refused the API key (401 Unauthorized): ${error.message}`;
    if (error.status === 403) message = `The service refused the API key or this action for it (403 Forbidden): ${error.message}`;
    return { message, status: error.status || undefined, transient, retryAfterMs: error.retryAfterMs, kind: error.kind };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message: message || 'Something went wrong.', transient: false, kind: 'unexpected' };
}
