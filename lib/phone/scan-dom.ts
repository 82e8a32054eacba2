/** The DOM side of the scanner: which elements are skipped, how text is grouped and labelled (see ./scan.ts). */
import { elementJoint } from './joints';
import type { TextPiece } from './scan-types';

// DOM constants as numbers: no browser globals at import time.
export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const DOCUMENT_NODE = 9;
export const DOCUMENT_FRAGMENT_NODE = 11;
export const FILTER_ACCEPT = 1;
export const FILTER_REJECT = 2;
export const FILTER_SKIP = 3;

export const DEFAULT_OPT_OUT = 'data-no-click-to-call';

/**
 * The attributes whose changes can add or remove matches. Observe only these
 * (`attributeFilter: OBSERVED_ATTRIBUTES, attributeOldValue: true`): class and style flips are
 * constant on busy pages, and with old values a style change that does not toggle display:none is
 * ignored.
 */
export const OBSERVED_ATTRIBUTES: readonly string[] = [
  'hidden',
  'style',
  'contenteditable',
  'aria-hidden',
  'href',
  'value',
  'readonly',
  'disabled',
  'type',
  DEFAULT_OPT_OUT,
];
export const DEFAULT_CHUNK = 100;

/** Never scanned, with their subtrees. Fields (FIELD_TAGS) are special-cased for read-only values. */
export const SKIP_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'textarea', 'input', 'select', 'option', 'optgroup',
  'datalist', 'svg', 'math', 'head', 'title', 'iframe', 'frame', 'frameset', 'object', 'embed',
  'canvas', 'audio', 'video', 'noembed', 'noframes',
]);
export const CODE_TAGS = new Set(['code', 'pre']);
/**
 * Fields whose value the finder reads when the page made it read-only or disabled: a record's
 * phone field, and a text area's export (a CSV or log the tester copies numbers from).
 */
export const FIELD_TAGS: ReadonlySet<string> = new Set(['input', 'textarea']);

/** Elements that end a run of inline text. Anything else (span, a, b, custom elements…) is inline. */
export const BLOCK_TAGS = new Set([
  'html', 'body', 'address', 'article', 'aside', 'blockquote', 'caption', 'center', 'dd', 'details',
  'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1',
  'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'legend', 'li', 'main', 'menu', 'nav',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr',
  'ul', 'button', 'colgroup', 'col', 'search',
]);
/** Inline but replaced or opaque: a hard break in the text. */
export const BREAK_TAGS = new Set(['br', 'img', 'wbr', 'hr', 'meter', 'progress', 'picture']);

export { INPUT_TYPES_WITH_TEXT } from './candidate';
export const DISPLAY_NONE_RE = /(?:^|;)\s*display\s*:\s*none\s*(?:!important)?\s*(?:;|$)/i;
/** Collapsible white space (not NBSP), as a browser renders it: one space. */
export const COLLAPSIBLE_RE = /[ \t\n\r\f]+/g;
export const HAS_COLLAPSIBLE_RE = /[\t\n\r\f]| {2}/;

export type SkipReason = 'tag' | 'input' | 'code' | 'opt-out' | 'editable' | 'aria-hidden' | 'hidden' | 'display-none';

export function isElement(n: Node): n is Element {
  return n.nodeType === ELEMENT_NODE;
}
export function isText(n: Node): n is Text {
  return n.nodeType === TEXT_NODE;
}
export function isShadowRoot(n: Node): n is ShadowRoot {
  return n.nodeType === DOCUMENT_FRAGMENT_NODE && (n as ShadowRoot).host != null;
}
// HTML elements' local names are lowercase already (and HTML tags are what the sets below name);
// no toLowerCase() per element.
export function localNameOf(el: Element): string {
  return el.localName;
}

export function skipReason(el: Element, skipCode: boolean, optOut: string, tag: string = localNameOf(el)): SkipReason | null {
  const field = FIELD_TAGS.has(tag);
  if (!field && SKIP_TAGS.has(tag)) return 'tag';
  if (skipCode && CODE_TAGS.has(tag)) return 'code';
  if (!el.hasAttributes()) return field ? 'input' : null;
  if (el.hasAttribute(optOut)) return 'opt-out';
  const editable = el.getAttribute('contenteditable');
  if (editable !== null && editable.trim().toLowerCase() !== 'false') return 'editable';
  if (el.getAttribute('aria-hidden') === 'true') return 'aria-hidden';
  if (el.hasAttribute('hidden')) return 'hidden';
  const style = el.getAttribute('style');
  if (style && DISPLAY_NONE_RE.test(style)) return 'display-none';
  return field ? 'input' : null;
}

/** Parent across shadow boundaries (a shadow root's parent is its host). */
export function composedParent(n: Node): Node | null {
  if (isShadowRoot(n)) return n.host;
  return n.parentNode;
}

export function composedContains(ancestor: Node, node: Node): boolean {
  for (let n: Node | null = node; n; n = composedParent(n)) if (n === ancestor) return true;
  return false;
}

export function composedRoot(node: Node): Node {
  let n: Node = node;
  for (let p = composedParent(n); p; p = composedParent(n)) n = p;
  return n;
}

export function isBlockElement(n: Node): boolean {
  return isElement(n) && BLOCK_TAGS.has(localNameOf(n));
}

export function isTelLink(el: Element, tag: string = localNameOf(el)): string | null {
  if (tag !== 'a' && tag !== 'area') return null;
  const href = el.getAttribute('href');
  if (!href) return null;
  return /^\s*(?:tel|callto):/i.test(href) ? href : null;
}

const ENDS_WITH_COLON_RE = /:\s*$/;

export function elementText(el: Element | null | undefined, max = 80): string {
  if (!el) return '';
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length <= max ? text : '';
}

export function isCell(el: Element): boolean {
  const tag = localNameOf(el);
  return tag === 'td' || tag === 'th';
}

export function cellsOf(row: Element): Element[] {
  return Array.from(row.children).filter(isCell);
}

export function cellIndexOf(cell: Element): number {
  // HTMLTableCellElement.cellIndex counts the same cells (td/th children of its <tr>) natively.
  const native = (cell as HTMLTableCellElement).cellIndex;
  if (typeof native === 'number' && native >= 0) return native;
  let i = 0;
  for (let prev = cell.previousElementSibling; prev; prev = prev.previousElementSibling) {
    if (isCell(prev)) i++;
  }
  return i;
}

/**
 * Memo of column headers: table → its header row, and that row's label per column index
 * (undefined = not computed yet). Only valid while the DOM cannot change (see PhoneScanner.headers).
 */
export type HeaderCache = Map<Element, { headerRow: Element | null; cells: Element[] | null; labels: (string | undefined)[] }>;

export function columnHeader(table: Element, row: Element | null, index: number, cache: HeaderCache | null): string {
  let entry = cache?.get(table);
  if (!entry) {
    // A list view's column headers: thead, or else the table's first row.
    entry = { headerRow: table.querySelector('thead tr') ?? table.querySelector('tr'), cells: null, labels: [] };
    cache?.set(table, entry);
  }
  if (!entry.headerRow || entry.headerRow === row) return '';
  const hit = entry.labels[index];
  if (hit !== undefined) return hit;
  entry.cells ??= cellsOf(entry.headerRow);
  const headCell = entry.cells[index];
  const header = headCell && localNameOf(headCell) === 'th' ? elementText(headCell) : '';
  entry.labels[index] = header;
  return header;
}

const ARIA_CELL = /^(?:gridcell|cell)$/;
const ARIA_HEAD = '[role="columnheader"]';

/** The header of an ARIA grid/table cell's column (div grids: AG Grid, Airtable, sheets), by aria-colindex or position. */
function ariaColumnHeader(cell: Element, cache: HeaderCache | null): string {
  const row = cell.parentElement;
  const grid = row?.closest('[role="grid"],[role="table"],[role="treegrid"]');
  if (!row || !grid) return '';
  let entry = cache?.get(grid);
  if (!entry) {
    const headerRow = grid.querySelector(ARIA_HEAD)?.closest('[role="row"]') ?? null;
    entry = { headerRow, cells: headerRow ? Array.from(headerRow.querySelectorAll(ARIA_HEAD)) : null, labels: [] };
    cache?.set(grid, entry);
  }
  if (!entry.headerRow || entry.headerRow === row || !entry.cells) return '';
  const colindex = Number(cell.getAttribute('aria-colindex'));
  let index = colindex > 0 ? colindex - 1 : 0;
  if (!(colindex > 0)) for (let prev = cell.previousElementSibling; prev; prev = prev.previousElementSibling) index++;
  const hit = entry.labels[index];
  if (hit !== undefined) return hit;
  const head = colindex > 0 ? entry.cells.find((h) => Number(h.getAttribute('aria-colindex')) === colindex) : entry.cells[index];
  return (entry.labels[index] = head ? elementText(head) : '');
}

/** A short text that labels the field `container` is the value of, if the markup says so. */
export function labelFor(container: Node, headers: HeaderCache | null = null): string {
  if (!isElement(container)) return '';
  // A table cell seldom has attributes: skip the three lookups then (this runs once per cell).
  const hasAttributes = container.hasAttributes();
  const own = hasAttributes ? (container.getAttribute('data-label') ?? container.getAttribute('aria-label')) : null;
  if (own) return own;
  const labelledBy = hasAttributes ? container.getAttribute('aria-labelledby') : null;
  if (labelledBy && container.ownerDocument) {
    const text = labelledBy
      .split(/\s+/)
      .map((id) => elementText(container.ownerDocument.getElementById(id)))
      .join(' ')
      .trim();
    if (text) return text;
  }
  const tag = localNameOf(container);
  if (tag === 'td' || tag === 'th') {
    // Column header of a list view (thead, or a first row of <th>), else a row header <th>.
    const table = container.closest('table');
    if (table) {
      const header = columnHeader(table, container.parentElement, cellIndexOf(container), headers);
      if (header) return header;
    }
    const rowHeader = container.previousElementSibling;
    if (rowHeader && localNameOf(rowHeader) === 'th') return elementText(rowHeader);
    return '';
  }
  if (tag === 'dd') {
    let prev = container.previousElementSibling;
    while (prev && localNameOf(prev) === 'dd') prev = prev.previousElementSibling;
    return prev && localNameOf(prev) === 'dt' ? elementText(prev) : '';
  }
  // A div grid's cell (the value may sit in an element inside it).
  for (let el: Element | null = container, hops = 0; el && hops < 3; el = el.parentElement, hops++) {
    const role = el.getAttribute('role');
    if (role && ARIA_CELL.test(role)) {
      const header = ariaColumnHeader(el, headers);
      if (header) return header;
      break;
    }
  }
  // Form layouts: <span class="slds-form-element__label">Phone</span><div class="…control">…
  for (let el: Element | null = container, hops = 0; el && hops < 2; el = el.parentElement, hops++) {
    const prev = el.previousElementSibling;
    if (!prev) continue;
    const prevTag = localNameOf(prev);
    const cls = prev.getAttribute('class') ?? '';
    if (prevTag === 'label' || prevTag === 'dt' || prevTag === 'th' || /label/i.test(cls)) return elementText(prev, 60);
    // Ends with ":" once white space is collapsed and trimmed iff its raw text does: test that first
    // (most siblings are other values, not labels).
    if (ENDS_WITH_COLON_RE.test(prev.textContent ?? '')) {
      const text = elementText(prev, 60);
      if (text) return text;
    }
  }
  return '';
}

export function inputLabel(input: Element): string {
  const labels = (input as HTMLInputElement).labels;
  const fromLabel = labels && labels.length > 0 ? elementText(labels[0]) : '';
  const words = [
    fromLabel,
    input.getAttribute('aria-label') ?? '',
    input.getAttribute('placeholder') ?? '',
    input.getAttribute('name') ?? '',
    input.getAttribute('id') ?? '',
  ].join(' ');
  // account_number, accountNumber → "account number"
  return words.replace(/[_\-.]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
}

export interface OpenGroup {
  container: Node;
  /** Text of a non-container walk root: covered by its container's own group, so not reported. */
  discard: boolean;
  /** Created with the first text: most containers (rows, table sections, layout divs) have none of their own. */
  parts: string[] | null;
  pieces: TextPiece[] | null;
  length: number;
  lastChar: string;
  lastNode: Text | null;
  pendingBreak: boolean;
}

export function openGroup(container: Node, discard = false): OpenGroup {
  return { container, discard, parts: null, pieces: null, length: 0, lastChar: '', lastNode: null, pendingBreak: false };
}

/** Adds the node's text to the group; returns its length (the node's data is read once: each read costs the content script's world a DOM call and a string). */
export function appendText(group: OpenGroup, node: Text): number {
  const data = node.data;
  if (data.length === 0) return 0;
  // Collapse white space as rendered: libphonenumber allows at most 4 punctuation characters in a
  // row, and HTML source indentation inside a number ("(415)\n      555-0132") is common.
  const collapsed = HAS_COLLAPSIBLE_RE.test(data);
  const text = collapsed ? data.replace(COLLAPSIBLE_RE, ' ') : data;
  if (group.length > 0) {
    // Parents are read only here: most groups (a cell's text) are one node.
    const joint = group.pendingBreak ? '\n' : group.lastNode!.parentNode === node.parentNode ? '' : elementJoint(group.lastChar, text[0]!, group.lastNode!, node);
    if (joint) {
      group.parts!.push(joint);
      group.length += 1;
      if (joint === '\n') group.lastChar = joint;
    }
  }
  group.pendingBreak = false;
  const piece: TextPiece = { node, data, at: group.length, collapsed };
  // Most groups are one node: arrays made with their first entry are a fraction of the size of
  // an empty one grown by push (V8 gives a pushed-to array room for 17).
  if (group.pieces === null) group.pieces = [piece];
  else group.pieces.push(piece);
  if (group.parts === null) group.parts = [text];
  else group.parts.push(text);
  group.length += text.length;
  group.lastChar = text[text.length - 1]!;
  group.lastNode = node;
  return data.length;
}

/** Where a text's white-space runs of two or more characters stand once collapsed, and the characters they lost so far. */
interface Runs {
  data: string;
  /** Collapsed offset of each run's one space. */
  at: number[];
  /** Characters dropped by this run and every run before it. */
  dropped: number[];
}
let lastRuns: Runs | null = null;

function runsOf(data: string): Runs {
  if (lastRuns?.data === data) return lastRuns;
  const at: number[] = [];
  const dropped: number[] = [];
  let lost = 0;
  const re = /[ \t\n\r\f]{2,}/g;
  for (let m = re.exec(data); m; m = re.exec(data)) {
    at.push(m.index - lost);
    lost += m[0].length - 1;
    dropped.push(lost);
  }
  return (lastRuns = { data, at, dropped });
}

/** The length of `data` with its white-space runs collapsed (read from its runs, not a copy). */
export function collapsedLength(data: string): number {
  const { dropped } = runsOf(data);
  return data.length - (dropped.length > 0 ? dropped[dropped.length - 1]! : 0);
}

/**
 * Offset in `data` of the `index`-th character of its white-space-collapsed form. A binary search
 * over the text's runs (kept for the last text asked: a long text's numbers are placed one after
 * another), so placing a thousand numbers in a 1 MB text node costs one pass over it, not one each.
 */
export function uncollapse(data: string, index: number): number {
  const { at, dropped } = runsOf(data);
  // The last run whose space comes before `index`: consuming that space consumed its whole run.
  let lo = 0;
  let hi = at.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid]! < index) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return Math.min(data.length, index + (best >= 0 ? dropped[best]! : 0));
}

export function pieceAt(pieces: TextPiece[], offset: number, forEnd: boolean): { node: Text; offset: number } | null {
  // Last piece starting at or before `offset` (for an end offset: strictly before).
  let lo = 0;
  let hi = pieces.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = pieces[mid]!.at;
    if (forEnd ? at < offset : at <= offset) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best < 0) return null;
  const piece = pieces[best]!;
  // As read: an answer is placed only while its nodes still hold what was read (scan-away.ts).
  const data = piece.data;
  const within = offset - piece.at;
  const len = piece.collapsed ? collapsedLength(data) : data.length;
  if (!forEnd && within >= len) {
    // Starts on a synthetic separator: move to the next node.
    const next = pieces[best + 1];
    return next ? { node: next.node, offset: 0 } : null;
  }
  const clipped = Math.min(within, len);
  return { node: piece.node, offset: piece.collapsed ? uncollapse(data, clipped) : clipped };
}
