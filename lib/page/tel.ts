/**
 * `tel:` / `callto:` links: a real click on one becomes a call intent (the confirmation opens) and
 * the browser's default action is prevented, so no operating-system app picker appears as well.
 */
import { parseTelHref } from '../phone/find';
import type { Results } from './hit';

const TEL_RE = /^\s*(?:tel|callto):/i;
const OPT_OUT = 'data-no-click-to-call';

export interface TelClick {
  link: Element;
  /** E.164 without extension. */
  number: string;
}

type ClickLike = Pick<MouseEvent, 'isTrusted' | 'button' | 'defaultPrevented' | 'composedPath'>;

/** The tel:/callto: link (innermost <a>/<area> on the path) of a click, or null. */
export function telLinkOf(path: readonly EventTarget[]): Element | null {
  for (const target of path) {
    const el = target as Element;
    if (el?.nodeType !== 1) continue;
    const tag = el.localName;
    if (tag === 'a' || tag === 'area') return TEL_RE.test(el.getAttribute('href') ?? '') ? el : null;
  }
  return null;
}

/**
 * What a click means for us: a trusted primary-button click on a tel:/callto: link with a number,
 * outside editable areas and opted-out blocks, that the page has not handled itself. Synthetic
 * clicks (`el.click()`, `dispatchEvent`) are never acted on.
 */
export function telClickOf(event: ClickLike, results: Results, defaultCountry: string): TelClick | null {
  if (!event.isTrusted || event.button !== 0 || event.defaultPrevented) return null;
  const link = telLinkOf(event.composedPath());
  if (!link) return null;
  // The scanner already read the link (and applied the skip rules); a link it has not seen yet
  // (added since the last scan) is read here with the same rules that matter for a click.
  const found = results.get(link)?.[0];
  if (found) return { link, number: found.e164 };
  if ((link as HTMLElement).isContentEditable || link.closest(`[${OPT_OUT}]`)) return null;
  const parsed = parseTelHref(link.getAttribute('href') ?? '', defaultCountry);
  return parsed ? { link, number: parsed.e164 } : null;
}
