/** A service error in words for a person (never the key), and whether the engine may try again by itself. */
import { isApiError } from '../api/errors';
import { t } from '../i18n';
import type { StepError } from './outcome';

export function describeServiceError(error: unknown): StepError & { kind?: string } {
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
