// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  collectTextTargets,
  containerKeyOf,
  createScanner,
  matchToRange,
  OBSERVED_ATTRIBUTES,
  scanNode,
  type InputPhoneMatch,
  type LinkPhoneMatch,
  type PhoneMatch,
  type ScanOptions,
  type TextPhoneMatch,
} from '../../../lib/phone/scan';
import { mount } from '../../support/mount';

const US: ScanOptions = { defaultCountry: 'US' };

function numbers(matches: PhoneMatch[]): string[] {
  return matches.map((m) => m.e164).sort();
}

function textMatches(matches: PhoneMatch[]): TextPhoneMatch[] {
  return matches.filter((m): m is TextPhoneMatch => m.source === 'text');
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('text matches', () => {
  it('reports the text node and offsets, and builds a Range on demand', () => {
    const root = mount('<p>Call Amelia on (415) 555-0132 today.</p>');
    const [m] = textMatches(scanNode(root, US));
    expect(m).toMatchObject({ e164: '+14155550132', raw: '(415) 555-0132', country: 'US' });
    expect(m!.startNode).toBe(m!.endNode);
    expect(m!.startNode.data.slice(m!.startOffset, m!.endOffset)).toBe('(415) 555-0132');
    expect(m!.container).toBe(root.querySelector('p'));
    expect(matchToRange(m!)?.toString()).toBe('(415) 555-0132');
  });

  it('joins a number split across inline elements', () => {
    const root = mount('<div class="phone"><span>+1 415</span><span> 555 0132</span></div>');
    const [m] = textMatches(scanNode(root, US));
    expect(m?.e164).toBe('+14155550132');
    expect(m!.startNode).not.toBe(m!.endNode);
    expect(matchToRange(m!)?.toString()).toBe('+1 415 555 0132');
  });

  it('joins digits split by styling and separates a label glued to the value', () => {
    const root = mount('<div><b>Phone</b>4155550132</div><div>(415)<span class="sep">&nbsp;</span>555<i>-</i>0133</div>');
    expect(numbers(scanNode(root, US))).toEqual(['+14155550132', '+14155550133']);
  });

  it('does not join text across blocks, <br> or images', () => {
    const root = mount('<div><p>415 555</p><p>0132 is not one number</p></div><div>212 555<br>0147</div><div>312 555<img alt="">0163</div>');
    expect(scanNode(root, US)).toEqual([]);
  });

  it('collapses white space as rendered (newlines, tabs, indentation)', () => {
    const root = mount('<p>\n      Call us at (415)\n      555-0132\n    or\t\t(212)    555-0147</p>');
    const matches = textMatches(scanNode(root, US));
    expect(numbers(matches)).toEqual(['+12125550147', '+14155550132']);
    expect(matches.map((m) => matchToRange(m)?.toString())).toEqual(['(415)\n      555-0132', '(212)    555-0147']);
  });

  it('uses the column header or form label to veto identifier fields', () => {
    const root = mount(`
      <table>
        <thead><tr><th>Name</th><th>Order #</th><th>Phone</th></tr></thead>
        <tbody><tr><th scope="row">Ann</th><td>415-555-0139</td><td>(415) 555-0140</td></tr></tbody>
      </table>
      <dl><dt>Account Number</dt><dd>212-555-0143</dd><dt>Mobile</dt><dd>2125550144</dd></dl>
      <div><span class="field-label">Legacy ID</span><div class="value">312-555-0163</div></div>
      <div><span class="field-label">Direct line</span><div class="value">3125550164</div></div>`);
    expect(numbers(scanNode(root, US))).toEqual(['+12125550144', '+13125550164', '+14155550140']);
    // Without labels nothing is vetoed, and a bare digit run has no phone label to count under.
    expect(numbers(scanNode(root, { ...US, labels: false }))).toEqual(['+12125550143', '+13125550163', '+14155550139', '+14155550140']);
  });

  it('reads a renamed column header on the next rescan, in the same task or a later one', async () => {
    const root = mount(`
      <table><thead><tr><th>Name</th><th id="h">Phone</th></tr></thead>
      <tbody><tr><td>Ann</td><td>4155550139</td></tr></tbody></table>`);
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    expect(numbers(scanner.matches())).toEqual(['+14155550139']);

    const observer = new MutationObserver(() => {});
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    const rename = (label: string, number: string) => {
      root.querySelector('#h')!.textContent = label;
      const row = document.createElement('tr');
      row.innerHTML = `<td>Bo</td><td>${number}</td>`;
      root.querySelector('tbody')!.appendChild(row);
      scanner.scanMutations(observer.takeRecords());
      scanner.flush();
    };
    // Same task as the first scan: the header memo must not outlive the DOM change.
    rename('Order Number', '4155550140');
    expect(numbers(scanner.matches())).toEqual(['+14155550139']);
    await Promise.resolve();
    rename('Mobile', '4155550141');
    expect(numbers(scanner.matches())).toEqual(['+14155550139', '+14155550141']);
    observer.disconnect();
  });
});

describe('skip rules apply to every node, at any depth', () => {
  // Each rule: the skipped element wraps <div><span>NUMBER</span></div> (depth 2), built with the DOM
  // API so that even raw-text elements (script, textarea…) get element children.
  const rules: [name: string, make: () => Element, options?: ScanOptions][] = [
    ['script', () => document.createElement('script')],
    ['style', () => document.createElement('style')],
    ['noscript', () => document.createElement('noscript')],
    ['template', () => document.createElement('template')],
    ['textarea', () => document.createElement('textarea')],
    ['select', () => document.createElement('select')],
    ['option', () => document.createElement('option')],
    ['svg', () => document.createElementNS('http://www.w3.org/2000/svg', 'svg')],
    ['head-like title', () => document.createElement('title')],
    ['contenteditable=""', () => attr('div', 'contenteditable', '')],
    ['contenteditable="true"', () => attr('div', 'contenteditable', 'true')],
    ['contenteditable="plaintext-only"', () => attr('section', 'contenteditable', 'plaintext-only')],
    ['aria-hidden="true"', () => attr('div', 'aria-hidden', 'true')],
    ['hidden', () => attr('div', 'hidden', '')],
    ['style display:none', () => attr('div', 'style', 'color: red; display: none')],
    ['data-no-click-to-call', () => attr('div', 'data-no-click-to-call', '')],
    ['code with skipCode', () => document.createElement('code'), { skipCode: true }],
    ['pre with skipCode', () => document.createElement('pre'), { skipCode: true }],
  ];

  function attr(tag: string, name: string, value: string): Element {
    const el = document.createElement(tag);
    el.setAttribute(name, value);
    return el;
  }

  function page(skipped: Element): HTMLElement {
    const root = mount('<div class="card"><p>Visible: (212) 555-0147</p><div class="slot"></div></div>');
    const inner = document.createElement('div');
    const span = document.createElement('span');
    span.textContent = 'Hidden: (415) 555-0132';
    inner.appendChild(span);
    skipped.appendChild(inner);
    root.querySelector('.slot')!.appendChild(skipped);
    return root;
  }

  for (const [name, make, options] of rules) {
    it(`${name}: skipped in a full scan`, () => {
      const root = page(make());
      expect(numbers(scanNode(document, { ...US, ...options }))).toEqual(['+12125550147']);
      expect(numbers(scanNode(root, { ...US, ...options }))).toEqual(['+12125550147']);
    });

    it(`${name}: skipped when the scan starts inside it`, () => {
      const skipped = make();
      const root = page(skipped);
      // A template's children live in its content fragment, outside the document tree: a walk
      // never enters it and document mutation observers never report it.
      if (name === 'template') return expect(root.querySelector('.slot span')).toBeNull();
      const span = root.querySelector('.slot span') as Element;
      expect(scanNode(span, { ...US, ...options })).toEqual([]);
      expect(scanNode(span.parentNode!, { ...US, ...options })).toEqual([]);
    });
  }

  it('code and pre are scanned by default', () => {
    const root = mount('<pre>Support: <code>(415) 555-0132</code></pre>');
    expect(numbers(scanNode(root, US))).toEqual(['+14155550132']);
  });

  it('contenteditable="false" alone is scanned, but not inside an editable area', () => {
    const root = mount(`
      <div contenteditable="false"><span>(415) 555-0132</span></div>
      <div contenteditable="true"><p>Draft <span contenteditable="false">(212) 555-0147</span></p></div>
      <div aria-hidden="false"><span>(312) 555-0163</span></div>`);
    expect(numbers(scanNode(root, US))).toEqual(['+13125550163', '+14155550132']);
  });

  it('skips a document in design mode', () => {
    const root = mount('<p>(415) 555-0132</p>');
    document.designMode = 'on';
    try {
      expect(scanNode(root, US)).toEqual([]);
    } finally {
      document.designMode = 'off';
    }
  });
});

describe('inputs', () => {
  it('reports read-only and disabled text inputs only', () => {
    const root = mount(`
      <input id="ro" readonly value="Assistant: (415) 555-0150 x12">
      <input id="dis" type="tel" disabled value="212-555-0147">
      <input id="edit" type="tel" value="312-555-0163">
      <input id="hidden" type="hidden" readonly value="617-555-0119">
      <input id="pw" type="password" readonly value="6175550152">
      <input id="hid-attr" readonly hidden value="404-555-0138">
      <label for="acct">Account Number</label><input id="acct" readonly value="2024001873">`);
    const matches = scanNode(root, US);
    expect(matches.every((m) => m.source === 'input')).toBe(true);
    const byId = Object.fromEntries((matches as InputPhoneMatch[]).map((m) => [m.element.id, m]));
    expect(Object.keys(byId).sort()).toEqual(['dis', 'ro']);
    expect(byId.ro).toMatchObject({ e164: '+14155550150', ext: '12', start: 11, end: 29, raw: '(415) 555-0150 x12' });
    expect(matchToRange(byId.ro!)).not.toBeNull();
  });
});

describe('text areas: the exports testers copy numbers from', () => {
  it('reports read-only and disabled text areas, never one the user is typing in', () => {
    const root = mount(`
      <label for="exp">Export</label><textarea id="exp" readonly>id,name,phone
1,Ann,(415) 555-0150
2,Bo,+44 20 7946 0958</textarea>
      <textarea id="dis" disabled>Desk: 212-555-0147</textarea>
      <textarea id="edit">Call 312-555-0163 after 10am</textarea>
      <textarea id="gone" readonly hidden>404-555-0138</textarea>`);
    const matches = scanNode(root, US) as InputPhoneMatch[];
    expect(matches.every((m) => m.source === 'input')).toBe(true);
    expect(matches.map((m) => [m.element.id, m.e164, m.raw])).toEqual([
      ['exp', '+14155550150', '(415) 555-0150'],
      ['exp', '+442079460958', '+44 20 7946 0958'],
      ['dis', '+12125550147', '212-555-0147'],
    ]);
    // Offsets into the value: where the number stands, for the overlay and the selection.
    const exp = matches[0]!;
    expect((exp.element as HTMLTextAreaElement).value.slice(exp.start, exp.end)).toBe('(415) 555-0150');
  });

  it('reads the value the page set, not the markup it started with', () => {
    const root = mount('<textarea id="log" readonly>nothing yet</textarea>');
    (root.querySelector('#log') as HTMLTextAreaElement).value = 'Caller: +1 646 555 0101';
    expect(scanNode(root, US).map((m) => m.e164)).toEqual(['+16465550101']);
  });
});

describe('tel: and callto: links', () => {
  it('reports the href number once, not again from the link text', () => {
    const root = mount('<p>Call <a href="tel:+1-415-555-0132;ext=12">(415) 555-0132 x12</a></p>');
    const matches = scanNode(root, US);
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ source: 'link', e164: '+14155550132', ext: '12', href: 'tel:+1-415-555-0132;ext=12', valid: true });
    expect(matchToRange(matches[0]!)?.toString()).toBe('(415) 555-0132 x12');
  });

  it('decodes hrefs, reads callto:, ignores sms:, and keeps link text that shows another number', () => {
    const root = mount(`
      <a href="tel:%2B44%2020%207946%200958">Call London</a>
      <a href="callto://+4930901820">Berlin</a>
      <a href="sms:+13125550177">Text (312) 555-0177</a>
      <a href="tel:+12125550147">Main line; direct (212) 555-0148</a>
      <a href="tel:4155550132">(415) 555-0132</a>`);
    const matches = scanNode(root, US);
    const links = matches.filter((m): m is LinkPhoneMatch => m.source === 'link');
    expect(links.map((m) => m.e164).sort()).toEqual(['+12125550147', '+14155550132', '+442079460958', '+4930901820']);
    expect(numbers(textMatches(matches))).toEqual(['+12125550148', '+13125550177']);
  });

  it('skips links inside skipped areas', () => {
    const root = mount('<div contenteditable><p><a href="tel:+14155550132">call</a></p></div>');
    expect(scanNode(root, US)).toEqual([]);
  });
});

describe('shadow roots', () => {
  function host(parent: Element, html: string, mode: 'open' | 'closed' = 'open'): { host: HTMLElement; shadow: ShadowRoot } {
    const el = document.createElement('x-host');
    parent.appendChild(el);
    const shadow = el.attachShadow({ mode });
    shadow.innerHTML = html;
    return { host: el, shadow };
  }

  it('walks open shadow roots, nested three deep', () => {
    const root = mount('<p>Light: (212) 555-0147</p>');
    const one = host(root, '<p>Level 1: (415) 555-0132</p><div class="next"></div>');
    const two = host(one.shadow.querySelector('.next')!, '<span>Level 2: <a href="tel:+13125550163">call</a></span><div class="next"></div>');
    host(two.shadow.querySelector('.next')!, '<span>Level 3: +44 20 7946 0958</span>');
    const matches = scanNode(document, US);
    expect(numbers(matches)).toEqual(['+12125550147', '+13125550163', '+14155550132', '+442079460958']);
    const deepest = textMatches(matches).find((m) => m.e164 === '+442079460958')!;
    expect(deepest.startNode.getRootNode()).not.toBe(document);
    expect(matchToRange(deepest)?.toString()).toBe('+44 20 7946 0958');
  });

  it('applies skip rules inside shadow roots and to hosts', () => {
    const root = mount('');
    host(root, '<div contenteditable="true"><p><b>(415) 555-0132</b></p></div><p>(212) 555-0147</p>');
    const optedOut = host(root, '<p>(312) 555-0163</p>');
    optedOut.host.setAttribute('data-no-click-to-call', '');
    expect(numbers(scanNode(document, US))).toEqual(['+12125550147']);
  });

  it('sees closed shadow roots only through getShadowRoot', () => {
    const root = mount('');
    const closed = host(root, '<p>Private: (415) 555-0132</p>', 'closed');
    expect(scanNode(document, US)).toEqual([]);
    const getShadowRoot = (el: Element) => (el === closed.host ? closed.shadow : el.shadowRoot);
    expect(numbers(scanNode(document, { ...US, getShadowRoot }))).toEqual(['+14155550132']);
  });

  it('reads a shadow root on every element that can host one, and never asks the rest (a table’s cells and rows)', () => {
    const hosts = ['article', 'aside', 'blockquote', 'div', 'footer', 'h1', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span', 'x-card'];
    const root = mount('<table><tr><td>Ada</td><td><a href="#">Profile</a> <b>new</b></td></tr></table><ul><li>Item</li></ul>');
    const closedRoots = new Map<Element, ShadowRoot>();
    hosts.forEach((tag, i) => {
      const el = document.createElement(tag);
      root.appendChild(el);
      const shadow = el.attachShadow({ mode: 'closed' });
      shadow.innerHTML = `<p>Desk ${i}: (415) 555-01${String(10 + i)}</p>`;
      closedRoots.set(el, shadow);
    });
    const asked: string[] = [];
    const getShadowRoot = (el: Element) => (asked.push(el.localName), closedRoots.get(el) ?? el.shadowRoot);
    expect(numbers(scanNode(document, { ...US, getShadowRoot }))).toHaveLength(hosts.length);
    for (const tag of ['td', 'tr', 'table', 'tbody', 'a', 'b', 'ul', 'li']) expect(asked, tag).not.toContain(tag);
  });

  it('finds slotted light-DOM text once', () => {
    const root = mount('<x-card><span slot="phone">(415) 555-0132</span></x-card>');
    const card = root.querySelector('x-card')!;
    card.attachShadow({ mode: 'open' }).innerHTML = '<p>Phone: <slot name="phone"></slot></p>';
    expect(numbers(scanNode(document, US))).toEqual(['+14155550132']);
  });
});

describe('iframes', () => {
  it('scans a same-origin frame only with frames: true', async () => {
    mount('<p>Parent: (212) 555-0147</p>');
    const frame = document.createElement('iframe');
    frame.srcdoc = '<p>Child: (415) 555-0132</p>';
    document.body.appendChild(frame);
    await vi.waitFor(() => expect(frame.contentDocument?.body.textContent).toContain('Child'));
    expect(numbers(scanNode(document, US))).toEqual(['+12125550147']);
    expect(numbers(scanNode(document, { ...US, frames: true }))).toEqual(['+12125550147', '+14155550132']);
  });
});

describe('collectTextTargets and containerKeyOf', () => {
  it('lists the texts the finder would read, with their pieces', () => {
    const root = mount(`
      <div id="a">Phone: <b>(415)</b> 555-0132</div>
      <div id="b">No digits here</div>
      <div id="c">Only 12 digits 34</div>
      <a href="tel:+12125550147">call</a>
      <input readonly value="312-555-0163">`);
    const targets = collectTextTargets(root, US);
    expect(targets.texts.map((t) => (t.container as Element).id)).toEqual(['a']);
    const [a] = targets.texts;
    expect(a!.text).toBe('Phone: (415) 555-0132');
    expect(a!.pieces.map((p) => p.node.data)).toEqual(['Phone: ', '(415)', ' 555-0132']);
    expect(targets.links).toHaveLength(1);
    expect(targets.inputs).toHaveLength(1);
  });

  it('maps an element under the pointer to its results key', () => {
    const root = mount('<div id="row"><span><b>(415) 555-0132</b></span></div>');
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    const key = containerKeyOf(root.querySelector('b')!);
    expect(key).toBe(root.querySelector('#row'));
    expect(scanner.results().get(key)?.map((m) => m.e164)).toEqual(['+14155550132']);
  });
});

describe('createScanner: chunks and mutations', () => {
  function bigTable(rows: number): HTMLElement {
    const body = Array.from(
      { length: rows },
      (_, i) =>
        `<tr id="r${i}"><td>Contact ${i}</td><td>Acme ${i}</td><td>(415) 555-${String(100 + (i % 9000)).padStart(4, '0')}</td><td>Note <b>${i}</b></td></tr>`,
    ).join('');
    return mount(`<table><thead><tr><th>Name</th><th>Company</th><th>Phone</th><th>Notes</th></tr></thead><tbody>${body}</tbody></table>`);
  }

  it('splits work into chunks of N text nodes, with the same results as one pass', () => {
    const root = bigTable(300);
    const scanner = createScanner({ ...US, chunkSize: 50 });
    scanner.scanRoot(root);
    let chunks = 0;
    while (scanner.runChunk()) chunks++;
    expect(chunks).toBeGreaterThanOrEqual(Math.floor(scanner.stats.textNodes / 50) - 1);
    // Three text nodes a row are read (the phone and note cells'; the name and company cells hold
    // too few digits for a number and are passed over).
    expect(scanner.stats.textNodes).toBe(900);
    expect(scanner.matches()).toHaveLength(300);
    expect(numbers(scanner.matches())).toEqual(numbers(scanNode(root, US)));
    expect(scanner.hasPendingWork()).toBe(false);
  });

  it('rescans only the nodes a mutation touched', () => {
    const root = bigTable(400);
    const scanner = createScanner({ ...US, chunkSize: 100 });
    scanner.scanRoot(document);
    scanner.flush();
    expect(scanner.matches()).toHaveLength(400);
    const fullScanTextNodes = scanner.stats.textNodes;
    scanner.takeChanges();

    const observer = new MutationObserver(() => {});
    observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
    // 1. edit a text node in place
    const cell = root.querySelector('#r5 td:nth-child(3)')!;
    (cell.firstChild as Text).data = '(212) 555-0147';
    // 2. add a row
    const row = document.createElement('tr');
    row.innerHTML = '<td>New</td><td>Fabrikam</td><td>+44 20 7946 0958</td><td>Added</td>';
    root.querySelector('tbody')!.appendChild(row);
    // 3. remove a row
    root.querySelector('#r7')!.remove();
    const records = observer.takeRecords();
    observer.disconnect();
    expect(records.length).toBeGreaterThanOrEqual(3);

    scanner.scanMutations(records);
    // Removed nodes are dropped at once, before any chunk runs.
    expect(numbers(scanner.matches())).not.toContain('+14155550107');
    const before = scanner.stats.textNodes;
    scanner.flush();
    const examined = scanner.stats.textNodes - before;
    expect(examined).toBeLessThan(20);
    expect(examined).toBeLessThan(fullScanTextNodes / 50);

    const found = numbers(scanner.matches());
    expect(found).toContain('+12125550147');
    expect(found).toContain('+442079460958');
    expect(found).not.toContain('+14155550105'); // the old text of the edited cell
    expect(found).not.toContain('+14155550107'); // the removed row
    expect(scanner.matches()).toHaveLength(400);
    const changed = scanner.takeChanges();
    expect(changed).toContain(cell);
    expect(changed).toContain(row.children[2]);
    expect(scanner.takeChanges()).toEqual([]);
  });

  it('never reports a number typed into an editable area (mutations start below the editable root)', () => {
    const root = mount('<div contenteditable="true"><p>Draft</p></div><p id="status"></p>');
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    const observer = new MutationObserver(() => {});
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    const p = root.querySelector('[contenteditable] p')!;
    const span = document.createElement('span');
    span.textContent = ' call (415) 555-0132';
    p.appendChild(span);
    (p.firstChild as Text).data = 'Draft: 212-555-0147';
    root.querySelector('#status')!.textContent = 'Saved; support (312) 555-0163';
    scanner.scanMutations(observer.takeRecords());
    observer.disconnect();
    scanner.flush();
    expect(numbers(scanner.matches())).toEqual(['+13125550163']);
  });

  it('follows attribute changes that hide or reveal content, and ignores the others', () => {
    const root = mount(`
      <div id="a"><p>(415) 555-0132</p></div>
      <div id="b" hidden><p>(212) 555-0147</p></div>
      <div id="c" style="display: none"><p>(312) 555-0163</p></div>
      <div id="d" class="x" style="color: red"><p>(617) 555-0119</p></div>`);
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    expect(numbers(scanner.matches())).toEqual(['+14155550132', '+16175550119']);
    const observer = new MutationObserver(() => {});
    observer.observe(root, { attributes: true, subtree: true, attributeOldValue: true, attributeFilter: [...OBSERVED_ATTRIBUTES, 'class'] });
    root.querySelector('#a')!.setAttribute('aria-hidden', 'true');
    root.querySelector('#b')!.removeAttribute('hidden');
    root.querySelector('#c')!.setAttribute('style', 'display: block');
    scanner.scanMutations(observer.takeRecords());
    scanner.flush();
    expect(numbers(scanner.matches())).toEqual(['+12125550147', '+13125550163', '+16175550119']);

    // Class and colour changes cost nothing.
    const before = scanner.stats.textNodes;
    const d = root.querySelector('#d')!;
    d.setAttribute('class', 'x hover');
    d.setAttribute('style', 'color: blue');
    scanner.scanMutations(observer.takeRecords());
    observer.disconnect();
    expect(scanner.hasPendingWork()).toBe(false);
    scanner.flush();
    expect(scanner.stats.textNodes).toBe(before);
  });

  it('reports each shadow root it walks, so the caller can observe it', () => {
    const root = mount('<div id="slot"></div>');
    const outer = document.createElement('x-outer');
    const outerShadow = outer.attachShadow({ mode: 'open' });
    outerShadow.innerHTML = '<p>(212) 555-0147</p><x-inner></x-inner>';
    const innerShadow = outerShadow.querySelector('x-inner')!.attachShadow({ mode: 'open' });
    innerShadow.innerHTML = '<ul><li>Loading…</li></ul>';
    root.querySelector('#slot')!.appendChild(outer);

    const observer = new MutationObserver(() => {});
    const seen: ShadowRoot[] = [];
    const scanner = createScanner({
      ...US,
      onShadowRoot: (shadow) => {
        seen.push(shadow);
        observer.observe(shadow, { childList: true, subtree: true, characterData: true });
      },
    });
    scanner.scanRoot(document);
    scanner.flush();
    scanner.scanRoot(document);
    scanner.flush();
    expect(seen).toEqual([outerShadow, innerShadow]);
    expect(numbers(scanner.matches())).toEqual(['+12125550147']);

    // A document observer would miss this: it happens inside a shadow tree.
    innerShadow.querySelector('li')!.textContent = 'Direct: (415) 555-0132';
    scanner.scanMutations(observer.takeRecords());
    observer.disconnect();
    scanner.flush();
    expect(numbers(scanner.matches())).toEqual(['+12125550147', '+14155550132']);
  });

  it('reports read-only inputs that are added or made read-only later', () => {
    const root = mount('<form><input id="a" value="(415) 555-0132"></form>');
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    expect(scanner.matches()).toEqual([]);
    const observer = new MutationObserver(() => {});
    observer.observe(root, { childList: true, subtree: true, attributes: true });
    root.querySelector('#a')!.setAttribute('readonly', '');
    const added = document.createElement('input');
    added.setAttribute('readonly', '');
    added.setAttribute('value', '+44 20 7946 0958');
    root.querySelector('form')!.appendChild(added);
    scanner.scanMutations(observer.takeRecords());
    observer.disconnect();
    scanner.flush();
    expect(numbers(scanner.matches())).toEqual(['+14155550132', '+442079460958']);
    expect(scanner.matches().every((m) => m.source === 'input')).toBe(true);
  });

  it('picks up shadow roots in added subtrees', () => {
    const root = mount('<div id="slot"></div>');
    const scanner = createScanner(US);
    scanner.scanRoot(document);
    scanner.flush();
    const observer = new MutationObserver(() => {});
    observer.observe(document, { childList: true, subtree: true });
    const card = document.createElement('section');
    card.attachShadow({ mode: 'open' }).innerHTML = '<p>(415) 555-0132</p>';
    root.querySelector('#slot')!.appendChild(card);
    scanner.scanMutations(observer.takeRecords());
    observer.disconnect();
    scanner.flush();
    expect(numbers(scanner.matches())).toEqual(['+14155550132']);
  });

  it('recovers when the node a paused walk stands on is removed', () => {
    const root = bigTable(50);
    const scanner = createScanner({ ...US, chunkSize: 6 });
    scanner.scanRoot(root);
    scanner.runChunk();
    scanner.runChunk();
    // Remove the rows the walk is standing in (the first ~4 rows have been read).
    const observer = new MutationObserver(() => {});
    observer.observe(root, { childList: true, subtree: true });
    for (const id of ['r0', 'r1', 'r2', 'r3', 'r4', 'r5']) root.querySelector(`#${id}`)!.remove();
    scanner.scanMutations(observer.takeRecords());
    observer.disconnect();
    scanner.flush();
    expect(scanner.stats.restarts).toBeGreaterThanOrEqual(1);
    expect(scanner.matches()).toHaveLength(44);
  });

  it('clear() forgets results and queued work', () => {
    const root = mount('<p>(415) 555-0132</p>');
    const scanner = createScanner(US);
    scanner.scanRoot(root);
    scanner.flush();
    scanner.takeChanges();
    scanner.scanRoot(root);
    scanner.clear();
    expect(scanner.hasPendingWork()).toBe(false);
    expect(scanner.matches()).toEqual([]);
    expect(scanner.takeChanges()).toHaveLength(1);
  });
});
