/**
 * What separates the text of two inline-adjacent text nodes of one container, where their parents
 * differ (`<span>Phone</span><span>(503) 555-0100</span>`): the scanner joins a container's text
 * nodes, and a reader sees some element boundaries as breaks and others as nothing at all.
 *
 * - Elements the page lays out as their own boxes (display block, list-item, table-cell…, or the
 *   items of a flex/grid container) are separate lines: "\n".
 * - Inline elements join (`<span>415</span>-<span>555</span>`), with a space where words or a
 *   bracket would otherwise glue (`<b>Phone</b>(415)…` reads "Phone (415)…").
 *
 * The computed style is read only where a digit, bracket or "+" meets something that is not white
 * space: the few joints where joining could make or break a number.
 */

const WORD_RE = /[\p{L}\p{N}]/u;
const NUMBERISH_RE = /[\d()+\uFF10-\uFF19]/;
const SPACE_RE = /\s/;
const ELEMENT_NODE = 1;

function isInline(display: string): boolean {
  // '' : DOMs without layout (happy-dom for an unstyled inline element).
  return display === '' || display === 'contents' || display.startsWith('inline');
}

function displayOf(view: Window, node: Node): string {
  return node.nodeType === ELEMENT_NODE ? view.getComputedStyle(node as Element).display : '';
}

/** Does the page draw the elements between text nodes `a` (first) and `b` as separate boxes? */
export function laidOutApart(a: Text, b: Text): boolean {
  const view = b.ownerDocument?.defaultView;
  if (!view || typeof view.getComputedStyle !== 'function') return false;
  try {
    let common: Node | null = a.parentNode;
    for (; common && !common.contains(b); common = common.parentNode) {
      if (!isInline(displayOf(view, common))) return true;
    }
    for (let n = b.parentNode; n && n !== common; n = n.parentNode) {
      if (!isInline(displayOf(view, n))) return true;
    }
    // The children of a flex or grid container are laid out as blocks, whatever their display.
    return common !== null && /flex|grid/.test(displayOf(view, common)) && !isInline(displayOf(view, common));
  } catch {
    return false;
  }
}

/** The text to put between `before` (last char of a's text) and `after` (first char of b's text). */
export function elementJoint(before: string, after: string, a: Text, b: Text): string {
  if (SPACE_RE.test(before) || SPACE_RE.test(after)) return '';
  if ((NUMBERISH_RE.test(before) || NUMBERISH_RE.test(after)) && laidOutApart(a, b)) return '\n';
  return (WORD_RE.test(before) || before === ')') && (WORD_RE.test(after) || after === '(' || after === '+') ? ' ' : '';
}
