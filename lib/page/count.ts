/** Honest counts of the numbers on a tab: pure helpers shared by the content script, background and popup. */

/** How many different numbers (E.164) `matches` hold: the true count, whatever the report's cap. */
export function countNumbers(matches: Iterable<{ e164: string }>): number {
  const seen = new Set<string>();
  for (const m of matches) seen.add(m.e164);
  return seen.size;
}

/**
 * A count for the 4-character toolbar badge: 7, 999, 1.2k, 5k, 12k, 999k, 1.5M. Rounded down, so
 * the badge never claims more than there is.
 */
export function compactCount(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return '';
  const count = Math.floor(n);
  if (count < 1000) return String(count);
  const [unit, size] = count < 1_000_000 ? ['k', 1000] : ['M', 1_000_000];
  const value = count / size;
  const shown = value < 10 ? Math.floor(value * 10) / 10 : Math.floor(value);
  return shown >= 1000 && unit === 'k' ? '1M' : `${shown}${unit}`;
}

/**
 * The tab's total across frames: numbers every frame reported (each once), plus what each frame
 * found beyond its report's cap (those cannot be matched across frames, so they are added as they are).
 */
export function tabTotal(frames: Iterable<{ numbers: readonly { e164: string }[]; total?: number }>): number {
  const seen = new Set<string>();
  let beyond = 0;
  for (const frame of frames) {
    for (const n of frame.numbers) seen.add(n.e164);
    beyond += Math.max(0, (frame.total ?? frame.numbers.length) - frame.numbers.length);
  }
  return seen.size + beyond;
}
