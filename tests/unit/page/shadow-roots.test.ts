// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { shadowRootOpener } from '../../../lib/page/shadow-roots';

function closedHost(tag: string): { el: HTMLElement; root: ShadowRoot } {
  const el = document.createElement(tag);
  const root = el.attachShadow({ mode: 'closed' });
  root.innerHTML = '<p>Direct: (617) 555-0149</p>';
  return { el, root };
}

describe('shadowRootOpener', () => {
  it('Chromium: opens a custom element’s closed root through dom.openOrClosedShadowRoot', () => {
    const { el, root } = closedHost('contact-chip');
    const dom = { openOrClosedShadowRoot: vi.fn(() => root) };
    expect(el.shadowRoot).toBeNull();
    expect(shadowRootOpener(dom)(el)).toBe(root);
    expect(dom.openOrClosedShadowRoot).toHaveBeenCalledWith(el);
  });

  it('open roots are read directly, and plain elements never cost an API call', () => {
    const dom = { openOrClosedShadowRoot: vi.fn(() => null) };
    const open = document.createElement('open-card');
    const openRoot = open.attachShadow({ mode: 'open' });
    const div = document.createElement('div');
    const get = shadowRootOpener(dom);
    expect(get(open)).toBe(openRoot);
    expect(get(div)).toBeNull();
    expect(get(closedHost('div').el)).toBeNull();
    expect(dom.openOrClosedShadowRoot).not.toHaveBeenCalled();
  });

  it('Firefox: the element’s own openOrClosedShadowRoot property', () => {
    const { el, root } = closedHost('contact-panel');
    Object.defineProperty(el, 'openOrClosedShadowRoot', { value: root });
    expect(shadowRootOpener(undefined)(el)).toBe(root);
  });

  it('no API (or one that throws): the closed root stays closed', () => {
    const { el } = closedHost('contact-chip');
    expect(shadowRootOpener(undefined)(el)).toBeNull();
    expect(shadowRootOpener({ openOrClosedShadowRoot: () => { throw new TypeError('not an HTMLElement'); } })(el)).toBeNull();
  });
});
