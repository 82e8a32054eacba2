// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { telClickOf, telLinkOf } from '../../../lib/page/tel';
import { createScanner } from '../../../lib/phone/scan';
import { toE164 } from '../../../lib/phone/normalize';
import { mount } from '../../support/mount';

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
  // The page carries no phone library: a link the scanner has not read yet (its answer still on its way)
  // goes as written, and the confirmation's form reads it with the site's country (toE164 below is its reading).
  it('turns a trusted primary click on a link not read yet into its number as written, which the form reads', () => {
    const root = mount('<p><a href="tel:+1-415-555-0132;ext=12"><span id="s">(415) 555-0132</span></a></p>');
    const tel = telClickOf(click(root.querySelector('#s')!), noResults);
    expect(tel).toMatchObject({ number: '+1-415-555-0132' });
    expect(toE164(tel!.number, 'US')).toBe('+14155550132');
  });

  it('a national number as written, read by the form with the site’s country; a phone-context goes before it', () => {
    const root = mount('<a id="a" href="tel:020 7946 0958">London</a><a id="c" href="tel:7946-0958;phone-context=+44-20">x</a>');
    const tel = telClickOf(click(root.querySelector('#a')!), noResults);
    expect(tel?.number).toBe('020 7946 0958');
    expect(toE164(tel!.number, 'GB')).toBe('+442079460958');
    expect(toE164(telClickOf(click(root.querySelector('#c')!), noResults)!.number, 'US')).toBe('+442079460958');
  });

  it('prefers what the scanner found for the link', () => {
    const root = mount('<p><a id="a" href="tel:4155550132">call</a></p>');
    const scanner = createScanner({ defaultCountry: 'US' });
    scanner.scanRoot(root);
    scanner.flush();
    expect(scanner.results().has(root.querySelector('#a')!)).toBe(true);
    expect(telClickOf(click(root.querySelector('#a')!), scanner.results())?.number).toBe('+14155550132');
  });

  it('ignores synthetic clicks, other buttons, clicks the page already handled, and non-numbers', () => {
    const root = mount('<a id="a" href="tel:+14155550132">call</a><a id="bad" href="tel:hello">x</a><a id="short" href="tel:911">x</a><a id="web" href="https://example.com/4155550132">w</a>');
    const a = root.querySelector('#a')!;
    expect(telClickOf(click(a, { isTrusted: false }), noResults)).toBeNull();
    expect(telClickOf(click(a, { button: 1 }), noResults)).toBeNull();
    expect(telClickOf(click(a, { defaultPrevented: true }), noResults)).toBeNull();
    expect(telClickOf(click(root.querySelector('#bad')!), noResults)).toBeNull();
    expect(telClickOf(click(root.querySelector('#short')!), noResults)).toBeNull();
    expect(telClickOf(click(root.querySelector('#web')!), noResults)).toBeNull();
  });

  it('leaves links in editable areas and opted-out blocks alone', () => {
    const root = mount(
      '<div contenteditable="true"><a id="e" href="tel:+14155550132">x</a></div><div data-no-click-to-call><a id="o" href="tel:+14155550132">y</a></div>',
    );
    expect(telClickOf(click(root.querySelector('#e')!), noResults)).toBeNull();
    expect(telClickOf(click(root.querySelector('#o')!), noResults)).toBeNull();
  });
});
