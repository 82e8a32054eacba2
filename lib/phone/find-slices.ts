/**
 * A text longer than one page/find request takes (a raw CSV in one <pre>, a log, an export in a
 * read-only field) is read in slices, each a request's text at most. The slices overlap: slice k
 * reads `OVERLAP` characters on either side of the stretch it owns, and keeps only the numbers that
 * start in that stretch. A number shorter than OVERLAP (every one: the finder's longest is well under
 * it) is then read whole, with the words before it, by the one slice that owns its start: found once,
 * never cut, wherever the slices end. Offsets are the whole text's. Pure.
 */
import type { FoundPhoneNumber } from './find';

/** Characters each slice reads past each end of the stretch it owns. */
export const OVERLAP = 120;

export interface Slice {
  /** Where the slice's text starts in the whole text. */
  from: number;
  /** The stretch it owns: numbers starting in [start, end) are its. */
  start: number;
  end: number;
  text: string;
}

/** Cuts prefer a line's end, else a space, within this many characters before the target. */
const CUT_WINDOW = 400;

const NEWLINE = 10;
const SPACE = 32;

/**
 * The last `code` at or before `from` and not before `floor`, else -1. Bounded on purpose:
 * `lastIndexOf` searches back to the text's start when the character is not there, and a page's
 * text has its line breaks collapsed to spaces, so a 1 MB text searched that way once per slice
 * cost the page 120 ms.
 */
function lastWithin(text: string, code: number, from: number, floor: number): number {
  for (let i = from; i >= floor; i--) if (text.charCodeAt(i) === code) return i;
  return -1;
}

/**
 * The slice owning the stretch from `start`, its text at most `maxChars` long (the last slice may be
 * shorter). Cut after a line break or a space near the target where there is one.
 */
export function sliceAt(text: string, start: number, maxChars: number): Slice {
  const own = Math.max(1, maxChars - 2 * OVERLAP);
  let end = Math.min(text.length, start + own);
  if (end < text.length) {
    const floor = Math.max(start + 1, end - CUT_WINDOW);
    const line = lastWithin(text, NEWLINE, end - 1, floor);
    if (line >= 0) end = line + 1;
    else {
      const space = lastWithin(text, SPACE, end - 1, floor);
      if (space >= 0) end = space + 1;
    }
  }
  const from = Math.max(0, start - OVERLAP);
  return { from, start, end, text: text.slice(from, Math.min(text.length, end + OVERLAP)) };
}

/** A slice's numbers (offsets in its own text) as the whole text's, less those another slice owns. */
export function ownNumbers(slice: Slice, found: readonly FoundPhoneNumber[]): FoundPhoneNumber[] {
  const kept: FoundPhoneNumber[] = [];
  for (const m of found) {
    const start = m.start + slice.from;
    if (start < slice.start || start >= slice.end) continue;
    kept.push({ ...m, start, end: m.end + slice.from });
  }
  return kept;
}
