/**
 * DOM scanning: where on a page are the phone numbers?
 *
 * The scanner never changes the page. It reports each number with its DOM position (text nodes and
 * offsets, or the <a>/<input> element) so the content script can draw an overlay and build a Range
 * on demand (`matchToRange`).
 *
 * How it walks:
 * - One TreeWalker (elements + text) per root; its filter applies the skip rules to EVERY element
 *   it meets (and a skipped element's whole subtree is rejected). A walk that starts below the
 *   document (a mutation, a rescan) first checks the start node's ancestors, across shadow hosts.
 * - Text is read per "container": the nearest block element (div, p, td, li…), shadow root or
 *   document. Text nodes of inline descendants (span, b, a, custom elements) are joined, so
 *   `<span>+1 415</span><span> 555 0132</span>` is one number. A block child, <br>, a replaced or
 *   skipped element is a hard break ("\n"); so is a joint of touching elements the page lays out
 *   as separate boxes (./joints.ts: display block, flex/grid items…, read only where a digit meets
 *   text); where inline elements meet word to word a space is assumed (`<b>Phone</b>(415)…`).
 * - National-format numbers are read with the country the page gives them (./page-country.ts).
 * - Results are keyed by container (text matches), by <a> (tel:/callto: links) and by <input>
 *   (read-only or disabled input values). A pointer over an element E can look up E's container.
 * - Open shadow roots are walked as their own roots (recursively); closed ones too when the caller
 *   passes `getShadowRoot` (e.g. `chrome.dom.openOrClosedShadowRoot`).
 * - Work is split in chunks of `chunkSize` text nodes: the caller runs `runChunk()` from
 *   requestIdleCallback (this module owns no timers).
 * - Mutations: `scanMutations(records)` rescans only the containers of characterData targets and
 *   childList targets, the added subtrees, and elements whose OBSERVED_ATTRIBUTES changed; results
 *   of removed nodes are dropped at once. Shadow trees need their own observer (`onShadowRoot`).
 *
 * Not detected: content hidden by stylesheets or classes (only the `hidden` attribute and inline
 * display:none are), numbers split across blocks or <br>, template content.
 */
import { findPhoneNumbers, mayContainPhoneNumber, parseTelHref, supportedCountry, type CountryCode, type FoundPhoneNumber } from './find';
import { findInContext, pageCountry, type CountryMemo } from './page-country';
import { elementJoint } from './joints';
import { hasPositiveContextBefore, labelKind } from './reject';

export interface ScanOptions {
  /** Country for numbers written without +country code. */
  defaultCountry?: CountryCode | string;
  /** Also skip <code> and <pre> (default false: support pages often put numbers in <pre>). */
  skipCode?: boolean;
  /** Elements carrying this attribute are skipped with their subtree. Default `data-no-click-to-call`. */
  optOutAttribute?: string;
  /** Text nodes per chunk for createScanner().runChunk(). Default 100. */
  chunkSize?: number;
  /** Shadow root of an element; default: the open one (`el.shadowRoot`). */
  getShadowRoot?: (element: Element) => ShadowRoot | null | undefined;
  /**
   * Called once per shadow root the scanner walks into. A document's MutationObserver does not see
   * changes inside shadow trees: observe each root reported here too, and pass its records to
   * scanMutations.
   */
  onShadowRoot?: (root: ShadowRoot) => void;
  /**
   * Walk into same-origin iframes' documents. Default false: the content script runs in every frame
   * (all_frames / match_about_blank) and each frame scans itself.
   */
  frames?: boolean;
  /** Use field labels (column header, <dt>, form label) to veto non-phone fields. Default true. */
  labels?: boolean;
  /**
   * Read national-format numbers with the country the page gives them (a place named before the
   * number, the row's Country/City cell, the record's address or heading; ./page-country.ts), and
   * never as the default country's when the page says they are elsewhere. Default true.
   */
  pageCountry?: boolean;
}

interface MatchBase {
  e164: string;
  country?: CountryCode;
  ext?: string;
  /** As written: the text span, the decoded href number, or the input value span. */
  raw: string;
}

export interface TextPhoneMatch extends MatchBase {
  source: 'text';
  /** The block element, shadow root or document whose text holds the number (results key). */
  container: Node;
  startNode: Text;
  startOffset: number;
  endNode: Text;
  /** Exclusive. */
  endOffset: number;
}

export interface LinkPhoneMatch extends MatchBase {
  source: 'link';
  element: Element;
  /** The href as written. */
  href: string;
  /** False when the number only has a possible length for its country (explicit links are kept anyway). */
  valid: boolean;
}

export interface InputPhoneMatch extends MatchBase {
  source: 'input';
  element: Element;
  /** Offsets into the input's value. */
  start: number;
  end: number;
}

export type PhoneMatch = TextPhoneMatch | LinkPhoneMatch | InputPhoneMatch;

/** One text node's place in a container's text. */
export interface TextPiece {
  node: Text;
  /** Where the node's (collapsed) text starts in the container's text. */
  at: number;
  /** True when white-space runs in the node were collapsed to one space (offsets differ from node.data). */
  collapsed: boolean;
}

/** One container's text as the finder sees it. */
export interface TextTarget {
  container: Node;
  /** Text nodes joined, white space collapsed as rendered, "\n" at block/br boundaries. */
  text: string;
  pieces: TextPiece[];
}

export interface ScanTargets {
  /** Containers whose text passes the digit prefilter. */
  texts: TextTarget[];
  /** tel:/callto: links. */
  links: Element[];
  /** Read-only/disabled text inputs with a value. */
  inputs: Element[];
}

export interface ScanStats {
  /** Text nodes read by walks (the chunk budget unit). */
  textNodes: number;
  /** Elements the walks' filter looked at. */
  elements: number;
  /** Containers whose text went to the finder (passed the digit prefilter). */
  finderCalls: number;
  chunks: number;
  /** Walks restarted because the DOM moved under a paused walk. */
  restarts: number;
}

export interface Scanner {
  /** Queue a full scan of `root` (a document, shadow root or element). */
  scanRoot(root: Node): void;
  /** Queue rescans of what the records touched; drop results of removed nodes right away. */
  scanMutations(records: Iterable<MutationRecord>): void;
  /** Do up to `chunkSize` text nodes of queued work. Returns true while work remains. */
  runChunk(): boolean;
  hasPendingWork(): boolean;
  /** Run all queued work now (tests, small pages). */
  flush(): void;
  /** Matches by key: container (text), <a> (link) or <input> (input value). */
  results(): ReadonlyMap<Node, readonly PhoneMatch[]>;
  /** All matches, flattened. */
  matches(): PhoneMatch[];
  /** Keys whose matches changed (set, replaced or removed) since the last call. */
  takeChanges(): Node[];
  /** Forget all results and queued work. */
  clear(): void;
  readonly stats: Readonly<ScanStats>;
}

// DOM constants as numbers: no browser globals at import time.
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const DOCUMENT_NODE = 9;
const DOCUMENT_FRAGMENT_NODE = 11;
const FILTER_ACCEPT = 1;
const FILTER_REJECT = 2;
const FILTER_SKIP = 3;

const DEFAULT_OPT_OUT = 'data-no-click-to-call';

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
const DEFAULT_CHUNK = 100;

/** Never scanned, with their subtrees. `input` is special-cased for read-only values. */
const SKIP_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'textarea', 'input', 'select', 'option', 'optgroup',
  'datalist', 'svg', 'math', 'head', 'title', 'iframe', 'frame', 'frameset', 'object', 'embed',
  'canvas', 'audio', 'video', 'noembed', 'noframes',
]);
const CODE_TAGS = new Set(['code', 'pre']);

/** Elements that end a run of inline text. Anything else (span, a, b, custom elements…) is inline. */
const BLOCK_TAGS = new Set([
  'html', 'body', 'address', 'article', 'aside', 'blockquote', 'caption', 'center', 'dd', 'details',
  'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1',
  'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'legend', 'li', 'main', 'menu', 'nav',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr',
  'ul', 'button', 'colgroup', 'col', 'search',
]);
/** Inline but replaced or opaque: a hard break in the text. */
const BREAK_TAGS = new Set(['br', 'img', 'wbr', 'hr', 'meter', 'progress', 'picture']);

const INPUT_TYPES_WITH_TEXT = new Set(['', 'text', 'tel', 'search']);
const DISPLAY_NONE_RE = /(?:^|;)\s*display\s*:\s*none\s*(?:!important)?\s*(?:;|$)/i;
/** Collapsible white space (not NBSP), as a browser renders it: one space. */
const COLLAPSIBLE_RE = /[ \t\n\r\f]+/g;
const HAS_COLLAPSIBLE_RE = /[\t\n\r\f]| {2}/;

type SkipReason = 'tag' | 'input' | 'code' | 'opt-out' | 'editable' | 'aria-hidden' | 'hidden' | 'display-none';

function isElement(n: Node): n is Element {
  return n.nodeType === ELEMENT_NODE;
}
function isText(n: Node): n is Text {
  return n.nodeType === TEXT_NODE;
}
function isShadowRoot(n: Node): n is ShadowRoot {
  return n.nodeType === DOCUMENT_FRAGMENT_NODE && (n as ShadowRoot).host != null;
}
// HTML elements' local names are lowercase already (and HTML tags are what the sets below name);
// no toLowerCase() per element.
function localNameOf(el: Element): string {
  return el.localName;
}

function skipReason(el: Element, skipCode: boolean, optOut: string, tag: string = localNameOf(el)): SkipReason | null {
  if (tag !== 'input' && SKIP_TAGS.has(tag)) return 'tag';
  if (skipCode && CODE_TAGS.has(tag)) return 'code';
  if (!el.hasAttributes()) return tag === 'input' ? 'input' : null;
  if (el.hasAttribute(optOut)) return 'opt-out';
  const editable = el.getAttribute('contenteditable');
  if (editable !== null && editable.trim().toLowerCase() !== 'false') return 'editable';
  if (el.getAttribute('aria-hidden') === 'true') return 'aria-hidden';
  if (el.hasAttribute('hidden')) return 'hidden';
  const style = el.getAttribute('style');
  if (style && DISPLAY_NONE_RE.test(style)) return 'display-none';
  return tag === 'input' ? 'input' : null;
}

/** Parent across shadow boundaries (a shadow root's parent is its host). */
function composedParent(n: Node): Node | null {
  if (isShadowRoot(n)) return n.host;
  return n.parentNode;
}

function composedContains(ancestor: Node, node: Node): boolean {
  for (let n: Node | null = node; n; n = composedParent(n)) if (n === ancestor) return true;
  return false;
}

function composedRoot(node: Node): Node {
  let n: Node = node;
  for (let p = composedParent(n); p; p = composedParent(n)) n = p;
  return n;
}

function isBlockElement(n: Node): boolean {
  return isElement(n) && BLOCK_TAGS.has(localNameOf(n));
}

function isTelLink(el: Element, tag: string = localNameOf(el)): string | null {
  if (tag !== 'a' && tag !== 'area') return null;
  const href = el.getAttribute('href');
  if (!href) return null;
  return /^\s*(?:tel|callto):/i.test(href) ? href : null;
}

function elementText(el: Element | null | undefined, max = 80): string {
  if (!el) return '';
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length <= max ? text : '';
}

function isCell(el: Element): boolean {
  const tag = localNameOf(el);
  return tag === 'td' || tag === 'th';
}

function cellsOf(row: Element): Element[] {
  return Array.from(row.children).filter(isCell);
}

function cellIndexOf(cell: Element): number {
  // HTMLTableCellElement.cellIndex counts the same cells (td/th children of its <tr>) natively.
  const native = (cell as HTMLTableCellElement).cellIndex;
  if (typeof native === 'number' && native >= 0) return native;
  let i = 0;
  for (let prev = cell.previousElementSibling; prev; prev = prev.previousElementSibling) {
    if (isCell(prev)) i++;
  }
  return i;
}

/** Any letter: both positive-context patterns (reject.ts hasPositiveContextBefore) need one. */
const HAS_LETTER_RE = /\p{L}/u;

/**
 * Memo of column headers: table → its header row, and that row's label per column index
 * (undefined = not computed yet). Only valid while the DOM cannot change (see PhoneScanner.headers).
 */
type HeaderCache = Map<Element, { headerRow: Element | null; cells: Element[] | null; labels: (string | undefined)[] }>;

function columnHeader(table: Element, row: Element | null, index: number, cache: HeaderCache | null): string {
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

/** A short text that labels the field `container` is the value of, if the markup says so. */
function labelFor(container: Node, headers: HeaderCache | null = null): string {
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
  // Form layouts: <span class="slds-form-element__label">Phone</span><div class="…control">…
  for (let el: Element | null = container, hops = 0; el && hops < 2; el = el.parentElement, hops++) {
    const prev = el.previousElementSibling;
    if (!prev) continue;
    const prevTag = localNameOf(prev);
    const cls = prev.getAttribute('class') ?? '';
    const text = elementText(prev, 60);
    if (prevTag === 'label' || prevTag === 'dt' || prevTag === 'th' || /label/i.test(cls) || /:\s*$/.test(text)) {
      return text;
    }
  }
  return '';
}

function inputLabel(input: Element): string {
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

interface OpenGroup {
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

function openGroup(container: Node, discard = false): OpenGroup {
  return { container, discard, parts: null, pieces: null, length: 0, lastChar: '', lastNode: null, pendingBreak: false };
}

function appendText(group: OpenGroup, node: Text): void {
  const data = node.data;
  if (data.length === 0) return;
  // Collapse white space as rendered: libphonenumber allows at most 4 punctuation characters in a
  // row, and HTML source indentation inside a number ("(415)\n      555-0132") is common.
  const collapsed = HAS_COLLAPSIBLE_RE.test(data);
  const text = collapsed ? data.replace(COLLAPSIBLE_RE, ' ') : data;
  const parent = node.parentNode;
  const parts = (group.parts ??= []);
  if (group.length > 0) {
    const joint = group.pendingBreak ? '\n' : group.lastNode!.parentNode === parent ? '' : elementJoint(group.lastChar, text[0]!, group.lastNode!, node);
    if (joint) {
      parts.push(joint);
      group.length += 1;
      if (joint === '\n') group.lastChar = joint;
    }
  }
  group.pendingBreak = false;
  (group.pieces ??= []).push({ node, at: group.length, collapsed });
  parts.push(text);
  group.length += text.length;
  group.lastChar = text[text.length - 1]!;
  group.lastNode = node;
}

/** Offset in `data` of the `index`-th character of its white-space-collapsed form. */
function uncollapse(data: string, index: number): number {
  let j = 0;
  let i = 0;
  while (i < data.length && j < index) {
    if (/[ \t\n\r\f]/.test(data[i]!)) {
      while (i < data.length && /[ \t\n\r\f]/.test(data[i]!)) i++;
    } else i++;
    j++;
  }
  return i;
}

function pieceAt(pieces: TextPiece[], offset: number, forEnd: boolean): { node: Text; offset: number } | null {
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
  const data = piece.node.data;
  const within = offset - piece.at;
  const len = piece.collapsed ? data.replace(COLLAPSIBLE_RE, ' ').length : data.length;
  if (!forEnd && within >= len) {
    // Starts on a synthetic separator: move to the next node.
    const next = pieces[best + 1];
    return next ? { node: next.node, offset: 0 } : null;
  }
  const clipped = Math.min(within, len);
  return { node: piece.node, offset: piece.collapsed ? uncollapse(data, clipped) : clipped };
}

type JobKind = 'tree' | 'group';

interface Job {
  kind: JobKind;
  root: Node;
  /** For tree jobs: report the root's own inline text (false for inline roots from mutations). */
  rootIsGroup: boolean;
}

/** Everything a walk needs from its scanner. */
interface WalkHost {
  readonly opts: Required<Omit<ScanOptions, 'getShadowRoot' | 'defaultCountry' | 'onShadowRoot'>> &
    Pick<ScanOptions, 'getShadowRoot' | 'defaultCountry' | 'onShadowRoot'>;
  readonly stats: ScanStats;
  onGroup(group: OpenGroup, walk: Walk): void;
  onLink(link: Element, walk: Walk): void;
  onInput(input: Element, walk: Walk): void;
  onShadowRoot(root: ShadowRoot): void;
  onFrameDocument(doc: Document): void;
}

class Walk {
  /** Result keys this walk set or cleared. */
  readonly touched = new Set<Node>();
  done = false;
  /** False when the walk gave up (the DOM kept moving under it): its sweep is skipped. */
  complete = false;
  /** The walk's position (what a TreeWalker's currentNode would be). */
  private cur: Node;
  private stack: OpenGroup[] = [];
  private readonly skipCode: boolean;
  private readonly optOut: string;
  private readonly groupOnly: boolean;
  private restarted = false;
  /** localName of the element the filter last looked at (the one nextNode returns). */
  private tag = '';
  /** nodeType of the node the filter last looked at (that of `cur` once nextNode returns it). */
  private curType = 0;

  constructor(
    readonly job: Job,
    private readonly host: WalkHost,
  ) {
    this.cur = this.job.root;
    this.skipCode = host.opts.skipCode;
    this.optOut = host.opts.optOutAttribute;
    this.groupOnly = job.kind === 'group';
    this.reset();
  }

  /** (Re)start at the root with only the root's group open. */
  private reset(): void {
    this.cur = this.job.root;
    this.curType = 0;
    this.stack = [openGroup(this.job.root, this.job.kind === 'tree' && !this.job.rootIsGroup)];
  }

  /**
   * The walk's node filter (the skip rules, applied to every element), for the hand-rolled
   * TreeWalker below: Chromium's native walker calling back into JS for every element costs
   * several times the walk itself.
   */
  private accept(node: Node): number {
    const type = node.nodeType;
    this.curType = type;
    if (type === TEXT_NODE) return FILTER_ACCEPT;
    if (type !== ELEMENT_NODE) return FILTER_SKIP;
    const el = node as Element;
    this.host.stats.elements++;
    const tag = localNameOf(el);
    this.tag = tag;
    const reason = skipReason(el, this.skipCode, this.optOut, tag);
    if (reason) {
      this.onRejected(el, reason);
      return FILTER_REJECT;
    }
    if (this.groupOnly && BLOCK_TAGS.has(tag)) {
      // Another container: its text is its own group, untouched by this rescan.
      this.top().pendingBreak = true;
      return FILTER_REJECT;
    }
    return FILTER_ACCEPT;
  }

  /** TreeWalker.nextNode() (DOM spec algorithm) over elements and text, with `accept` as filter. */
  private nextNode(): Node | null {
    const root = this.job.root;
    let node: Node = this.cur;
    // A text node has no children: no firstChild read (DOM reads are most of the walk's cost).
    let result = this.curType === TEXT_NODE ? FILTER_REJECT : FILTER_ACCEPT;
    for (;;) {
      let child: Node | null;
      while (result !== FILTER_REJECT && (child = node.firstChild) !== null) {
        node = child;
        result = this.accept(node);
        if (result === FILTER_ACCEPT) return (this.cur = node);
      }
      let sibling: Node | null = null;
      for (let temporary: Node | null = node; temporary; temporary = temporary.parentNode) {
        if (temporary === root) return null;
        // Leaving a container's subtree ends its text: the climb sees every container it leaves,
        // so no contains() test is needed per node.
        if (this.stack.length > 1 && temporary === this.top().container) this.closeTop();
        sibling = temporary.nextSibling;
        if (sibling) break;
      }
      if (!sibling) return null;
      node = sibling;
      result = this.accept(node);
      if (result === FILTER_ACCEPT) return (this.cur = node);
    }
  }

  /** The group the walk's current node belongs to. */
  private top(): OpenGroup {
    return this.stack[this.stack.length - 1]!;
  }

  private closeTop(): void {
    this.host.onGroup(this.stack.pop()!, this);
  }

  /**
   * Finish open groups that do not contain `node`. Only needed when a paused walk resumes (the DOM
   * may have moved since); while walking, nextNode closes groups as it climbs out of them.
   */
  private closeGroupsOutside(node: Node): void {
    while (this.stack.length > 1 && !this.top().container.contains(node)) this.closeTop();
  }

  private onRejected(el: Element, reason: SkipReason): void {
    this.top().pendingBreak = true;
    if (reason === 'input') this.host.onInput(el, this);
    else if (reason === 'tag' && this.host.opts.frames && /^i?frame$/.test(localNameOf(el))) {
      try {
        const doc = (el as HTMLIFrameElement).contentDocument;
        if (doc) this.host.onFrameDocument(doc);
      } catch {
        // Cross-origin: that frame's own content script scans it.
      }
    }
  }

  /** Called once before the first step: the root element's own link, input value and shadow root. */
  begin(): void {
    const root = this.job.root;
    if (!isElement(root)) return;
    if (localNameOf(root) === 'input') this.host.onInput(root, this);
    else this.visitElement(root, true);
  }

  private visitElement(el: Element, isRoot: boolean, tag: string = localNameOf(el)): void {
    if (!isRoot) {
      const group = this.top();
      if (BREAK_TAGS.has(tag)) group.pendingBreak = true;
      else if (this.job.kind === 'tree' && BLOCK_TAGS.has(tag)) {
        group.pendingBreak = true;
        this.stack.push(openGroup(el));
      }
    }
    if (isTelLink(el, tag)) this.host.onLink(el, this);
    if (this.job.kind === 'tree') {
      const shadow = this.host.opts.getShadowRoot ? this.host.opts.getShadowRoot(el) : el.shadowRoot;
      if (shadow) this.host.onShadowRoot(shadow);
    }
  }

  /** Walk until `budget` text nodes (or 4×budget elements) have been read. Returns the budget used. */
  step(budget: number): number {
    if (this.done) return 0;
    const root = this.job.root;
    const current = this.cur;
    if (current !== root && !composedContains(root, current)) {
      // The node we paused on was moved or removed: start over (results are replaced, not added).
      this.host.stats.restarts++;
      if (this.restarted) {
        this.finish(false);
        return 0;
      }
      this.restarted = true;
      this.reset();
    } else if (current !== root) {
      this.closeGroupsOutside(current);
    }
    let texts = 0;
    let elements = 0;
    while (texts < budget && elements < budget * 4) {
      const node = this.nextNode();
      if (!node) {
        this.finish(true);
        break;
      }
      if (this.curType === TEXT_NODE) {
        // Long texts cost more finder time: one extra unit per 2 KB.
        texts += 1 + ((node as Text).data.length >> 11);
        this.host.stats.textNodes++;
        appendText(this.top(), node as Text);
      } else {
        elements++;
        this.visitElement(node as Element, false, this.tag);
      }
    }
    return texts;
  }

  private finish(complete: boolean): void {
    while (this.stack.length > 0) this.host.onGroup(this.stack.pop()!, this);
    this.done = true;
    this.complete = complete;
  }
}

/** Is `node` inside (or is it) an element the skip rules exclude? Checks across shadow hosts. */
function insideSkipped(node: Node, skipCode: boolean, optOut: string): boolean {
  for (let n: Node | null = node; n; n = composedParent(n)) {
    if (isElement(n)) {
      const reason = skipReason(n, skipCode, optOut);
      // An input's value is reported (read-only ones); its own tag is not a reason to skip it.
      if (reason !== null && reason !== 'input') return true;
    }
    if (n.nodeType === DOCUMENT_NODE && (n as Document).designMode === 'on') return true;
  }
  return false;
}

class PhoneScanner implements Scanner, WalkHost {
  readonly opts: WalkHost['opts'];
  readonly stats: ScanStats = { textNodes: 0, elements: 0, finderCalls: 0, chunks: 0, restarts: 0 };
  private readonly map = new Map<Node, PhoneMatch[]>();
  private readonly changed = new Set<Node>();
  private readonly queue: Job[] = [];
  private readonly queuedTrees = new Set<Node>();
  private readonly queuedGroups = new Set<Node>();
  /** Composed roots of everything scanned (documents, or detached trees in tests). */
  private readonly roots = new Set<Node>();
  /** The nodes passed to scanRoot: a rescan never climbs above them. */
  private readonly scanRoots = new Set<Node>();
  private current: Walk | null = null;
  private readonly collector: TextTarget[] | null;

  constructor(options: ScanOptions = {}, collector: TextTarget[] | null = null) {
    this.opts = {
      defaultCountry: options.defaultCountry,
      skipCode: options.skipCode ?? false,
      optOutAttribute: options.optOutAttribute ?? DEFAULT_OPT_OUT,
      chunkSize: Math.max(1, options.chunkSize ?? DEFAULT_CHUNK),
      getShadowRoot: options.getShadowRoot,
      onShadowRoot: options.onShadowRoot,
      frames: options.frames ?? false,
      labels: options.labels ?? true,
      pageCountry: options.pageCountry ?? true,
    };
    this.collector = collector;
  }

  // ----- queue -----

  private enqueue(job: Job, front = false): void {
    const queued = job.kind === 'tree' ? this.queuedTrees : this.queuedGroups;
    if (queued.has(job.root)) return;
    queued.add(job.root);
    if (front) this.queue.unshift(job);
    else this.queue.push(job);
  }

  scanRoot(root: Node): void {
    this.headerCache = null;
    this.countryMemo = null;
    this.roots.add(composedRoot(root));
    this.scanRoots.add(root);
    this.enqueue({ kind: 'tree', root, rootIsGroup: true });
  }

  /** The container whose group holds `node`'s text (node itself when it is a container). */
  private containerOf(node: Node, inclusive: boolean): Node {
    let n: Node | null = inclusive ? node : node.parentNode;
    let last: Node = node;
    while (n) {
      if (n.nodeType === DOCUMENT_NODE || n.nodeType === DOCUMENT_FRAGMENT_NODE || isBlockElement(n) || this.scanRoots.has(n)) {
        return n;
      }
      last = n;
      n = n.parentNode;
    }
    return last;
  }

  scanMutations(records: Iterable<MutationRecord>): void {
    this.headerCache = null;
    this.countryMemo = null;
    let removed = false;
    for (const record of records) {
      const target = record.target;
      if (record.type === 'characterData') {
        this.enqueue({ kind: 'group', root: this.containerOf(target, false), rootIsGroup: true });
      } else if (record.type === 'childList') {
        this.enqueue({ kind: 'group', root: this.containerOf(target, true), rootIsGroup: true });
        record.addedNodes.forEach((n) => {
          if (isElement(n)) this.enqueue({ kind: 'tree', root: n, rootIsGroup: isBlockElement(n) });
        });
        if (record.removedNodes.length > 0) removed = true;
      } else if (record.type === 'attributes' && isElement(target) && this.attributeMatters(record, target)) {
        // hidden / contenteditable / display / href / value flipped: rescan the element and its text's group.
        this.enqueue({ kind: 'tree', root: target, rootIsGroup: isBlockElement(target) });
        this.enqueue({ kind: 'group', root: this.containerOf(target, false), rootIsGroup: true });
        removed = true; // its old matches may now be skipped
      }
    }
    if (removed) this.sweep(null);
  }

  private attributeMatters(record: MutationRecord, target: Element): boolean {
    const name = record.attributeName ?? '';
    if (name !== this.opts.optOutAttribute && !OBSERVED_ATTRIBUTES.includes(name)) return false;
    const now = target.getAttribute(name);
    // null may mean "not recorded" (or a removed empty attribute in some DOMs): only a string compares.
    if (typeof record.oldValue === 'string' && record.oldValue === now) return false;
    if (name === 'style') {
      // Only display:none matters; without attributeOldValue the old state is unknown: rescan.
      if (record.oldValue === null || record.oldValue === undefined) return true;
      return DISPLAY_NONE_RE.test(record.oldValue) !== DISPLAY_NONE_RE.test(now ?? '');
    }
    return true;
  }

  private isLive(node: Node): boolean {
    if (node.isConnected) return true;
    return this.roots.has(composedRoot(node));
  }

  /** Drop results whose key is gone from the page, or (within `within`) was not seen by a finished walk. */
  private sweep(walk: Walk | null): void {
    for (const key of [...this.map.keys()]) {
      const stale = walk
        ? !walk.touched.has(key) && composedContains(walk.job.root, key)
        : !this.isLive(key) || insideSkipped(key, this.opts.skipCode, this.opts.optOutAttribute);
      if (stale) {
        this.map.delete(key);
        this.changed.add(key);
      }
    }
  }

  // ----- running -----

  hasPendingWork(): boolean {
    return this.current !== null || this.queue.length > 0;
  }

  private headerCache: HeaderCache | null = null;
  private countryMemo: CountryMemo | null = null;

  /** Countries per row and ancestor, memoised like headers() until the current task ends. */
  private countries(): CountryMemo {
    if (!this.countryMemo) {
      const memo: CountryMemo = new Map();
      this.countryMemo = memo;
      queueMicrotask(() => {
        if (this.countryMemo === memo) this.countryMemo = null;
      });
    }
    return this.countryMemo;
  }

  /**
   * Column headers, memoised until the current task ends: the chunks a slice runs back to back
   * share it, and the page cannot change the DOM before the microtask that drops it. New work
   * (scanRoot, scanMutations) drops it too, for callers that change the DOM in between.
   */
  private headers(): HeaderCache {
    if (!this.headerCache) {
      const cache: HeaderCache = new Map();
      this.headerCache = cache;
      queueMicrotask(() => {
        if (this.headerCache === cache) this.headerCache = null;
      });
    }
    return this.headerCache;
  }

  runChunk(): boolean {
    let budget = this.opts.chunkSize;
    this.stats.chunks++;
    while (budget > 0) {
      if (!this.current) {
        const job = this.queue.shift();
        if (!job) break;
        (job.kind === 'tree' ? this.queuedTrees : this.queuedGroups).delete(job.root);
        if (!this.startable(job)) continue;
        this.current = new Walk(job, this);
        this.current.begin();
      }
      const used = this.current.step(budget);
      budget -= Math.max(used, 1);
      if (this.current.done) {
        const walk = this.current;
        this.current = null;
        if (walk.job.kind === 'tree' && walk.complete) this.sweep(walk);
      }
    }
    return this.hasPendingWork();
  }

  private startable(job: Job): boolean {
    if (!this.isLive(job.root)) return false;
    return !insideSkipped(job.root, this.opts.skipCode, this.opts.optOutAttribute);
  }

  flush(): void {
    while (this.runChunk()) {
      // keep going
    }
  }

  // ----- results -----

  private put(key: Node, matches: PhoneMatch[], walk: Walk): void {
    const before = this.map.get(key);
    if (matches.length === 0) {
      // Nothing was there and nothing is: a sweep only looks at keys in the map, so no mark needed.
      if (before) {
        walk.touched.add(key);
        this.map.delete(key);
        this.changed.add(key);
      }
      return;
    }
    walk.touched.add(key);
    if (before && sameMatches(before, matches)) return;
    this.map.set(key, matches);
    this.changed.add(key);
  }

  onGroup(group: OpenGroup, walk: Walk): void {
    if (group.discard || group.length === 0) {
      if (!group.discard) this.put(group.container, [], walk);
      return;
    }
    const parts = group.parts!;
    const pieces = group.pieces!;
    const text = parts.length === 1 ? parts[0]! : parts.join('');
    if (!mayContainPhoneNumber(text)) {
      this.put(group.container, [], walk);
      return;
    }
    if (this.collector) this.collector.push({ container: group.container, text, pieces });
    // Under a non-phone label ("Account Number", "Date") every match is dropped unless the words
    // right before it name a phone field. That needs a letter in the text (both positive-context
    // patterns do), so a letterless text there can skip the finder: the result is [] either way.
    let label: string | undefined;
    if (this.opts.labels && !HAS_LETTER_RE.test(text)) {
      label = labelFor(group.container, this.headers());
      if (label && labelKind(label) === 'other') {
        this.put(group.container, [], walk);
        return;
      }
    }
    this.stats.finderCalls++;
    // Asked by the finder only for a bare digit run, which needs a phone label to count.
    const fieldLabel = this.opts.labels ? () => (label ??= labelFor(group.container, this.headers())) : undefined;
    let found = this.opts.pageCountry
      ? findInContext(
          text,
          supportedCountry(this.opts.defaultCountry),
          pageCountry(group.container, text, this.countries()),
          (t, country) => findPhoneNumbers(t, { defaultCountry: country, label: fieldLabel }),
          // A place in another element (a sibling link, another field) does not speak for the number.
          (place, at) => !!pieceAt(pieces, place.at, false)?.node.parentNode?.contains(pieceAt(pieces, at, false)?.node ?? null),
        )
      : findPhoneNumbers(text, { defaultCountry: this.opts.defaultCountry, label: fieldLabel });
    if (found.length > 0 && this.opts.labels) {
      if (label === undefined) label = labelFor(group.container, this.headers());
      if (label && labelKind(label) === 'other') found = found.filter((m) => hasPositiveContextBefore(text, m.start));
    }
    const matches: TextPhoneMatch[] = [];
    for (const m of found) {
      const start = pieceAt(pieces, m.start, false);
      const end = pieceAt(pieces, m.end, true);
      if (!start || !end) continue;
      if (this.insideSameTelLink(start.node, group.container, m.e164)) continue;
      matches.push({
        source: 'text',
        e164: m.e164,
        ...(m.country ? { country: m.country } : {}),
        ...(m.ext ? { ext: m.ext } : {}),
        raw: m.raw,
        container: group.container,
        startNode: start.node,
        startOffset: start.offset,
        endNode: end.node,
        endOffset: end.offset,
      });
    }
    this.put(group.container, matches, walk);
  }

  /** Text of a tel: link that shows the link's own number is reported once, as the link. */
  private insideSameTelLink(node: Node, container: Node, e164: string): boolean {
    for (let n = node.parentNode; n && n !== container; n = n.parentNode) {
      if (isElement(n)) {
        const href = isTelLink(n);
        if (href) return this.telHref(n, href)?.e164 === e164;
      }
    }
    return false;
  }

  /** parseTelHref() of a link's href, memoised per link (re-parsed when the href changes). */
  private readonly telHrefs = new WeakMap<Element, { href: string; parsed: ReturnType<typeof parseTelHref> }>();

  private telHref(link: Element, href: string): ReturnType<typeof parseTelHref> {
    const hit = this.telHrefs.get(link);
    if (hit && hit.href === href) return hit.parsed;
    const parsed = parseTelHref(href, this.opts.defaultCountry);
    this.telHrefs.set(link, { href, parsed });
    return parsed;
  }

  onLink(link: Element, walk: Walk): void {
    const href = link.getAttribute('href') ?? '';
    const parsed = this.telHref(link, href);
    const matches: LinkPhoneMatch[] = parsed
      ? [
          {
            source: 'link',
            e164: parsed.e164,
            ...(parsed.country ? { country: parsed.country } : {}),
            ...(parsed.ext ? { ext: parsed.ext } : {}),
            raw: parsed.raw,
            element: link,
            href,
            valid: parsed.valid,
          },
        ]
      : [];
    this.put(link, matches, walk);
  }

  onInput(input: Element, walk: Walk): void {
    const el = input as HTMLInputElement;
    const type = (input.getAttribute('type') ?? '').toLowerCase();
    const usable =
      INPUT_TYPES_WITH_TEXT.has(type) && (input.hasAttribute('readonly') || input.hasAttribute('disabled') || el.readOnly === true || el.disabled === true);
    const value = usable ? String(el.value ?? '') : '';
    // An input of type tel is a phone field whatever its label says.
    const fieldLabel = () => (type === 'tel' ? 'tel' : this.opts.labels ? inputLabel(input) : undefined);
    let found: FoundPhoneNumber[] = value ? findPhoneNumbers(value, { defaultCountry: this.opts.defaultCountry, label: fieldLabel }) : [];
    if (found.length > 0 && this.opts.labels) {
      const label = inputLabel(input);
      if (label && labelKind(label) === 'other') found = found.filter((m) => hasPositiveContextBefore(value, m.start));
    }
    this.put(
      input,
      found.map((m) => ({
        source: 'input' as const,
        e164: m.e164,
        ...(m.country ? { country: m.country } : {}),
        ...(m.ext ? { ext: m.ext } : {}),
        raw: m.raw,
        element: input,
        start: m.start,
        end: m.end,
      })),
      walk,
    );
  }

  private readonly seenShadowRoots = new WeakSet<ShadowRoot>();

  onShadowRoot(root: ShadowRoot): void {
    if (!this.seenShadowRoots.has(root)) {
      this.seenShadowRoots.add(root);
      this.opts.onShadowRoot?.(root);
    }
    this.enqueue({ kind: 'tree', root, rootIsGroup: true }, true);
  }

  onFrameDocument(doc: Document): void {
    this.roots.add(doc);
    this.enqueue({ kind: 'tree', root: doc, rootIsGroup: true }, true);
  }

  results(): ReadonlyMap<Node, readonly PhoneMatch[]> {
    return this.map;
  }

  matches(): PhoneMatch[] {
    const all: PhoneMatch[] = [];
    for (const list of this.map.values()) all.push(...list);
    return all;
  }

  takeChanges(): Node[] {
    const keys = [...this.changed];
    this.changed.clear();
    return keys;
  }

  clear(): void {
    for (const key of this.map.keys()) this.changed.add(key);
    this.map.clear();
    this.queue.length = 0;
    this.queuedTrees.clear();
    this.queuedGroups.clear();
    this.current = null;
  }
}

function sameMatches(a: readonly PhoneMatch[], b: readonly PhoneMatch[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.source !== y.source || x.e164 !== y.e164 || x.raw !== y.raw || x.ext !== y.ext) return false;
    if (x.source === 'text' && y.source === 'text') {
      if (x.startNode !== y.startNode || x.startOffset !== y.startOffset || x.endNode !== y.endNode || x.endOffset !== y.endOffset) return false;
    }
    if (x.source === 'input' && y.source === 'input' && (x.start !== y.start || x.end !== y.end)) return false;
  }
  return true;
}

/**
 * An incremental scanner for the content script:
 *
 *   const scanner = createScanner({ defaultCountry: 'US', chunkSize: 100 });
 *   scanner.scanRoot(document);
 *   const idle = () => { if (scanner.runChunk()) requestIdleCallback(idle); render(scanner.takeChanges()); };
 *   new MutationObserver((records) => { scanner.scanMutations(records); requestIdleCallback(idle); })
 *     .observe(document, { childList: true, subtree: true, characterData: true });
 */
export function createScanner(options: ScanOptions = {}): Scanner {
  return new PhoneScanner(options);
}

/** Scan `root` synchronously and return every match. */
export function scanNode(root: Node, options: ScanOptions = {}): PhoneMatch[] {
  const scanner = new PhoneScanner(options);
  scanner.scanRoot(root);
  scanner.flush();
  return scanner.matches();
}

/**
 * What the finder would read under `root`: per-container texts that pass the digit prefilter,
 * tel:/callto: links and read-only inputs (for benches and debugging).
 */
export function collectTextTargets(root: Node, options: ScanOptions = {}): ScanTargets {
  const texts: TextTarget[] = [];
  const links: Element[] = [];
  const inputs: Element[] = [];
  const scanner = new PhoneScanner(options, texts);
  const onLink = scanner.onLink.bind(scanner);
  const onInput = scanner.onInput.bind(scanner);
  scanner.onLink = (link, walk) => {
    links.push(link);
    onLink(link, walk);
  };
  scanner.onInput = (input, walk) => {
    inputs.push(input);
    onInput(input, walk);
  };
  scanner.scanRoot(root);
  scanner.flush();
  return { texts, links, inputs };
}

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
