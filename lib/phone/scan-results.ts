/** The scanner's results (see ./scanner.ts): matches by key (a text's container, a tel: link, a field), and the keys changed since the caller last took them. */
import type { PhoneMatch } from './scan-types';

/** A container's place in the results while its answer is on its way: no matches yet. */
const AWAITED: readonly PhoneMatch[] = Object.freeze([]);

export class ScanResults {
  private readonly map = new Map<Node, readonly PhoneMatch[]>();
  private readonly changed = new Set<Node>();

  /**
   * The key's matches are now `matches`. `touched` (a walk's) learns every key set or cleared, so its
   * sweep keeps them; an unchanged list is not reported as a change.
   */
  put(key: Node, matches: readonly PhoneMatch[], touched: Set<Node> | null): void {
    const before = this.map.get(key);
    if (matches.length === 0) {
      if (before === AWAITED) return void this.map.delete(key);
      // Nothing was there and nothing is: a sweep only looks at keys in the map, so no mark needed.
      if (before) {
        touched?.add(key);
        this.map.delete(key);
        this.changed.add(key);
      }
      return;
    }
    touched?.add(key);
    if (before && sameMatches(before, matches)) return;
    this.map.set(key, matches);
    this.changed.add(key);
  }

  /**
   * Holds a place in page order for a key whose answer is on its way (a key with results keeps them
   * until the answer replaces them). False when the key already had one.
   */
  hold(key: Node): boolean {
    if (this.map.has(key)) return false;
    this.map.set(key, AWAITED);
    return true;
  }

  /** Gives back a place `hold` took, for a question that was not taken after all. */
  release(key: Node): void {
    if (this.map.get(key) === AWAITED) this.map.delete(key);
  }

  get(key: Node): readonly PhoneMatch[] | undefined {
    return this.map.get(key);
  }

  /** Drops every key `stale` picks, as changes. */
  dropWhere(stale: (key: Node) => boolean): void {
    for (const key of [...this.map.keys()]) {
      if (stale(key)) {
        this.map.delete(key);
        this.changed.add(key);
      }
    }
  }

  all(): ReadonlyMap<Node, readonly PhoneMatch[]> {
    return this.map;
  }

  takeChanges(): Node[] {
    const keys = [...this.changed];
    this.changed.clear();
    return keys;
  }

  clear(): void {
    for (const key of this.map.keys()) this.changed.add(key);
    this.map.clear();
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
