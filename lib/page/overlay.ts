/**
 * The call button drawn over pages: one host element (fixed, zero-size, highest z-index, no pointer
 * events) appended to <html> — never into the body's flow, a form or an editable area — with a
 * CLOSED shadow root holding one <button>. The page's text and layout are untouched, and the page
 * can neither read the button (the agent's name is in its label) nor restyle it:
 * - the root is closed, so `host.shadowRoot` is null and page scripts cannot reach in; the host is a
 *   plain <div>, not a custom element, so no page-defined element class (its constructor,
 *   `attachInternals().shadowRoot`) ever touches it;
 * - the host's own look is set by `:host` rules marked !important inside the root, which win over
 *   every page rule and the host's style attribute (the inner context wins for important rules);
 *   the button resets everything it could inherit;
 * - the label is drawn by CSS from the button's aria-label (also its accessible name), not held in a
 *   text node, which find-in-page (`window.find`) searches even inside closed roots; it cannot be selected;
 * - only generic font families: a page's @font-face cannot stand in for one (and learn the label's
 *   letters from the glyphs the browser fetches).
 * Clicks a page script makes are untrusted and ignored (./click-to-call.ts).
 */
import { placeButton, type Box } from './hit';

/** Marks the host (with `data-no-click-to-call`, which keeps the finder out of it). */
export const OVERLAY_ATTRIBUTE = 'data-click-to-call-overlay';
export const OVERLAY_SELECTOR = `[${OVERLAY_ATTRIBUTE}]`;

const HOST_CSS = [
  'all:initial', 'display:block', 'position:fixed', 'top:0', 'left:0', 'right:auto', 'bottom:auto', 'width:0', 'height:0',
  'margin:0', 'padding:0', 'border:0', 'overflow:visible', 'z-index:2147483647', 'pointer-events:none', 'contain:style',
  'visibility:visible', 'opacity:1', 'transform:none', 'filter:none', 'clip-path:none', 'mask:none',
].map((d) => `${d}!important`).join(';');

const CSS = `
:host{${HOST_CSS}}
button{all:initial;position:fixed;pointer-events:auto;box-sizing:border-box;max-width:min(320px,100vw);overflow:hidden;
text-overflow:ellipsis;white-space:nowrap;font:600 13px/18px system-ui,sans-serif;-webkit-user-select:none;user-select:none;
color:#fff;background:#0b57d0;border-radius:6px;padding:4px 10px;box-shadow:0 2px 8px rgba(0,0,0,.35);cursor:pointer}
button:hover{background:#0842a0}
button:focus-visible{outline:2px solid #fff;outline-offset:-4px;background:#0842a0}
button::before{content:attr(aria-label)}
button[hidden],span{display:none}`;

/** Each overlay's closed root, for this script's own code and its tests (page scripts cannot reach this module). */
const roots = new WeakMap<Element, ShadowRoot>();
export const overlayRoot = (host: Element): ShadowRoot | null => roots.get(host) ?? null;

export interface OverlayView {
  readonly host: HTMLElement;
  readonly button: HTMLButtonElement;
  readonly visible: boolean;
  /** Show `label` next to `anchor` (client coordinates); `number` describes the button. */
  show(anchor: Box, label: string, number: string): void;
  hide(): void;
  remove(): void;
}

export function createOverlay(doc: Document): OverlayView {
  const host = doc.createElement('div');
  host.setAttribute(OVERLAY_ATTRIBUTE, '');
  host.setAttribute('data-no-click-to-call', '');
  const root = host.attachShadow({ mode: 'closed' });
  roots.set(host, root);
  const style = doc.createElement('style');
  style.textContent = CSS;
  const button = doc.createElement('button');
  button.type = 'button';
  button.hidden = true;
  const description = doc.createElement('span');
  description.id = 'n';
  button.setAttribute('aria-describedby', 'n');
  root.append(style, button, description);

  let visible = false;
  return {
    host,
    button,
    get visible() {
      return visible;
    },
    show(anchor, label, number) {
      // Re-attach if the page replaced <html>'s children (some apps do on navigation).
      if (!host.isConnected) doc.documentElement.append(host);
      // Drawn from the attribute (::before), not a text node: find-in-page (window.find) reads text in
      // closed roots too, and would let the page test guesses at the agent's name.
      button.setAttribute('aria-label', label);
      description.textContent = `${number}. Opens a confirmation before anything is dialled.`;
      button.hidden = false;
      const view = doc.defaultView;
      const html = doc.documentElement;
      const size = { width: button.offsetWidth, height: button.offsetHeight };
      // clientWidth/Height leave out scroll bars; in quirks mode they measure the page, so cap them.
      const { left, top } = placeButton(anchor, size, {
        width: Math.min(html.clientWidth || Infinity, view?.innerWidth ?? Infinity),
        height: Math.min(html.clientHeight || Infinity, view?.innerHeight ?? Infinity),
      });
      button.style.left = `${left}px`;
      button.style.top = `${top}px`;
      visible = true;
    },
    hide() {
      button.hidden = true;
      visible = false;
    },
    remove() {
      visible = false;
      host.remove();
    },
  };
}
