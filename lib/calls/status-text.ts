/**
 * The call statuses in the UI's language: `statusText` and `statusExplanation` say through t() what
 * `statusLabel` / STATUS_EXPLANATIONS say in English (kept apart so lib/calls/status.ts stays free of
 * the extension API for the node tools that import it).
 */
import { t } from '../i18n';
import { STATUS_EXPLANATION_KEYS, STATUS_LABEL_KEYS } from './status';

/** A person's words for a status; an unknown status as the service wrote it. */
export function statusText(status: string | null | undefined): string {
  if (!status) return t('calls_statusUnknown');
  const key = STATUS_LABEL_KEYS[status];
  return key ? t(key) : status;
}

/** The plain explanation of a terminal status, if it has one. */
export function statusExplanation(status: string): string | undefined {
  const key = STATUS_EXPLANATION_KEYS[status];
  return key ? t(key) : undefined;
}
