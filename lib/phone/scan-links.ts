/** The scanner's tel: links (see ./scanner.ts): each link's number as read, and the text inside a link that shows it. */
import type { TelHrefNumber } from './find';
import { isElement, isTelLink } from './scan-dom';

export class TelLinks {
  /** Each link's href as read (by the parser here, or the background's answer), re-read when the href changes. */
  private readonly read = new WeakMap<Element, { href: string; parsed: TelHrefNumber | null }>();
  /** Links not answered yet → the containers whose text inside them was reported meanwhile. */
  private readonly unsure = new WeakMap<Element, Set<Node>>();

  /** `parse`: reads an href on this thread; null when links are read elsewhere (their answers come to `settle`). */
  constructor(private readonly parse: ((href: string) => TelHrefNumber | null) | null) {}

  /** The link's number (null: none), or undefined while its answer is on its way. */
  numberOf(link: Element, href: string): TelHrefNumber | null | undefined {
    const hit = this.read.get(link);
    if (hit && hit.href === href) return hit.parsed;
    if (!this.parse) return undefined;
    const parsed = this.parse(href);
    this.read.set(link, { href, parsed });
    return parsed;
  }

  /** The link's answer. Returns the containers whose text inside the link was reported before it came. */
  settle(link: Element, href: string, parsed: TelHrefNumber | null): Iterable<Node> {
    this.read.set(link, { href, parsed });
    const containers = this.unsure.get(link);
    this.unsure.delete(link);
    return containers ?? [];
  }

  /**
   * Text of a tel: link that shows the link's own number is reported once, as the link. A link whose
   * answer has not come back yet is noted with the container: its answer takes the text's match out then.
   */
  showsOwnNumber(node: Node, container: Node, e164: string): boolean {
    for (let n = node.parentNode; n && n !== container; n = n.parentNode) {
      if (isElement(n)) {
        const href = isTelLink(n);
        if (!href) continue;
        const parsed = this.numberOf(n, href);
        if (parsed !== undefined) return parsed?.e164 === e164;
        const containers = this.unsure.get(n) ?? new Set<Node>();
        this.unsure.set(n, containers.add(container));
        return false;
      }
    }
    return false;
  }
}
