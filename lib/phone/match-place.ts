/** Where a match stands on the page: its Range, and the results key of a node under the pointer (see ./scan.ts). */
import { DOCUMENT_NODE, DOCUMENT_FRAGMENT_NODE, isBlockElement, isText } from './scan-dom';
import type { PhoneMatch } from './scan-types';

/** A Range over the match (text span, or the whole link/input element), for getClientRects(). */
export function matchToRange(match: PhoneMatch): Range | null {
  const node = match.source === 'text' ? match.startNode : match.element;
  const doc = node.ownerDocument;
  if (!doc) return null;
  const range = doc.createRange();
  try {
    if (match.source === 'text') {
      range.setStart(match.startNode, Math.min(match.startOffset, match.startNode.data.length));
      range.setEnd(match.endNode, Math.min(match.endOffset, match.endNode.data.length));
    } else {
      range.selectNode(match.element);
    }
  } catch {
    return null;
  }
  return range;
}

/** The results key for an element under the pointer: its text container (see Scanner.results). */
export function containerKeyOf(node: Node): Node {
  let n: Node | null = isText(node) ? node.parentNode : node;
  let last: Node = node;
  while (n) {
    if (n.nodeType === DOCUMENT_NODE || n.nodeType === DOCUMENT_FRAGMENT_NODE || isBlockElement(n)) return n;
    last = n;
    n = n.parentNode;
  }
  return last;
}
