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
