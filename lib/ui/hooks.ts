import { useEffect, useState } from 'preact/hooks';

/** The current time (ms), re-rendering every `intervalMs` while `active`. */
export function useNow(intervalMs = 1000, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}

/** Reads one query parameter of the page's URL (popup.html?dial=…, sidepanel.html?call=…). */
export function queryParam(name: string, search: string = typeof location === 'undefined' ? '' : location.search): string | null {
  const value = new URLSearchParams(search).get(name);
  return value && value.length <= 256 ? value : null;
}

/**
 * False until the document has been visible for `delayMs` (then true for good); true at once when
 * not `guarded`. Arms the Confirm of a confirmation a page asked for, so a keystroke or click aimed
 * at the page when the window popped up cannot confirm it.
 */
export function useArmedAfterShown(delayMs: number, guarded: boolean): boolean {
  const [armed, setArmed] = useState(!guarded);
  useEffect(() => {
    if (!guarded) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const restart = () => {
      clearTimeout(timer);
      // Time spent hidden does not count: the user has not seen the window yet.
      if (document.visibilityState !== 'hidden') timer = setTimeout(() => setArmed(true), delayMs);
    };
    restart();
    document.addEventListener('visibilitychange', restart);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', restart);
    };
  }, [delayMs, guarded]);
  return armed;
}
