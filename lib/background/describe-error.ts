/** Turns anything thrown while talking to the service into words for a person (never the key). */
import { isApiError } from '../api/errors';
import { t } from '../i18n';
import type { StepError } from '../placement/outcome';
import { ActiveCallError } from '../calls/latest';
import type { ReplyError } from '../messages';
import { NoKeyError } from './service';

export function describeError(error: unknown): StepError & ReplyError {
  if (error instanceof NoKeyError) return { message: error.message, transient: false, kind: 'no-key' };
  if (error instanceof ActiveCallError) return { message: error.message, transient: false, kind: 'active-call' };
  if (isApiError(error)) {
    const transient = error.kind === 'network' || error.kind === 'timeout' || error.status === 429 || error.status >= 500;
    let message = error.message;
    if (error.status === 401) message = t('errors_keyRefused401', error.message);
    if (error.status === 403) message = t('errors_keyRefused403', error.message);
    return { message, status: error.status || undefined, transient, retryAfterMs: error.retryAfterMs, kind: error.kind };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message: message || t('errors_somethingWrong'), transient: false, kind: 'unexpected' };
}
