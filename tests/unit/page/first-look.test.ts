// @vitest-environment happy-dom
/**
 * The first stage's look at a document (lib/page/first-look.ts) reads the text of the document's
 * first cells (elements without child elements) before its whole text: on a long list whose first
 * rows hold a phone-shaped run it reads those rows, not the whole page (a 5,000-row page's whole text
 * cost the content script ~20 ms). Its answer must stay exactly that of the whole text, whatever the
 * page's shape: a digit run split over elements or empty elements, deep or wide trees.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasCandidateShape } from '../../../lib/phone/candidate';
import { mayHoldNumbers } from '../../../lib/page/first-look';
import { seededRandom } from '../../support/fault-proxy';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const TAGS = ['div', 'span', 'p', 'li', 'td', 'b', 'i', 'section', 'a'];
/** Pieces of text: digits of several scripts and phone punctuation; words and small figures. */
const DIGITS = ['4', '15', '555', '0132', '０３', '٠٥٠', '7'];
const OTHERS = ['-', ' ', '(', ')', '.', '/', '－', '\u200E', 'Phone', 'Order', 'Open', 'Oregon', 'Status: open', 'x', ''];

/** A random tree of `count` elements holding random pieces of text, a share `digits` of them digits. */
function randomBody(r: () => number, count: number, digits: number): string {
  const piece = () => {
    const from = r() < digits ? DIGITS : OTHERS;
    return from[Math.floor(r() * from.length)]!;
  };
  let html = '';
  const open: string[] = [];
  for (let n = 0; n < count; n++) {
    const roll = r();
    if (roll < 0.45 || open.length === 0) {
      const tag = TAGS[Math.floor(r() * TAGS.length)]!;
      html += `<${tag}>`;
      open.push(tag);
    } else if (roll < 0.8) {
      html += `</${open.pop()}>`;
    } else {
      html += '<i></i>'; // an empty element: a cell with no text of its own
    }
    const pieces = Math.floor(r() * 3);
    for (let k = 0; k < pieces; k++) html += piece();
  }
  while (open.length) html += `</${open.pop()}>`;
  return html;
}

/** Characters of the document's text the look read (through textContent or a range's text). */
function countReads(): { chars: number } {
  const read = { chars: 0 };
  // Where this DOM defines the getter (an element's prototype chain), spied there.
  let owner: object | null = document.body;
  while (owner && !Object.getOwnPropertyDescriptor(owner, 'textContent')) owner = Object.getPrototypeOf(owner);
  const text = Object.getOwnPropertyDescriptor(owner!, 'textContent')!;
  vi.spyOn(owner as { textContent: string }, 'textContent', 'get').mockImplementation(function (this: Node) {
    const value = text.get!.call(this) as string;
    read.chars += value?.length ?? 0;
    return value;
  });
  const toString = Range.prototype.toString;
  vi.spyOn(Range.prototype, 'toString').mockImplementation(function (this: Range) {
    const value = toString.call(this);
    read.chars += value.length;
    return value;
  });
  return read;
}

describe('the first look reads the first cells, then the whole text', () => {
  it('answers as the whole text does on 300 random pages, small and large, with numbers split anywhere', () => {
    const r = seededRandom(20);
    let yes = 0;
    for (let page = 0; page < 300; page++) {
      document.body.innerHTML = randomBody(r, page % 4 === 0 ? 1500 : 20 + Math.floor(r() * 400), page % 4 === 0 ? r() * 0.12 : r() * 0.3);
      const whole = hasCandidateShape(document.body.textContent ?? '');
      if (whole) yes++;
      expect(mayHoldNumbers(document), `page ${page}`).toBe(whole);
    }
    // Both answers occur often enough for the comparison to mean something.
    expect(yes).toBeGreaterThan(75);
    expect(yes).toBeLessThan(225);
  });

  it('finds a number whose digits are spread over many elements, early or late in the page', () => {
    // Filler elements without digits, then "415-555-0132" one character per element, with empty
    // elements between: no cell holds the run, the whole text does.
    for (const before of [0, 1, 20, 31, 32, 33, 63, 64, 65, 95, 96, 127, 128, 250, 1000]) {
      const filler = Array.from({ length: before }, (_, i) => `<p>Row ${i % 10} item</p>`).join('');
      const spread = [...'415-555-0132'].map((c) => `<span>${c}</span><i></i>`).join('');
      document.body.innerHTML = `${filler}<div>${spread}</div>${filler}`;
      expect(mayHoldNumbers(document), `after ${before} elements`).toBe(true);
      // Six digits: not a number's shape anywhere.
      document.body.innerHTML = `${filler}<div>${[...'415-555'].map((c) => `<span>${c}</span><i></i>`).join('')}</div>${filler}`;
      expect(mayHoldNumbers(document), `six digits after ${before} elements`).toBe(false);
    }
  });

  it('reads only the first rows of a long list whose first rows hold a number, and every row of one without', () => {
    // Rows as lists and tables write them: bare cells, a link or a <small> in the cell, a nested wrapper.
    const shapes: Array<(cell: string, i: number) => string> = [
      (cell, i) => `<tr><td>Customer ${i % 97}</td><td>${cell}</td><td>Open</td></tr>`,
      (cell, i) => `<tr><td><a href="/c/${i}">Customer</a></td><td><a href="#">${cell}</a></td><td><span class="pill">Open</span></td></tr>`,
      (cell, i) => `<li>Ref: ${cell} <small>#${i}</small></li>`,
      (cell, i) => `<div class="row"><div class="cell"><span>Name</span> <b>Customer ${i % 97}</b></div><div class="cell"><span>${cell}</span></div></div>`,
    ];
    for (const [k, row] of shapes.entries()) {
      const rows = (withNumber: boolean) => Array.from({ length: 2000 }, (_, i) => row(withNumber && i === 3 ? '(415) 555-0132' : 'Oregon', i)).join('');
      const wrap = (inner: string) => (k < 2 ? `<div><nav><a href="/">Home</a> <a href="/a">Accounts</a></nav><h1>Accounts</h1><table><tbody>${inner}</tbody></table></div>` : `<main><h1>Accounts</h1><div><ul>${inner}</ul></div></main>`);
      document.body.innerHTML = wrap(rows(true));
      const whole = (document.body.textContent ?? '').length;
      let read = countReads();
      expect(mayHoldNumbers(document), `shape ${k}`).toBe(true);
      expect(read.chars, `shape ${k}`).toBeGreaterThan(0);
      expect(read.chars, `shape ${k}`).toBeLessThan(whole / 20);
      vi.restoreAllMocks();

      document.body.innerHTML = wrap(rows(false));
      read = countReads();
      expect(mayHoldNumbers(document), `shape ${k}`).toBe(false);
      expect(read.chars, `shape ${k}`).toBeGreaterThanOrEqual((document.body.textContent ?? '').length);
      vi.restoreAllMocks();
    }
  });

  it('a number in the last row of a long page is still found', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `<li>Item ${i % 50}</li>`).join('');
    document.body.innerHTML = `<ul>${rows}<li>Call <b>415</b>.<b>555</b>.<b>0132</b></li></ul>`;
    expect(mayHoldNumbers(document)).toBe(true);
    document.body.innerHTML = `<ul>${rows}</ul>Call 415 555 0132`;
    expect(mayHoldNumbers(document)).toBe(true);
  });
});
