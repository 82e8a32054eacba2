// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { telClickOf, telLinkOf } from '../../../lib/page/tel';
import { createScanner } from '../../../lib/phone/scan';

function mount(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.appendChild(root);
  return root;
}

function pathOf(node: Node): EventTarget[] {
  const path: EventTarget[] = [];
  for (let n: Node | null = node; n; n = n.parentNode ?? (n as ShadowRoot).host ?? null) path.push(n);
  return path;
}

/** A click as telClickOf sees it; `isTrusted` can only be true for real user input in a browser. */
function click(target: Node, init: { isTrusted?: boolean; button?: number; defaultPrevented?: boolean } = {}) {
  return {
    isTrusted: init.isTrusted ?? true,
    button: init.button ?? 0,
    defaultPrevented: init.defaultPrevented ?? false,
    composedPath: () => pathOf(target),
  };
}

const noResults = new Map();

afterEach(() => {
  document.body.innerHTML = '';
});

describe('telLinkOf', () => {
  it('finds the innermost link and accepts only tel: and callto:', () => {
    const root = mount('<a id="t" href="tel:+14155550132"><b id="b">call</b></a><a id="m" href="mailto:a@b.c"><i id="i">mail</i></a><a id="c" href=" CALLTO://+442079460958">x</a>');
    expect(telLinkOf(pathOf(root.querySelector('#b')!))).toBe(root.querySelector('#t'));
    expect(telLinkOf(pathOf(root.querySelector('#i')!))).toBeNull();
    expect(telLinkOf(pathOf(root.querySelector('#c')!))).toBe(root.querySelector('#c'));
  });
});

describe('telClickOf', () => {
  it('turns a trusted primary click on a tel: link into its E.164 number', () => {
    const root = mount('<p><a href="tel:+1-415-555-0132;ext=12"><span id="s">(415) 555-0132</span></a></p>');
    expect(telClickOf(click(root.querySelector('#s')!), noResults, 'US')).toMatchObject({ number: '+14155550132' });
  });

  it('reads national numbers in the page’s default country', () => {
    const root = mount('<a id="a" href="tel:020 7946 0958">London</a>');
    expect(telClickOf(click(root.querySelector('#a')!), noResults, 'GB')?.number).toBe('+442079460958');
  });

  it('prefers what the scanner found for the link', () => {
    const root = mount('<p><a id="a" href="tel:4155550132">call</a></p>');
    const scanner = createScanner({ defaultCountry: 'US' });
    scanner.scanRoot(root);
    scanner.flush();
    expect(scanner.results().has(root.querySelector('#a')!)).toBe(true);
    expect(telClickOf(click(root.querySelector('#a')!), scanner.results(), 'GB')?.number).toBe('+14155550132');
  });

  it('ignores synthetic clicks, other buttons, clicks the page already handled, and non-numbers', () => {
    const root = mount('<a id="a" href="tel:+14155550132">call</a><a id="bad" href="tel:hello">x</a><a id="web" href="https://example.com/4155550132">w</a>');
    const a = root.querySelector('#a')!;
    expect(telClickOf(click(a, { isTrusted: false }), noResults, 'US')).toBeNull();
    expect(telClickOf(click(a, { button: 1 }), noResults, 'US')).toBeNull();
    expect(telClickOf(click(a, { defaultPrevented: true }), noResults, 'US')).toBeNull();
    expect(telClickOf(click(root.querySelector('#bad')!), noResults, 'US')).toBeNull();
    expect(telClickOf(click(root.querySelector('#web')!), noResults, 'US')).toBeNull();
  });

  it('leaves links in editable areas and opted-out blocks alone', () => {
    const root = mount(
      '<div contenteditable="true"><a id="e" href="tel:+14155550132">x</a></div><div data-no-click-to-call><a id="o" href="tel:+14155550132">y</a></div>',
    );
    expect(telClickOf(click(root.querySelector('#e')!), noResults, 'US')).toBeNull();
    expect(telClickOf(click(root.querySelector('#o')!), noResults, 'US')).toBeNull();
  });
});
