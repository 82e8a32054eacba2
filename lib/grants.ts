/**
 * Follows the browser's grants of optional permissions: a grant made in extension UI, or one taken
 * back in the browser's own extension settings. A browser without these events (and the unit tests'
 * fake) has nothing to follow: callers read the grants again after each change they make themselves.
 */
import { browser } from './browser';

export function watchGrants(listener: () => void): () => void {
  try {
    browser.permissions.onAdded.addListener(listener);
    browser.permissions.onRemoved.addListener(listener);
  } catch {
    return () => undefined;
  }
  return () => {
    browser.permissions.onAdded.removeListener(listener);
    browser.permissions.onRemoved.removeListener(listener);
  };
}
