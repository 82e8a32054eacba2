/**
 * The call button drawn over pages: one host element (`data-no-click-to-call`, fixed, zero-size,
 * highest z-index, no pointer events) appended to <html> — never into the body's flow, a form or an
 * editable area — with a shadow root holding one <button>. The page's text and layout are untouched.
 * The shadow root is open so tests find the button by role; a page reaching in can only make
 * untrusted clicks, which are ignored.
 */
import { placeButton, type Box } from './hit';

export const OVERLAY_TAG = 'click-to-call-overlay';

const HOST_STYLE = [
  'all:initial', 'display:block', 'position:fixed', 'top:0', 'left:0', 'width:0', 'height:0', 'margin:0',
  'padding:0', 'border:0', 'overflow:visible', 'z-index:2147483647', 'pointer-events:none', 'contain:style',
].map((d) => `${d}!important`).join(';');

const CSS = `
button{all:initial;position:fixed;pointer-events:auto;box-sizing:border-box;max-width:min(320px,100vw);overflow:hidden;
text-overflow:ellipsis;white-space:nowrap;font:600 13px/18px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:#fff;background:#0b57d0;border-radius:6px;padding:4px 10px;box-shadow:0 2px 8px rgba(0,0,0,.35);cursor:pointer}
button:hover{background:#0842a0}
button:focus-visible{outline:2px solid #fff;outline-offset:-4px;background:#0842a0}
button[hidden],span{display:none}`;

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
  const host = doc.createElement(OVERLAY_TAG);
  host.setAttribute('data-no-click-to-call', '');
  host.setAttribute('style', HOST_STYLE);
  const root = host.attachShadow({ mode: 'open' });
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
      button.textContent = label;
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
