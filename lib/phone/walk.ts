/** One walk of the scanner over a root: the TreeWalker, its skip filter and the text groups it opens (see ./scan.ts). */
import type { ScanOptions, ScanStats } from './scan-types';
import { ELEMENT_NODE, TEXT_NODE, DOCUMENT_NODE, FILTER_ACCEPT, FILTER_REJECT, FILTER_SKIP, BLOCK_TAGS, BREAK_TAGS, FIELD_TAGS, type SkipReason, isElement, localNameOf, skipReason, composedParent, composedContains, isTelLink, type OpenGroup, openGroup, appendText } from './scan-dom';
import { mayHostShadowRoot } from './shadow-hosts';
import { hasEnoughDigits } from './candidate';

export type JobKind = 'tree' | 'group';

export interface Job {
  kind: JobKind;
  root: Node;
  /** For tree jobs: report the root's own inline text (false for inline roots from mutations). */
  rootIsGroup: boolean;
}

/** Everything a walk needs from its scanner. */
export interface WalkHost {
  readonly opts: Required<Omit<ScanOptions, 'getShadowRoot' | 'defaultCountry' | 'onShadowRoot' | 'findAway' | 'onFound'>> &
    Pick<ScanOptions, 'getShadowRoot' | 'defaultCountry' | 'onShadowRoot'>;
  readonly stats: ScanStats;
  onGroup(group: OpenGroup, walk: Walk): void;
  onLink(link: Element, walk: Walk): void;
  onInput(input: Element, walk: Walk): void;
  onShadowRoot(root: ShadowRoot): void;
  onFrameDocument(doc: Document): void;
  /** Would this block's text (`text`: its textContent, the block having no child elements) be settled with no number, whatever it holds? */
  settlesNone(block: Element, text: string): boolean;
}

export class Walk {
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
    if (BLOCK_TAGS.has(tag)) {
      // Another container: its text is its own group, untouched by this rescan.
      if (this.groupOnly || this.passesOver(el, tag)) {
        this.top().pendingBreak = true;
        return FILTER_REJECT;
      }
    }
    return FILTER_ACCEPT;
  }

  /**
   * A block without child elements whose text has too few digits for a number (a list's name,
   * owner or amount cell), or whose text its scanner would settle with none (an id or a date under a
   * non-phone column header): its text is a group of its own with nothing to find, and one native
   * read of it costs the content script's world far less than reading its text nodes (no links,
   * fields or frames can be inside; a shadow root can, and is opened here).
   */
  private passesOver(el: Element, tag: string): boolean {
    if (el.firstElementChild !== null) return false;
    const text = el.textContent ?? '';
    if (hasEnoughDigits(text) && !this.host.settlesNone(el, text)) return false;
    this.openShadowRoot(el, tag);
    return true;
  }

  private openShadowRoot(el: Element, tag: string): void {
    if (this.job.kind !== 'tree' || !mayHostShadowRoot(tag)) return;
    const shadow = this.host.opts.getShadowRoot ? this.host.opts.getShadowRoot(el) : el.shadowRoot;
    if (shadow) this.host.onShadowRoot(shadow);
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
    if (FIELD_TAGS.has(localNameOf(root))) this.host.onInput(root, this);
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
    this.openShadowRoot(el, tag);
  }

  /** Walk until `budget` text nodes (or 4×budget elements, those passed over included) have been read. Returns the budget used. */
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
    const stats = this.host.stats;
    const elementsBefore = stats.elements;
    while (texts < budget && stats.elements - elementsBefore < budget * 4) {
      const node = this.nextNode();
      if (!node) {
        this.finish(true);
        break;
      }
      if (this.curType === TEXT_NODE) {
        // Long texts cost more finder time: one extra unit per 2 KB.
        texts += 1 + (appendText(this.top(), node as Text) >> 11);
        this.host.stats.textNodes++;
      } else {
        this.visitElement(node as Element, false, this.tag);
      }
    }
    // Four elements weigh one text node: a stretch of elements with little text (a list's cells
    // passed over) still ends the chunk.
    return Math.max(texts, (stats.elements - elementsBefore) >> 2);
  }

  private finish(complete: boolean): void {
    while (this.stack.length > 0) this.host.onGroup(this.stack.pop()!, this);
    this.done = true;
    this.complete = complete;
  }
}

/** Is `node` inside (or is it) an element the skip rules exclude? Checks across shadow hosts. */
export function insideSkipped(node: Node, skipCode: boolean, optOut: string): boolean {
  for (let n: Node | null = node; n; n = composedParent(n)) {
    if (isElement(n)) {
      const reason = skipReason(n, skipCode, optOut);
      // A field's value is reported (read-only ones); its own tag is not a reason to skip it, but
      // what lies inside a field (a text area's child nodes) is its value's markup, never page text.
      if (reason !== null && (reason !== 'input' || n !== node)) return true;
    }
    if (n.nodeType === DOCUMENT_NODE && (n as Document).designMode === 'on') return true;
  }
  return false;
}
