/** The matches of the scanner's own-element results: a tel: link's number, a read-only input's numbers (see ./scanner.ts). */
import type { FoundPhoneNumber, TelHrefNumber } from './find';
import { hasPositiveContextBefore, labelKind } from './reject';
import { INPUT_TYPES_WITH_TEXT, inputLabel } from './scan-dom';
import type { InputPhoneMatch, LinkPhoneMatch } from './scan-types';

export function linkMatches(link: Element, href: string, parsed: TelHrefNumber | null): LinkPhoneMatch[] {
  if (!parsed) return [];
  const { e164, country, ext, raw, valid } = parsed;
  return [{ source: 'link', e164, ...(country ? { country } : {}), ...(ext ? { ext } : {}), raw, element: link, href, valid }];
}

/** What the finder reads of a field (an input or a text area): the value of a read-only or disabled text field ('' for any other), and its type. */
export function inputValue(input: Element): { value: string; type: string } {
  const el = input as HTMLInputElement;
  // A text area's `type` attribute means nothing: it always holds text.
  const type = input.localName === 'textarea' ? '' : (input.getAttribute('type') ?? '').toLowerCase();
  const usable = INPUT_TYPES_WITH_TEXT.has(type) && (input.hasAttribute('readonly') || input.hasAttribute('disabled') || el.readOnly === true || el.disabled === true);
  return { value: usable ? String(el.value ?? '') : '', type };
}

/** An input value's numbers as matches, less those its non-phone label vetoes (when labels are read). */
export function inputMatches(input: Element, value: string, numbers: FoundPhoneNumber[], labels: boolean): InputPhoneMatch[] {
  let found = numbers;
  if (found.length > 0 && labels) {
    const label = inputLabel(input);
    if (label && labelKind(label) === 'other') found = found.filter((m) => hasPositiveContextBefore(value, m.start));
  }
  return found.map((m) => ({
    source: 'input' as const,
    e164: m.e164,
    ...(m.country ? { country: m.country } : {}),
    ...(m.ext ? { ext: m.ext } : {}),
    raw: m.raw,
    element: input,
    start: m.start,
    end: m.end,
  }));
}
