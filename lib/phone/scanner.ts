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
 * - Parsing is not here: a `HereParser` reads texts on this thread (./scan.ts passes libphonenumber-js:
 *   tests, benches, the background), and with `findAway` (the content script) texts, tel: hrefs and
 *   input values are read elsewhere (the background): the page keeps the DOM work (walk, labels, the
 *   page's country) and settles the answers (./scan-away.ts). The page's scanner has no HereParser,
 *   so the phone library never loads into a page.
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
 *
 * Split in eight: ./scan-types.ts (the shapes), ./scan-dom.ts (skip rules, text groups, labels),
 * ./walk.ts (one walk over a root), ./scan-away.ts (answers from elsewhere), ./scan-results.ts (the
 * results and their changes), ./scan-links.ts (tel: links' numbers), this file (the scanner: jobs,
 * questions, mutations) and ./scan.ts (the scanner with the phone library here).
 */
import type { CountryCode, FindOptions, FoundPhoneNumber, TelHrefNumber } from './find';
import { supportedCountry } from './countries';
import { mayContainPhoneNumber, mayHoldNationalNumber } from './candidate';
import { countriesInPlay, findInContext, newCountryMemo, pageCountry, type CountryMemo, type PageCountry } from './page-country';
import { MAX_FIND_COUNTRIES, MAX_FIND_TEXT } from './find-batch';
import { ownNumbers, sliceAt } from './find-slices';
import { AwayFinder, type Question, type SliceRead } from './scan-away';
import { holdsNone, telNumberOf, type FindAnswer } from './find-batch';
import { inputMatches, inputValue, linkMatches } from './element-matches';
import { hasPositiveContextBefore, isOnlyDate, labelKind, mayHavePositiveContext } from './reject';
import type { ScanOptions, TextPhoneMatch, PhoneMatch, TextPiece, TextTarget, ScanStats, Scanner } from './scan-types';
import { DOCUMENT_NODE, DOCUMENT_FRAGMENT_NODE, DEFAULT_OPT_OUT, OBSERVED_ATTRIBUTES, DEFAULT_CHUNK, DISPLAY_NONE_RE, COLLAPSIBLE_RE, HAS_COLLAPSIBLE_RE, isElement, composedContains, composedRoot, isBlockElement, type HeaderCache, labelFor, inputLabel, type OpenGroup, pieceAt } from './scan-dom';
import { type Job, type WalkHost, Walk, insideSkipped } from './walk';
import { ScanResults } from './scan-results';
import { TelLinks } from './scan-links';

export type { ScanOptions, TextPhoneMatch, LinkPhoneMatch, InputPhoneMatch, PhoneMatch, TextPiece, TextTarget, ScanTargets, ScanStats, Scanner } from './scan-types';
export { OBSERVED_ATTRIBUTES } from './scan-dom';
export { matchToRange, containerKeyOf } from './match-place';

/** Parsing on the scanner's own thread (./scan.ts passes libphonenumber-js's, via ./find.ts). */
export interface HereParser {
  find(text: string, options: FindOptions): FoundPhoneNumber[];
  parseTel(href: string, defaultCountry?: CountryCode | string): TelHrefNumber | null;
}

/** A non-phone field label ("Account Number", "Date") drops every number of a text with no phone word: the result is [] either way. */
function vetoes(label: string | undefined): boolean {
  return !!label && labelKind(label) === 'other';
}

export class PhoneScanner implements Scanner, WalkHost {
  readonly opts: WalkHost['opts'];
  readonly stats: ScanStats = { textNodes: 0, elements: 0, finderCalls: 0, chunks: 0, restarts: 0 };
  private readonly store = new ScanResults();
  private readonly links: TelLinks;
  private readonly queue: Job[] = [];
  private readonly queuedTrees = new Set<Node>();
  private readonly queuedGroups = new Set<Node>();
  /** Composed roots of everything scanned (documents, or detached trees in tests). */
  private readonly roots = new Set<Node>();
  /** The nodes passed to scanRoot: a rescan never climbs above them. */
  private readonly scanRoots = new Set<Node>();
  private current: Walk | null = null;
  private readonly collector: TextTarget[] | null;
  /** Where texts go to be read off the page's thread (ScanOptions.findAway), if anywhere. */
  private readonly away: AwayFinder | null;

  constructor(
    options: ScanOptions,
    /** Null: nothing is parsed on this thread (the content script); every text goes to `findAway`. */
    private readonly here: HereParser | null,
    collector: TextTarget[] | null = null,
  ) {
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
    this.links = new TelLinks(here ? (href) => here.parseTel(href, options.defaultCountry) : null);
    const onFound = options.onFound;
    this.away = options.findAway
      ? new AwayFinder(options.findAway, {
          settle: (question, countries, answer) => this.settleAnswer(question, countries, answer),
          settleSlices: (question, slices) => this.settleSlices(question, slices),
          prepareSlice: (question, text) => this.prepareSlice(question, text),
          settleNone: (container) => this.put(container, [], null),
          isLive: (node) => this.isLive(node),
          answered: () => onFound?.(),
        })
      : null;
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
    this.store.dropWhere((key) =>
      walk ? !walk.touched.has(key) && composedContains(walk.job.root, key) : !this.isLive(key) || insideSkipped(key, this.opts.skipCode, this.opts.optOutAttribute),
    );
  }

  // ----- running -----

  hasPendingWork(): boolean {
    return this.hasWalkWork() || (this.away?.busy() ?? false);
  }

  private hasWalkWork(): boolean {
    return this.current !== null || this.queue.length > 0;
  }

  private headerCache: HeaderCache | null = null;
  private countryMemo: CountryMemo | null = null;

  /** Countries per row and ancestor, memoised like headers() until the current task ends. */
  private countries(): CountryMemo {
    if (!this.countryMemo) {
      const memo = newCountryMemo();
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
    return this.hasWalkWork();
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

  private put(key: Node, matches: readonly PhoneMatch[], walk: Walk | null): void {
    this.store.put(key, matches, walk ? walk.touched : null);
  }

  onGroup(group: OpenGroup, walk: Walk): void {
    if (group.discard || group.length === 0) {
      if (!group.discard) this.putText(group.container, [], walk);
      return;
    }
    const parts = group.parts!;
    const pieces = group.pieces!;
    const text = parts.length === 1 ? parts[0]! : parts.join('');
    if (!mayContainPhoneNumber(text) || isOnlyDate(text)) {
      this.putText(group.container, [], walk);
      return;
    }
    if (this.collector) this.collector.push({ container: group.container, text, pieces });
    // Under a non-phone label ("Account Number", "Date") every match is dropped unless the words
    // right before it name a phone field. A text with no phone word at all (a letterless one, "ORD-
    // 2024-118233", "2024-05-01 10:00 AM") can skip the finder there: the result is [] either way.
    const label = this.labelUnlessPhoneWord(group.container, text);
    if (vetoes(label)) {
      this.putText(group.container, [], walk);
      return;
    }
    this.stats.finderCalls++;
    // The page's country matters only to a number written without its country code. A text too long
    // for one request is read in slices, each with the page's country for its own words (prepareSlice).
    const long = text.length > MAX_FIND_TEXT;
    const context = !long && this.opts.pageCountry && mayHoldNationalNumber(text) ? pageCountry(group.container, text, this.countries()) : null;
    const question: Question = { container: group.container, text, pieces, context, label };
    // The label goes with the text (the finder asks it for bare digit runs): read it now.
    if (this.away && this.opts.labels) question.label ??= labelFor(group.container, this.headers());
    if (this.askAway(question, walk)) return;
    if (long) return this.readSlicesHere(question, walk);
    this.settle(question, this.findHere(question), walk);
  }

  /** A long text read on this thread the way the background reads it: slice by slice (none without a HereParser). */
  private readSlicesHere(question: Question, walk: Walk): void {
    const find = this.findHere(question);
    const slices: SliceRead[] = [];
    for (let at = 0; at < question.text.length; ) {
      const slice = sliceAt(question.text, at, MAX_FIND_TEXT);
      at = slice.end;
      const prepared = this.prepareSlice(question, slice.text);
      const countries = prepared?.countries ?? [null];
      const answer = prepared ? countries.map((c) => find(slice.text, (c ?? undefined) as CountryCode | undefined)) : [[]];
      slices.push({ ...slice, countries, context: prepared?.context ?? null, answer });
    }
    this.settleSlices(question, slices, walk);
  }

  /** Sends the question to findAway; false when it is to be read here (no findAway, too big, or the background is gone). */
  private askAway(question: Question, walk: Walk): boolean {
    if (!this.away) return false;
    const country = supportedCountry(this.opts.defaultCountry);
    const countries = question.context ? countriesInPlay(country, question.context) : [country];
    // Its results so far stay until the answer replaces them (a finished walk's sweep keeps them);
    // a new key takes its place in page order now, before asking: an answer the frame already had
    // is settled within ask().
    const held = this.store.hold(question.container);
    if (!this.away.ask(question, countries.map((c) => c ?? null))) {
      if (held) this.store.release(question.container);
      return false;
    }
    walk.touched.add(question.container);
    return true;
  }

  /** The HereParser's find on this thread, for the question's text (none without one: the background is gone). */
  private findHere(question: Question): (text: string, country: CountryCode | undefined) => FoundPhoneNumber[] {
    const here = this.here;
    if (!here) return () => [];
    // Asked by the finder only for a bare digit run, which needs a phone label to count.
    const label = this.opts.labels ? () => (question.label ??= labelFor(question.container, this.headers())) : undefined;
    return (text, country) => here.find(text, { defaultCountry: country, label });
  }

  /** A key's matches settled here: an answer from findAway still on its way is stale. */
  private putText(container: Node, matches: PhoneMatch[], walk: Walk | null): void {
    this.away?.forget(container);
    this.put(container, matches, walk);
  }

  /** Settles an answer from findAway (null: it failed, so read it here, if this scanner reads at all). */
  private settleAnswer(question: Question, countries: (string | null)[], answer: FindAnswer | null): void {
    const { kind, container, text } = question;
    if (kind === 'tel') {
      // A link whose href changed since is asked again by its rescan.
      if ((container as Element).getAttribute('href') !== text) return;
      return this.settleLink(container as Element, text, answer ? telNumberOf(answer) : (this.links.numberOf(container as Element, text) ?? null), null);
    }
    if (kind === 'input') {
      if (inputValue(container as Element).value !== text) return;
      return this.putText(container, inputMatches(container as Element, text, answer ? (answer[0] ?? []) : this.findInInput(text, question.label), this.opts.labels), null);
    }
    this.settle(question, answer ? (_t, c) => answer[countries.indexOf(c ?? null)] ?? [] : this.findHere(question), null);
  }

  /** The numbers `find` gives the question's text, read with the page's country and label, put as the container's matches. */
  private settle(question: Question, find: (text: string, country: CountryCode | undefined) => FoundPhoneNumber[], walk: Walk | null): void {
    this.place(question, this.numbersIn(question.text, question.context, question.pieces, 0, find), walk);
  }

  /** The numbers in `text` (at `from` in its question's text, whose pieces place them), read with the page's country. */
  private numbersIn(
    text: string,
    context: PageCountry | null,
    pieces: TextPiece[],
    from: number,
    find: (text: string, country: CountryCode | undefined) => FoundPhoneNumber[],
  ): FoundPhoneNumber[] {
    const country = supportedCountry(this.opts.defaultCountry);
    if (!context) return find(text, country);
    return findInContext(
      text,
      country,
      context,
      find,
      // A place in another element (a sibling link, another field) does not speak for the number.
      (place, at) => !!pieceAt(pieces, from + place.at, false)?.node.parentNode?.contains(pieceAt(pieces, from + at, false)?.node ?? null),
    );
  }

  /** A slice of a long text: read only if it may hold a number, with the page's country for its own words. */
  private prepareSlice(question: Question, text: string): { countries: (string | null)[]; context: PageCountry | null } | null {
    const country = supportedCountry(this.opts.defaultCountry);
    if (question.kind) return { countries: [country ?? null], context: null };
    if (!mayContainPhoneNumber(text)) return null;
    const context = this.opts.pageCountry && mayHoldNationalNumber(text) ? pageCountry(question.container, text, this.countries()) : null;
    // Past the request's cap, the nearest countries: the surroundings' (or the default) first, then places in order.
    const countries = (context ? countriesInPlay(country, context) : [country]).slice(0, MAX_FIND_COUNTRIES);
    return { countries: countries.map((c) => c ?? null), context };
  }

  /** A long question's numbers from its slices' answers, each slice keeping the numbers that start in its own stretch. */
  private settleSlices(question: Question, slices: SliceRead[], walk: Walk | null = null): void {
    const found: FoundPhoneNumber[] = [];
    for (const slice of slices) {
      const answer = slice.answer!;
      if (holdsNone(answer)) continue;
      const numbers = this.numbersIn(slice.text, slice.context, question.pieces, slice.from, (_t, c) => answer[slice.countries.indexOf(c ?? null)] ?? []);
      for (const m of ownNumbers(slice, numbers)) found.push(m);
    }
    if (question.kind === 'input') {
      if (inputValue(question.container as Element).value !== question.text) return;
      return this.putText(question.container, inputMatches(question.container as Element, question.text, found, this.opts.labels), walk);
    }
    this.place(question, found, walk);
  }

  /** The numbers found in a question's text as its container's matches (less those its label vetoes). */
  private place(question: Question, numbers: FoundPhoneNumber[], walk: Walk | null): void {
    const { container, text, pieces } = question;
    let found = numbers;
    if (found.length > 0 && this.opts.labels) {
      const label = (question.label ??= labelFor(container, this.headers()));
      if (label && labelKind(label) === 'other') found = found.filter((m) => hasPositiveContextBefore(text, m.start));
    }
    const matches: TextPhoneMatch[] = [];
    for (const m of found) {
      const start = pieceAt(pieces, m.start, false);
      const end = pieceAt(pieces, m.end, true);
      if (!start || !end) continue;
      if (this.links.showsOwnNumber(start.node, container, m.e164)) continue;
      const match: TextPhoneMatch = { source: 'text', e164: m.e164, raw: m.raw, container, startNode: start.node, startOffset: start.offset, endNode: end.node, endOffset: end.offset };
      // Set, not spread: a spread makes and copies an object per optional field, per number.
      if (m.country) match.country = m.country;
      if (m.ext) match.ext = m.ext;
      matches.push(match);
    }
    this.putText(container, matches, walk);
  }

  onLink(link: Element, walk: Walk): void {
    const href = link.getAttribute('href') ?? '';
    if (this.here) return this.settleLink(link, href, this.links.numberOf(link, href) ?? null, walk);
    if (this.askAway({ container: link, text: href, pieces: [], context: null, kind: 'tel' }, walk)) return;
    this.put(link, [], walk);
  }

  /** A link's number (null: none) as its result; text inside it that showed the same number meanwhile goes. */
  private settleLink(link: Element, href: string, parsed: TelHrefNumber | null, walk: Walk | null): void {
    const containers = this.links.settle(link, href, parsed);
    for (const container of parsed ? containers : []) {
      const before = this.store.get(container) ?? [];
      const kept = before.filter((m) => !(m.source === 'text' && m.e164 === parsed!.e164 && link.contains(m.startNode)));
      if (kept.length !== before.length) this.put(container, kept, null);
    }
    this.putText(link, linkMatches(link, href, parsed), walk);
  }

  onInput(input: Element, walk: Walk): void {
    const { value, type } = inputValue(input);
    if (!value) return this.putText(input, [], walk);
    // An input of type tel is a phone field whatever its label says.
    const fieldLabel = () => (type === 'tel' ? 'tel' : this.opts.labels ? inputLabel(input) : undefined);
    if (this.here) return this.putText(input, inputMatches(input, value, this.findInInput(value, fieldLabel), this.opts.labels), walk);
    const question: Question = { container: input, text: value, pieces: [], context: null, kind: 'input', label: fieldLabel() ?? '' };
    if (this.askAway(question, walk)) return;
    this.put(input, [], walk);
  }

  /** An input value's numbers read on this thread (none without a HereParser). */
  private findInInput(value: string, label: FindOptions['label']): FoundPhoneNumber[] {
    return this.here?.find(value, { defaultCountry: supportedCountry(this.opts.defaultCountry), label }) ?? [];
  }

  private readonly seenShadowRoots = new WeakSet<ShadowRoot>();

  /** The container's field label when labels count and its text has no phone word (only then is the label read, or can it veto). */
  private labelUnlessPhoneWord(container: Node, text: string): string | undefined {
    return this.opts.labels && !mayHavePositiveContext(text) ? labelFor(container, this.headers()) : undefined;
  }

  /**
   * onGroup's label veto, asked by the walk of a block with no child elements before it reads the
   * block's text nodes (an id, date or amount column of a list). White space collapsed as the
   * group's text has it.
   */
  settlesNone(block: Element, text: string): boolean {
    return vetoes(this.labelUnlessPhoneWord(block, HAS_COLLAPSIBLE_RE.test(text) ? text.replace(COLLAPSIBLE_RE, ' ') : text));
  }

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
    return this.store.all();
  }

  matches(): PhoneMatch[] {
    const all: PhoneMatch[] = [];
    for (const list of this.store.all().values()) all.push(...list);
    return all;
  }

  takeChanges(): Node[] {
    return this.store.takeChanges();
  }

  clear(): void {
    this.store.clear();
    this.away?.clear();
    this.queue.length = 0;
    this.queuedTrees.clear();
    this.queuedGroups.clear();
    this.current = null;
  }
}

/**
 * The content script's scanner: nothing is parsed on the page. Texts, tel: hrefs and input values go
 * to `findAway` (the background) and their numbers are put when the answers come; if the background
 * fails, nothing more is found (nothing could be called without it either). See ./scan.ts for the
 * scanner that parses where it runs.
 */
export function createPageScanner(options: ScanOptions & Required<Pick<ScanOptions, 'findAway'>>): Scanner {
  return new PhoneScanner(options, null);
}
