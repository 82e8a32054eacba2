/**
 * `tel:` / `callto:` links: a real click on one becomes a call intent (the confirmation opens) and
 * the browser's default action is prevented, so no operating-system app picker appears as well.
 */
import { hasEnoughDigits } from '../phone/candidate';
import { telHrefText } from '../phone/tel-href';
import type { Results } from './hit';

const TEL_RE = /^\s*(?:tel|callto):/i;
const OPT_OUT = 'data-no-click-to-call';

export interface TelClick {
  link: Element;
  /**
   * E.164 without extension when the scanner has read the link; else the href's number as written
   * ("020 7946 0958"), which the confirmation reads with the site's country (the page has no phone library).
   */
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
export function telClickOf(event: ClickLike, results: Results): TelClick | null {
  if (!event.isTrusted || event.button !== 0 || event.defaultPrevented) return null;
  const link = telLinkOf(event.composedPath());
  if (!link) return null;
  // The scanner already read the link (and applied the skip rules); a link it has not read yet (added
  // since the last scan, or its answer still on its way) goes as written, with the same rules that
  // matter for a click.
  const found = results.get(link)?.[0];
  if (found) return { link, number: found.e164 };
  if ((link as HTMLElement).isContentEditable || link.closest(`[${OPT_OUT}]`)) return null;
  const said = telHrefText(link.getAttribute('href') ?? '');
  const number = said?.text.trim() ?? '';
  // The finder's own minimum: fewer digits is no number it would report (nor would the link have been).
  return number.length <= 64 && hasEnoughDigits(number) ? { link, number } : null;
}
