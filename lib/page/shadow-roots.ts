/**
 * Closed shadow roots, where the extension API can open them: Chromium's content scripts have
 * `dom.openOrClosedShadowRoot(element)`, Firefox's see `element.openOrClosedShadowRoot`. Pages
 * cannot reach either. Only custom elements (a name with a hyphen) are asked: design-system
 * components are where closed roots live, and asking the API for every div of a 5,000-row table
 * would cost the scan more than those rare roots are worth. Open roots are read as always.
 */
export interface DomApi {
  openOrClosedShadowRoot?(element: HTMLElement): ShadowRoot | null | undefined;
}

export type ShadowRootOf = (element: Element) => ShadowRoot | null;

export function shadowRootOpener(dom: DomApi | undefined): ShadowRootOf {
  const open = typeof dom?.openOrClosedShadowRoot === 'function' ? dom.openOrClosedShadowRoot.bind(dom) : null;
  return (element) => {
    const shown = element.shadowRoot;
    if (shown || !element.localName.includes('-')) return shown;
    try {
      if (open) return open(element as HTMLElement) ?? null;
      // Firefox: a property of the element in the content script's view (undefined elsewhere).
      return (element as Element & { openOrClosedShadowRoot?: ShadowRoot | null }).openOrClosedShadowRoot ?? null;
    } catch {
      return null; // not an element the API takes (an SVG or MathML element with a hyphen)
    }
  };
}
