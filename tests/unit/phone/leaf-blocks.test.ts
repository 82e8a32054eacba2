// @vitest-environment happy-dom
/**
 * The walk passes over a block with no child elements whose text has too few digits for a number
 * (a list's name, owner, stage and amount cells): it is a text group of its own with nothing to find,
 * so reading its text nodes one by one from the content script's world is cost without result. What
 * must still hold is every number the walk found before, on every path that leads into such a block.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createScanner, scanNode, type PhoneMatch, type ScanOptions } from '../../../lib/phone/scan';
import { mount } from '../../support/mount';

const US: ScanOptions = { defaultCountry: 'US' };

const numbers = (matches: PhoneMatch[]) => matches.map((m) => m.e164).sort();

afterEach(() => {
  document.body.innerHTML = '';
});

function list(rows: number): HTMLElement {
  const body = Array.from(
    { length: rows },
    (_, i) =>
      `<tr><td>Contact ${i}</td><td>Owner ${i % 17}</td><td>(415) 555-${String(1000 + i).padStart(4, '0')}</td><td>$${(i * 12.5).toFixed(2)}</td><td>Stage ${i % 6}</td></tr>`,
  ).join('');
  return mount(`<table><thead><tr><th>Name</th><th>Owner</th><th>Phone</th><th>Amount</th><th>Stage</th></tr></thead><tbody>${body}</tbody></table>`);
}

describe('leaf blocks too short of digits', () => {
  it("reads only the cells that could hold a number, and finds every number of the list", () => {
    const root = list(200);
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    expect(scanner.matches()).toHaveLength(200);
    // One text node per row (the phone cell's): the name, owner, amount and stage cells and the
    // header are passed over.
    expect(scanner.stats.textNodes).toBe(200);
  });

  it('still reads a leaf block whose number is spread by white space or written in other digits', () => {
    const root = mount(`
      <table><tr><td>(415)
            555
            0132</td><td>+81 ０３－１２３４－５６７８</td><td>+966 ٠٥٠ ١٢٣ ٤٥٦٧</td></tr></table>
      <p>Call <b>us</b></p><div>Phone:</div><div>212 555 0147</div>`);
    expect(numbers(scanNode(root, US))).toEqual(['+12125550147', '+14155550132', '+81312345678', '+966501234567']);
  });

  it('keeps what an inline element adds to its block (a phone word, digits split across spans)', () => {
    const root = mount('<p><b>Mobile:</b> <span>415</span>-<span>555</span>-<span>0132</span></p><li><span>Tel</span> (212) 555-0147</li>');
    expect(numbers(scanNode(root, US))).toEqual(['+12125550147', '+14155550132']);
  });

  it('opens the shadow root of an empty leaf block', () => {
    const root = mount('<table><tr><td><div id="host"></div></td><td>Owner 3</td></tr></table><section id="s"></section>');
    root.querySelector('#host')!.attachShadow({ mode: 'open' }).innerHTML = '<p>(415) 555-0132</p>';
    root.querySelector('#s')!.attachShadow({ mode: 'open' }).innerHTML = '<span>(212) 555-0147</span>';
    expect(numbers(scanNode(root, US))).toEqual(['+12125550147', '+14155550132']);
  });

  it('drops a number whose cell now reads too few digits, when its row is scanned again', () => {
    const root = list(3);
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    expect(scanner.matches()).toHaveLength(3);
    scanner.takeChanges();
    const row = root.querySelectorAll('tbody tr')[1]!;
    const cell = row.children[2]!;
    cell.textContent = 'n/a';
    scanner.scanRoot(row);
    scanner.flush();
    expect(numbers(scanner.matches())).toEqual(['+14155551000', '+14155551002']);
    expect(scanner.takeChanges()).toContain(cell);
  });

  it('counts the blocks it passes over in its work, so a slice stays short on a page of them', () => {
    // 3,000 digit-free cells: with chunks of 50 text nodes (or 200 elements), the walk must yield
    // many times, though it reads no text node at all.
    mount(`<table>${'<tr><td>Name</td><td>Owner</td><td>Stage</td></tr>'.repeat(1000)}</table>`);
    const scanner = createScanner({ ...US, chunkSize: 50 });
    scanner.scanRoot(document.body);
    let chunks = 0;
    while (scanner.runChunk()) chunks++;
    expect(scanner.stats.textNodes).toBe(0);
    expect(chunks).toBeGreaterThanOrEqual(15);
  });
});
