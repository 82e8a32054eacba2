// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { boxContains, hitForFocus, hitTest, placeButton, sameBox, type Box, type RectsOf } from '../../../lib/page/hit';
import { createScanner, type PhoneMatch, type Scanner } from '../../../lib/phone/scan';
import { mount } from '../../support/mount';

function scan(root: Node): Scanner {
  const scanner = createScanner({ defaultCountry: 'US' });
  scanner.scanRoot(root);
  scanner.flush();
  return scanner;
}

const box = (left: number, top: number, right: number, bottom: number): Box => ({ left, top, right, bottom });

/** Fake layout: each match gets the boxes listed for its raw text. */
function layout(boxes: Record<string, Box[]>): RectsOf {
  return (m: PhoneMatch) => boxes[m.raw] ?? [];
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('hitTest', () => {
  it('finds the text number whose line box holds the point, from an inline element inside its block', () => {
    const root = mount('<p id="p">Call <b id="b">Amelia</b> on (415) 555-0132 or <i id="i">212-555-0147</i>.</p>');
    const scanner = scan(root);
    const rects = layout({ '(415) 555-0132': [box(100, 10, 200, 28)], '212-555-0147': [box(220, 10, 300, 28)] });
    const p = root.querySelector('#p')!;
    const i = root.querySelector('#i')!;

    expect(hitTest([p, root, document.body], 150, 20, scanner.results(), rects)?.match.e164).toBe('+14155550132');
    // The pointer's innermost target is an inline element: its block's numbers are tested.
    expect(hitTest([i, p, root], 250, 20, scanner.results(), rects)?.match.e164).toBe('+12125550147');
    // Over "Amelia": no number there.
    expect(hitTest([root.querySelector('#b')!, p], 60, 20, scanner.results(), rects)).toBeNull();
    // Outside every box, by more than the 1 px tolerance.
    expect(hitTest([p], 150, 30, scanner.results(), rects)).toBeNull();
  });

  it('returns the line box the pointer is in for a number that wraps', () => {
    const root = mount('<p>Office: +44 20 7946 0958</p>');
    const scanner = scan(root);
    const rects = layout({ '+44 20 7946 0958': [box(300, 10, 400, 28), box(0, 30, 60, 48)] });
    const hit = hitTest([root.querySelector('p')!], 20, 40, scanner.results(), rects);
    expect(hit?.match.e164).toBe('+442079460958');
    expect(hit?.box).toEqual(box(0, 30, 60, 48));
  });

  it('takes a tel: link or read-only input as a whole element', () => {
    const root = mount(
      '<div><a id="tel" href="tel:+14155552671"><span id="inner">Call us</span></a></div>' +
        '<div><input id="ro" readonly value="(415) 555-0150"></div>',
    );
    const scanner = scan(root);
    const rects: RectsOf = (m) => (m.source === 'link' ? [box(0, 0, 80, 20)] : m.source === 'input' ? [box(0, 40, 200, 60)] : []);
    const a = root.querySelector('#tel')!;
    const hit = hitTest([root.querySelector('#inner')!, a, a.parentElement!], 10, 10, scanner.results(), rects);
    expect(hit).toMatchObject({ match: { source: 'link', e164: '+14155552671' }, box: box(0, 0, 80, 20) });
    const input = root.querySelector('#ro')!;
    expect(hitTest([input, input.parentElement!], 50, 50, scanner.results(), rects)?.match).toMatchObject({ source: 'input', e164: '+14155550150' });
  });

  it('reaches numbers inside open shadow roots through the composed path', () => {
    const host = document.createElement('x-card');
    document.body.appendChild(host);
    const shadow = host.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<div id="d"><span id="s">+1 312 555 0163</span></div>';
    const scanner = scan(document);
    const rects = layout({ '+1 312 555 0163': [box(5, 5, 120, 20)] });
    const span = shadow.getElementById('s')!;
    expect(hitTest([span, shadow.getElementById('d')!, shadow, host, document.body], 10, 10, scanner.results(), rects)?.match.e164).toBe('+13125550163');
  });

  it('ignores empty paths and non-nodes', () => {
    expect(hitTest([], 0, 0, new Map())).toBeNull();
    expect(hitTest([window], 0, 0, new Map())).toBeNull();
  });
});

describe('hitForFocus', () => {
  it('uses a focused link’s own number, or a text number inside the focused element', () => {
    const root = mount(
      '<p><a id="tel" href="tel:+14155552671">call</a></p>' + '<p>Mobile: <a id="plain" href="/contacts/7">(415) 555-0194</a> · <a id="other" href="/x">profile</a></p>',
    );
    const scanner = scan(root);
    const rects: RectsOf = () => [box(1, 2, 3, 4)];
    expect(hitForFocus(root.querySelector('#tel')!, scanner.results(), rects)?.match.source).toBe('link');
    expect(hitForFocus(root.querySelector('#plain')!, scanner.results(), rects)?.match.e164).toBe('+14155550194');
    expect(hitForFocus(root.querySelector('#other')!, scanner.results(), rects)).toBeNull();
  });
});

describe('placeButton', () => {
  const size = { width: 120, height: 26 };
  const viewport = { width: 800, height: 600 };

  it('puts the button just below the number, left-aligned with it', () => {
    expect(placeButton(box(100, 50, 200, 70), size, viewport)).toEqual({ left: 100, top: 72 });
  });

  it('flips above when there is no room below', () => {
    expect(placeButton(box(100, 580, 200, 598), size, viewport)).toEqual({ left: 100, top: 552 });
  });

  it('stays inside the viewport horizontally and vertically', () => {
    expect(placeButton(box(760, 50, 790, 70), size, viewport).left).toBe(680);
    expect(placeButton(box(-40, 50, 10, 70), size, viewport).left).toBe(0);
    // A number taller than the room on both sides: clamp to the bottom edge.
    expect(placeButton(box(0, 10, 50, 590), size, viewport).top).toBe(574);
  });

  it('never covers the line box it belongs to when there is room', () => {
    const anchor = box(300, 200, 420, 220);
    const { left, top } = placeButton(anchor, size, viewport);
    const button = box(left, top, left + size.width, top + size.height);
    expect(button.top >= anchor.bottom || button.bottom <= anchor.top).toBe(true);
  });
});

describe('geometry helpers', () => {
  it('boxContains honours the padding; sameBox compares edges', () => {
    expect(boxContains(box(0, 0, 10, 10), 11, 5)).toBe(false);
    expect(boxContains(box(0, 0, 10, 10), 11, 5, 1)).toBe(true);
    expect(sameBox(box(0, 0, 1, 1), box(0, 0, 1, 1))).toBe(true);
    expect(sameBox(box(0, 0, 1, 1), null)).toBe(false);
  });
});
