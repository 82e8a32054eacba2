/** The scanner's public shapes (see ./scan.ts). */
import type { CountryCode } from './countries';
import type { FindRequest } from './find-batch';


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
  /**
   * Sends texts to be read elsewhere (the content script: the background's `page/find`, so parsing
   * runs off the page's main thread; ./find-batch.ts). Answers arrive later: their matches are put
   * then and `onFound` is called. Without it (tests, benches) every text is read here, at once.
   */
  findAway?: (request: FindRequest) => Promise<unknown>;
  /** After answers from `findAway` were put (takeChanges() has them). */
  onFound?: () => void;
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
  /** The node's data as the walk read it (reading it again costs the content script's world a DOM call). */
  data: string;
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
  /** Do up to `chunkSize` text nodes of queued work. Returns true while walking remains. */
  runChunk(): boolean;
  /** Walking remains, or answers from `findAway` are still to come. */
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
