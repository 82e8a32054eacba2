/**
 * Pure: which key goes with a base URL being saved. A base URL is saved together with its key: one
 * typed now, the one already saved for that origin, or, on a confirmation naming both origins, the
 * key moved from another origin. A key is never carried to another origin silently.
 */
import { t } from '../i18n';

export type KeyChoice =
  | { action: 'write'; key: string }
  /** The origin already has its key. */
  | { action: 'keep' }
  | { action: 'move'; from: string }
  | { action: 'refuse'; message: string };

export interface KeyChoiceInput {
  /** Origin of the base URL being saved. */
  origin: string;
  /** Origin of the base URL saved until now. */
  previousOrigin: string;
  /** A key typed in the form (already cleaned), if any. */
  typedKey: string | null;
  /** The origin whose key the person confirmed moving to `origin`, if any. */
  moveKeyFrom: string | null;
  /** Origins that have a key saved. */
  keyOrigins: string[];
}

export function chooseKey({ origin, previousOrigin, typedKey, moveKeyFrom, keyOrigins }: KeyChoiceInput): KeyChoice {
  if (typedKey) return { action: 'write', key: typedKey };
  if (moveKeyFrom !== null) {
    if (moveKeyFrom === origin && keyOrigins.includes(origin)) return { action: 'keep' };
    if (moveKeyFrom === origin || !keyOrigins.includes(moveKeyFrom)) {
      return { action: 'refuse', message: t('keys_nothingToMove', moveKeyFrom, origin) };
    }
    return { action: 'move', from: moveKeyFrom };
  }
  if (keyOrigins.includes(origin)) return { action: 'keep' };
  if (keyOrigins.includes(previousOrigin)) {
    return {
      action: 'refuse',
      message: t('keys_savedForOther', previousOrigin, origin),
    };
  }
  return { action: 'refuse', message: t('keys_paste', origin) };
}
