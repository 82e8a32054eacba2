/**
 * Which found number is under the pointer or holds keyboard focus, and where the call button goes.
 * Pure apart from reading geometry through `rectsOf` (tests pass their own boxes).
 */
import { containerKeyOf, matchToRange } from '../phone/match-place';
import type { PhoneMatch } from '../phone/scan-types';

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type Results = ReadonlyMap<Node, readonly PhoneMatch[]>;
/** Client rects of a match: its Range's line boxes (text), or the element's boxes (link, input). */
export type RectsOf = (match: PhoneMatch) => readonly Box[];

export interface Hit {
  match: PhoneMatch;
  /** The line box the pointer is in (or the first one, for focus): the button is placed by it. */
  box: Box;
}

const ELEMENT_NODE = 1;
const isElement = (t: unknown): t is Element => !!t && (t as Node).nodeType === ELEMENT_NODE;

export function clientRectsOf(match: PhoneMatch): Box[] {
  if (match.source !== 'text') return [...match.element.getClientRects()];
  const range = matchToRange(match);
  return range ? [...range.getClientRects()] : [];
}

export function boxContains(box: Box, x: number, y: number, pad = 0): boolean {
  return x >= box.left - pad && x <= box.right + pad && y >= box.top - pad && y <= box.bottom + pad;
}

/** A link or input that is itself a results key (its own number), from the innermost target outwards. */
function elementMatch(path: readonly EventTarget[], results: Results): PhoneMatch | null {
  for (const target of path) {
    if (!isElement(target)) continue;
    const own = results.get(target);
    if (own?.[0] && own[0].source !== 'text') return own[0];
    if (containerKeyOf(target) === target) break; // a block: links and inputs sit inside it
  }
  return null;
}

/**
 * The number at client point (x, y). `path` is the pointer event's composed path, innermost first
 * (it reaches into open shadow roots). Links and read-only inputs count as a whole; text numbers
 * only where one of their line boxes is.
 */
export function hitTest(path: readonly EventTarget[], x: number, y: number, results: Results, rectsOf: RectsOf = clientRectsOf): Hit | null {
  const first = path[0];
  if (!first || !(first as Node).nodeType) return null;
  const own = elementMatch(path, results);
  if (own) {
    const boxes = rectsOf(own);
    const box = boxes.find((b) => boxContains(b, x, y, 1)) ?? boxes[0];
    return box ? { match: own, box } : null;
  }
  for (const match of results.get(containerKeyOf(first as Node)) ?? []) {
    if (match.source !== 'text') continue;
    const box = rectsOf(match).find((b) => boxContains(b, x, y, 1));
    if (box) return { match, box };
  }
  return null;
}

/** The number a focused element shows: the element's own (link, input), or a text number inside it. */
export function hitForFocus(element: Element, results: Results, rectsOf: RectsOf = clientRectsOf): Hit | null {
  const own = elementMatch([element], results);
  const candidates = own ? [own] : (results.get(containerKeyOf(element)) ?? []).filter(
    (m) => m.source === 'text' && (element.contains(m.startNode) || element.contains(m.endNode)),
  );
  for (const match of candidates) {
    const box = rectsOf(match)[0];
    if (box) return { match, box };
  }
  return null;
}

/**
 * Where the button goes: just below the number's line box, or above it when there is no room
 * below; always inside the viewport. It never covers the number itself.
 */
export function placeButton(
  anchor: Box,
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  gap = 2,
): { left: number; top: number } {
  let top = anchor.bottom + gap;
  if (top + size.height > viewport.height && anchor.top - gap - size.height >= 0) top = anchor.top - gap - size.height;
  top = Math.max(0, Math.min(top, viewport.height - size.height));
  const left = Math.max(0, Math.min(anchor.left, viewport.width - size.width));
  return { left: Math.round(left), top: Math.round(top) };
}

/** Same line box (a re-hit on the same number need not move the button). */
export function sameBox(a: Box | null | undefined, b: Box | null | undefined): boolean {
  return !!a && !!b && a.left === b.left && a.top === b.top && a.right === b.right && a.bottom === b.bottom;
}
