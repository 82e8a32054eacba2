// @vitest-environment happy-dom
/**
 * Texts read off the page's thread (ScanOptions.findAway, the background's page/find): the page's
 * scanner (createPageScanner: no phone library, its texts, tel: hrefs and input values all read by
 * the background) must settle the answers into exactly the matches the scanner with the library finds
 * on its own, on every fixture page, and never settle an answer the page has moved on from.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import { FIND_LIMITS, MAX_FIND_BATCH, MAX_FIND_CHARS, MAX_FIND_ITEMS, MAX_FIND_TEXT, type FindItem, type FindRequest } from '../../../lib/phone/find-batch';
import { findItems, findRows } from '../../../lib/phone/find-rows';
import { admitPageMessage } from '../../../lib/background/page-gate';
import { parseFindBatch } from '../../../lib/page/messages';
import { createPageScanner, createScanner, scanNode, type PhoneMatch, type ScanOptions, type Scanner } from '../../../lib/phone/scan';

const PAGES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/pages/');
const spec = JSON.parse(readFileSync(`${PAGES}expected.json`, 'utf8')) as Record<string, { defaultCountry: string } | string>;
const pages = Object.entries(spec).filter((e): e is [string, { defaultCountry: string }] => !e[0].startsWith('_'));

const windows: Window[] = [];
afterAll(async () => {
  await Promise.all(windows.map((w) => w.happyDOM.close()));
});

async function load(page: string): Promise<Document> {
  const window = new Window({
    url: `https://fixtures.test/${page}`,
    settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true, disableIframePageLoading: true, disableCSSFileLoading: true },
  });
  windows.push(window);
  window.document.write(readFileSync(`${PAGES}${page}`, 'utf8'));
  await window.happyDOM.waitUntilComplete();
  return window.document as unknown as Document;
}

/** A background answering like lib/background/page-service.ts, a turn later; records what it was asked. */
function background(answer: (request: FindRequest) => unknown = (request) => JSON.stringify(findRows(request))) {
  const requests: FindItem[][] = [];
  return {
    requests,
    findAway: (request: FindRequest) => {
      requests.push(findItems(request));
      return new Promise<unknown>((resolve) => setTimeout(() => resolve(answer(request)), 0));
    },
  };
}

/** A US scanner over document.body, its texts answered by `background(answer)`: the page's (no phone library), or with the library here. */
function scanBodyAway(answer?: (request: FindRequest) => unknown, here = false) {
  const away = background(answer);
  const scanner = (here ? createScanner : createPageScanner)({ defaultCountry: 'US', findAway: away.findAway });
  scanner.scanRoot(document.body);
  return { away, scanner };
}

async function settled(scanner: Scanner): Promise<void> {
  scanner.flush();
  for (let i = 0; i < 500 && scanner.hasPendingWork(); i++) await new Promise((r) => setTimeout(r, 0));
  expect(scanner.hasPendingWork()).toBe(false);
}

/** What a user depends on in a match: the number, as written, and exactly where it stands. */
function where(m: PhoneMatch) {
  return m.source === 'text'
    ? [m.e164, m.raw, m.ext, m.container, m.startNode, m.startOffset, m.endNode, m.endOffset]
    : m.source === 'link'
      ? [m.e164, m.raw, m.ext, m.element, m.href, m.valid]
      : [m.e164, m.raw, m.ext, m.element, m.start, m.end];
}

describe('answers from away', () => {
  it('give every fixture page exactly the matches found with the library here: texts, tel: links and input values', async () => {
    let links = 0;
    let inputs = 0;
    for (const [page, { defaultCountry }] of pages) {
      const document = await load(page);
      const options: ScanOptions = { defaultCountry, getShadowRoot: (el) => el.shadowRoot };
      const local = scanNode(document, options);
      const away = background();
      const scanner = createPageScanner({ ...options, findAway: away.findAway });
      scanner.scanRoot(document);
      await settledPaced(scanner);
      expect(scanner.matches().map(where), page).toEqual(local.map(where));
      // The texts went away (the page scanner has no parser), in requests of at most MAX_FIND_ITEMS.
      const asked = away.requests.flat().filter((i) => !i.tel);
      if (local.some((m) => m.source === 'text')) expect(asked.length, page).toBeGreaterThan(0);
      for (const r of away.requests) expect(r.length).toBeLessThanOrEqual(MAX_FIND_ITEMS);
      links += local.filter((m) => m.source === 'link').length;
      inputs += local.filter((m) => m.source === 'input').length;
    }
    // The pages hold both kinds, so the comparison above covers them.
    expect(links).toBeGreaterThan(5);
    expect(inputs).toBeGreaterThan(0);
  }, 120_000); // every page twice, the raw view's 3,000 lines among them

  it('read tel: links and input values in the background, with the page’s country and the field’s label', async () => {
    document.body.innerHTML =
      '<p><a id="a" href="tel:+1-212-155-0100">Main</a> <a id="b" href="tel:020%207946%200958;ext=12">UK</a></p>' +
      '<label for="i">Mobile</label><input id="i" readonly value="415 555 0132">' +
      '<label for="o">Order number</label><input id="o" readonly value="4155550199">';
    const away = background();
    const scanner = createPageScanner({ defaultCountry: 'GB', findAway: away.findAway });
    scanner.scanRoot(document.body);
    await settled(scanner);
    expect(away.requests.flat()).toEqual([
      { text: 'tel:+1-212-155-0100', countries: ['GB'], label: '', tel: true },
      { text: 'tel:020%207946%200958;ext=12', countries: ['GB'], label: '', tel: true },
      { text: '415 555 0132', countries: ['GB'], label: expect.stringMatching(/^Mobile\b/) },
      { text: '4155550199', countries: ['GB'], label: expect.stringMatching(/^Order number\b/) },
    ]);
    // As the library reads them here: a possible-only link number is kept and says so; the order number is vetoed.
    expect(scanner.matches().map(where)).toEqual(scanNode(document.body, { defaultCountry: 'GB' }).map(where));
    expect(scanner.matches().map((m) => [m.source, m.e164, m.source === 'link' ? m.valid : null])).toEqual([
      ['link', '+12121550100', false],
      ['link', '+442079460958', true],
    ]);
  });

  it('for a link or an input that changed meanwhile are dropped; the rescan’s answer counts', async () => {
    document.body.innerHTML = '<a id="a" href="tel:+14155550132">Call</a><input id="i" readonly value="Desk (415) 555-0132">';
    const a = document.getElementById('a')!;
    const input = document.getElementById('i') as HTMLInputElement;
    const { away, scanner } = scanBodyAway();
    scanner.flush();
    a.setAttribute('href', 'tel:+12125550147');
    input.value = 'Desk (212) 555-0147';
    await settled(scanner);
    expect(scanner.matches()).toEqual([]);
    scanner.scanRoot(document.body);
    await settled(scanner);
    expect(scanner.matches().map((m) => [m.source, m.e164])).toEqual([
      ['link', '+12125550147'],
      ['input', '+12125550147'],
    ]);
    expect(away.requests).toHaveLength(2);
  });

  it('a link’s own text is reported once, as the link, even when the text’s answer comes first', async () => {
    // MAX_FIND_ITEMS - 1 texts, then the link: the request fills at the link, and its text goes in the next
    // one, which the background answers first.
    document.body.innerHTML =
      Array.from({ length: MAX_FIND_ITEMS - 1 }, (_, i) => `<p>Fax 212-555-${String(1000 + i)}</p>`).join('') + '<p><a href="tel:+14155550132">Call (415) 555-0132</a> · <a href="tel:+14155550199">Desk (415) 555-0188</a></p>';
    const requests: FindItem[][] = [];
    const scanner = createPageScanner({
      defaultCountry: 'US',
      findAway: (request) => {
        requests.push(findItems(request));
        const first = requests.length === 1;
        return new Promise((resolve) => setTimeout(() => resolve(JSON.stringify(findRows(request))), first ? 30 : 0));
      },
    });
    scanner.scanRoot(document.body);
    await settled(scanner);
    expect(requests.map((r) => r.map((i) => (i.tel ? 'link' : 'text')).slice(-2))).toEqual([
      ['text', 'link'],
      ['link', 'text'],
    ]);
    const sorted = (ms: PhoneMatch[]) => ms.map((m) => [m.source, m.e164].join(' ')).sort();
    expect(sorted(scanner.matches())).toEqual(sorted(scanNode(document.body, { defaultCountry: 'US' })));
    expect(sorted(scanner.matches()).filter((m) => !m.startsWith('text +1212555'))).toEqual(['link +14155550132', 'link +14155550199', 'text +14155550188']);
  });

  it('are used as answered (the page does not parse them again)', async () => {
    document.body.innerHTML = '<p>Desk: (415) 555-0132</p>';
    // A background that says the text holds a different number: the scanner reports what it was told.
    const { away, scanner } = scanBodyAway(() => JSON.stringify([[0, 0, 6, 20, '+14155550199', '(415) 555-0132', 'US', '']]));
    await settled(scanner);
    expect(scanner.matches().map((m) => [m.e164, m.raw])).toEqual([['+14155550199', '(415) 555-0132']]);
    expect(away.requests).toEqual([[{ text: 'Desk: (415) 555-0132', countries: ['US'], label: '' }]]);
  });

  it('carry the page’s country and the field label to the background', async () => {
    document.body.innerHTML =
      '<table><thead><tr><th>Office</th><th>Country</th><th>Phone</th></tr></thead>' +
      '<tbody><tr><td>São Paulo</td><td>Brazil</td><td>(21) 2345-6789</td></tr></tbody></table>';
    const { away, scanner } = scanBodyAway();
    await settled(scanner);
    expect(away.requests.flat()).toEqual([{ text: '(21) 2345-6789', countries: ['BR'], label: 'Phone' }]);
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+552123456789']);
  });

  it('are found on the page when the background fails or answers nonsense, and later texts are not sent again', async () => {
    const nonsense = [
      () => Promise.reject(new Error('gone')),
      () => null,
      () => '{',
      () => [],
      () => JSON.stringify({}),
      () => JSON.stringify([[0, 0, 6, 20, 1, '(415) 555-0132', '', '']]),
      () => JSON.stringify([[3, 0, 6, 20, '+1', 'x', '', '']]),
    ];
    for (const answer of nonsense) {
      document.body.innerHTML = '<p>Desk: (415) 555-0132</p>';
      const { away, scanner } = scanBodyAway(answer, true);
      await settled(scanner);
      expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']);
      const p = document.createElement('p');
      p.textContent = 'Fax: 212-555-0147';
      document.body.append(p);
      scanner.scanRoot(p);
      await settled(scanner);
      expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132', '+12125550147']);
      expect(away.requests).toHaveLength(1);
    }
  });

  it('the page’s scanner reads nothing itself: once the background fails it stops asking and keeps what it had', async () => {
    document.body.innerHTML = '<p>Desk: (415) 555-0132</p>';
    let up = true;
    const { away, scanner } = scanBodyAway((request) => (up ? JSON.stringify(findRows(request)) : null));
    await settled(scanner);
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']);
    up = false;
    for (const text of ['Fax: 212-555-0147', 'Mobile: 646-555-0107']) {
      const p = document.createElement('p');
      p.textContent = text;
      document.body.append(p);
      scanner.scanRoot(p);
      await settled(scanner);
    }
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']);
    expect(away.requests.map((r) => r.map((i) => i.text))).toEqual([['Desk: (415) 555-0132'], ['Fax: 212-555-0147']]);
  });

  it('are dropped when the text changed meanwhile; the rescan’s answer counts', async () => {
    document.body.innerHTML = '<p id="p">Desk: (415) 555-0132</p>';
    const { away, scanner } = scanBodyAway();
    scanner.flush();
    // The page rewrites the number before the answer comes back.
    const text = document.getElementById('p')!.firstChild as Text;
    text.data = 'Desk: (212) 555-0147';
    await settled(scanner);
    expect(scanner.matches()).toEqual([]);
    scanner.scanMutations([{ type: 'characterData', target: text } as unknown as MutationRecord]);
    await settled(scanner);
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+12125550147']);
  });

  it('are dropped when a later question for the same container was answered first, or the text lost its number', async () => {
    document.body.innerHTML = '<p id="p">Desk: (415) 555-0132</p>';
    const p = document.getElementById('p')!;
    const { away, scanner } = scanBodyAway();
    scanner.flush();
    await Promise.resolve(); // the request is out
    // Before the answer: the number is gone; the page settles "nothing" itself, and the late answer must not bring it back.
    p.textContent = 'Desk: closed';
    scanner.scanMutations([{ type: 'childList', target: p, addedNodes: [] as unknown as NodeList, removedNodes: [] as unknown as NodeList } as unknown as MutationRecord]);
    await settled(scanner);
    expect(scanner.matches()).toEqual([]);
    expect(away.requests).toHaveLength(1);
  });

  it('had already: a text, a tel: link or a field met again is settled at once, as a first answer settles it, and one with no number leaves no key behind', async () => {
    const first = '<p>Ref 4155550132999</p><p>Desk: (415) 555-0132</p><a href="tel:+14155550132">call</a><a href="tel:12">short</a><input readonly value="(212) 555-0147">';
    document.body.innerHTML = `<div id="a">${first}</div><div id="b"></div>`;
    const away = background();
    const scanner = createPageScanner({ defaultCountry: 'US', findAway: away.findAway });
    scanner.scanRoot(document.body);
    await settled(scanner);
    const keysIn = (root: Element) => [...scanner.results().keys()].filter((k) => root.contains(k)).length;
    const asked = away.requests.flat().length;
    const b = document.getElementById('b')!;
    b.innerHTML = first;
    scanner.scanRoot(b);
    scanner.flush();
    // Nothing asked, nothing left waiting: settled in the walk's own step.
    expect(scanner.hasPendingWork()).toBe(false);
    expect(away.requests.flat()).toHaveLength(asked);
    const a = document.getElementById('a')!;
    expect(scanner.matches().filter((m) => b.contains(m.source === 'text' ? m.container : m.element)).map(where)).toEqual(scanner.matches().filter((m) => a.contains(m.source === 'text' ? m.container : m.element)).map(where));
    // The texts and the link with no number are not results, as in the first copy (no key waiting forever).
    expect(keysIn(b)).toBe(keysIn(a));
    expect(keysIn(b)).toBe(3);
  });

  it('keep a container’s numbers while its rescan is out (no flicker on the badge or the hover)', async () => {
    document.body.innerHTML = '<div id="d"><p id="p">Desk: (415) 555-0132</p></div>';
    const { away, scanner } = scanBodyAway();
    await settled(scanner);
    scanner.takeChanges();
    // The same text again: its answer is had, so it is settled in the rescan's own step, unchanged.
    scanner.scanRoot(document.getElementById('d')!);
    scanner.flush();
    expect(scanner.hasPendingWork()).toBe(false);
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']);
    expect(scanner.takeChanges()).toEqual([]);
    expect(away.requests).toHaveLength(1);
    // A new text is asked: the container's numbers stay meanwhile.
    document.getElementById('p')!.textContent = 'Desk: (415) 555-0132, fax 212-555-0147';
    scanner.scanRoot(document.getElementById('d')!);
    scanner.flush();
    expect(scanner.hasPendingWork()).toBe(true);
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']);
    await settled(scanner);
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132', '+12125550147']);
    expect(away.requests).toHaveLength(2);
  });

  it('are not asked twice for the same text (the document walk after the visible blocks, a list rendered anew); re-rendered nodes get their numbers from the answer had', async () => {
    document.body.innerHTML = '<div id="d"><p>Desk: (415) 555-0132</p></div><p>Fax: 212-555-0147</p>';
    const away = background();
    const scanner = createScanner({ defaultCountry: 'US', findAway: away.findAway });
    scanner.scanRoot(document.getElementById('d')!);
    scanner.scanRoot(document.body);
    await settled(scanner);
    expect(away.requests.flat().map((i) => i.text)).toEqual(['Desk: (415) 555-0132', 'Fax: 212-555-0147']);
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132', '+12125550147']);
    // A framework renders the same text again in new nodes: not asked again, and placed on the new nodes.
    const d = document.getElementById('d')!;
    d.innerHTML = '<p>Desk: (415) 555-0132</p>';
    scanner.scanRoot(d);
    scanner.flush();
    d.innerHTML = '<p>Desk: (415) 555-0132</p>';
    scanner.scanRoot(d);
    await settled(scanner);
    expect(away.requests.flat().map((i) => i.text)).toEqual(['Desk: (415) 555-0132', 'Fax: 212-555-0147']);
    const placed = scanner.matches().filter((m) => m.source === 'text' && m.e164 === '+14155550132' && m.startNode.isConnected);
    expect(placed.map((m) => m.source === 'text' && m.startNode === d.querySelector('p')!.firstChild)).toEqual([true]);
    // (The old nodes' match stays until a mutation record says they left: the content script passes those.)
    const onPage = scanner.matches().filter((m) => m.source === 'text' && m.startNode.isConnected);
    expect(onPage.map((m) => m.e164).sort()).toEqual(['+12125550147', '+14155550132']);
  });

  it('one text on many rows (a list of one company’s line) is asked once and placed on every row; the same text under another label is asked apart', async () => {
    const rows = 3 * MAX_FIND_ITEMS;
    document.body.innerHTML =
      '<table><thead><tr><th>Name</th><th>Phone</th><th>Notes</th></tr></thead><tbody>' +
      Array.from({ length: rows }, (_, i) => `<tr><td>Contact ${i}</td><td>(415) 555-0132</td><td>${i % 2 ? 'Fax: 212-555-0147' : 'no fax'}</td></tr>`).join('') +
      '</tbody></table><p>(415) 555-0132</p>';
    const away = background();
    const scanner = createPageScanner({ defaultCountry: 'US', findAway: away.findAway });
    scanner.scanRoot(document.body);
    await settledPaced(scanner);
    const asked = away.requests.flat().map((i) => `${i.label}|${i.text}`);
    // Each different item once (two may be out at once before either is answered: at most the frame's requests in flight).
    for (const key of new Set(asked)) expect(asked.filter((k) => k === key).length, key).toBeLessThanOrEqual(FIND_LIMITS.frameInFlight);
    expect(asked.length).toBeLessThan(10);
    // A label can veto a number, so the same text under no label is its own question.
    expect(new Set(asked)).toEqual(new Set(['Phone|(415) 555-0132', 'Notes|Fax: 212-555-0147', '|(415) 555-0132']));
    const on = (e164: string) => scanner.matches().filter((m) => m.e164 === e164 && m.source === 'text').length;
    expect(on('+14155550132')).toBe(rows + 1);
    expect(on('+12125550147')).toBe(rows / 2);
    // The same as the scanner with the library here finds, every row placed on its own nodes.
    expect(scanner.matches().map(where)).toEqual(scanNode(document.body, { defaultCountry: 'US' }).map(where));
  });

  it('go in requests of at most MAX_FIND_ITEMS texts and about MAX_FIND_CHARS characters', async () => {
    // Every text a different one: a text met again is not sent again (the test after this one).
    const long = (i: number) => `Desk: (415) 555-${1000 + i} ${'word '.repeat((MAX_FIND_TEXT - 40) / 5)}`;
    const count = Math.ceil((1.5 * MAX_FIND_CHARS) / long(0).length);
    document.body.innerHTML =
      Array.from({ length: count }, (_, i) => `<p>${long(i)}</p>`).join('') + Array.from({ length: MAX_FIND_ITEMS }, (_, i) => `<p>Fax: 212-555-${2000 + i}</p>`).join('');
    const { away, scanner } = scanBodyAway();
    await settledPaced(scanner);
    expect(away.requests.flat()).toHaveLength(count + MAX_FIND_ITEMS);
    for (const r of away.requests) {
      expect(r.length).toBeLessThanOrEqual(MAX_FIND_ITEMS);
      expect(r.reduce((n, i) => n + i.text.length, 0)).toBeLessThan(MAX_FIND_CHARS + long(0).length);
    }
    expect(away.requests.length).toBeGreaterThanOrEqual(3);
    expect(scanner.matches()).toHaveLength(count + MAX_FIND_ITEMS);
  });

  it('texts too long for one request are read in slices, by the page’s scanner and the one with the library alike', async () => {
    document.body.innerHTML = `<pre>${'word '.repeat(MAX_FIND_TEXT / 2)} Desk: (415) 555-0132</pre>`;
    for (const here of [true, false]) {
      const { away, scanner } = scanBodyAway(undefined, here);
      await settledPaced(scanner);
      expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']);
      // Only the slice that may hold a number goes (the others are all words), no longer than a text may be.
      const texts = away.requests.flat();
      expect(texts.length).toBe(1);
      expect(texts[0]!.text.length).toBeLessThanOrEqual(MAX_FIND_TEXT);
      expect(texts[0]!.text).toMatch(/Desk: \(415\) 555-0132$/);
    }
  });
});

/**
 * The background as the browser hands it a page/find message: the entrypoint's gate (size, schema),
 * then the service's answer, a turn later. Records what it was asked, and what it refused.
 */
function gatedBackground() {
  const requests: FindItem[][] = [];
  const refused: unknown[] = [];
  const batchLengths: number[] = [];
  return {
    requests,
    refused,
    batchLengths,
    findAway: (request: FindRequest) =>
      new Promise<unknown>((resolve) =>
        setTimeout(() => {
          batchLengths.push(JSON.stringify(request).length);
          const admitted = admitPageMessage({ type: 'page/find', batch: JSON.stringify(request) });
          if (!('request' in admitted)) {
            refused.push(admitted.refused);
            return resolve(admitted.refused);
          }
          const batch = parseFindBatch((admitted.request as { batch: string }).batch);
          if (!batch) refused.push(request);
          requests.push(batch ? findItems(batch) : []);
          resolve(batch ? JSON.stringify(findRows(batch)) : null);
        }, 0),
      ),
  };
}

/** Until the scanner has nothing left to do (answers paced at the background's share take a while). */
async function settledPaced(scanner: Scanner): Promise<void> {
  scanner.flush();
  for (let i = 0; i < 3_000 && scanner.hasPendingWork(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(scanner.hasPendingWork()).toBe(false);
}

const FORMATS = [(n: string) => `(415) 555-01${n}`, (n: string) => `+1 212 555 01${n}`, (n: string) => `646.555.01${n}`, (n: string) => `312-555-01${n}`];
const E164 = ['+1415555', '+1212555', '+1646555', '+1312555'];

/** A raw CSV export: `lines` rows, each with one number; the numbers it holds in order. */
function csv(lines: number): { text: string; numbers: string[] } {
  const rows = ['id,name,phone,created,amount'];
  const numbers: string[] = [];
  for (let i = 0; i < lines; i++) {
    const n = String(i % 100).padStart(2, '0');
    const f = Math.floor(i / 100) % FORMATS.length;
    rows.push(`${100000 + i},"Contact ${i}, Inc.",${FORMATS[f]!(n)},2024-05-${String((i % 28) + 1).padStart(2, '0')} 10:${String(i % 60).padStart(2, '0')},${(i * 37) % 9000}.50`);
    numbers.push(`${E164[f]}01${n}`);
  }
  return { text: rows.join('\n'), numbers };
}

describe('a text of any size', () => {
  it('a huge single text node followed by an ordinary table: every number in both is found, once, on its own characters', async () => {
    const { text, numbers } = csv(1_200);
    // Longer than a message may be (64 KB): today's page sends it whole, and the background refuses it.
    expect(text.length).toBeGreaterThan(70_000);
    document.body.innerHTML = '<pre id="raw"></pre><table><thead><tr><th>Name</th><th>Phone</th></tr></thead><tbody><tr><td>Ann</td><td>(415) 555-0132</td></tr><tr><td>Bo</td><td>+44 20 7946 0958</td></tr></tbody></table>';
    const raw = document.getElementById('raw')!;
    raw.textContent = text;
    const node = raw.firstChild as Text;
    const away = gatedBackground();
    const scanner = createPageScanner({ defaultCountry: 'US', findAway: away.findAway });
    scanner.scanRoot(document.body);
    await settledPaced(scanner);
    expect(away.refused).toEqual([]);
    const matches = scanner.matches();
    const inRaw = matches.filter((m) => m.source === 'text' && m.startNode === node);
    expect(inRaw.map((m) => m.e164)).toEqual(numbers);
    // Each on its own characters: the node's text at the match's offsets is the number as written.
    for (const m of inRaw) if (m.source === 'text') expect(node.data.slice(m.startOffset, m.endOffset)).toBe(m.raw);
    expect(matches.filter((m) => m.source === 'text' && m.startNode !== node).map((m) => m.e164)).toEqual(['+14155550132', '+442079460958']);
  });

  it('a read-only text area holding a long export is read in slices: every number found, on its own characters', async () => {
    const { text, numbers } = csv(600);
    expect(text.length).toBeGreaterThan(MAX_FIND_TEXT * 10);
    document.body.innerHTML = '<label for="x">Export</label><textarea id="x" readonly></textarea><p>Desk (415) 555-0132</p>';
    const area = document.getElementById('x') as HTMLTextAreaElement;
    area.value = text;
    const away = gatedBackground();
    const scanner = createPageScanner({ defaultCountry: 'US', findAway: away.findAway });
    scanner.scanRoot(document.body);
    await settledPaced(scanner);
    expect(away.refused).toEqual([]);
    const inArea = scanner.matches().filter((m) => m.source === 'input' && m.element === area);
    expect(inArea.map((m) => m.e164)).toEqual(numbers);
    for (const m of inArea) if (m.source === 'input') expect(text.slice(m.start, m.end)).toBe(m.raw);
    expect(scanner.matches().filter((m) => m.source === 'text').map((m) => m.e164)).toEqual(['+14155550132']);
  });

  it('a number across the place where one slice ends and the next begins is found exactly once', async () => {
    // A number at every offset around the first slices' ends, one text per offset.
    const filler = 'x'.repeat(MAX_FIND_TEXT - 60);
    const texts = Array.from({ length: 40 }, (_, i) => `${filler}${'y'.repeat(i * 3)} (415) 555-0132 ${'z '.repeat(30)}${filler} +44 20 7946 0958`);
    document.body.innerHTML = texts.map(() => '<p></p>').join('');
    document.querySelectorAll('p').forEach((p, i) => (p.textContent = texts[i]!));
    const away = gatedBackground();
    const scanner = createPageScanner({ defaultCountry: 'US', findAway: away.findAway });
    scanner.scanRoot(document.body);
    await settledPaced(scanner);
    expect(away.refused).toEqual([]);
    for (const p of document.querySelectorAll('p')) {
      expect((scanner.results().get(p) ?? []).map((m) => m.e164)).toEqual(['+14155550132', '+442079460958']);
    }
  });

  it('a request the page builds at the limits is taken by the background: most texts, longest text, escapes, labels and countries', async () => {
    // Texts of quotes and backslashes (each doubles in JSON, twice over in the message), a full label, many countries.
    const nasty = '"\\'.repeat(MAX_FIND_TEXT);
    document.body.innerHTML =
      Array.from({ length: MAX_FIND_ITEMS + 5 }, (_, i) => `<p aria-label="${'Phone '.repeat(50).slice(0, 299)}">Desk ${i}: (415) 555-0132</p>`).join('') + '<pre id="n"></pre>';
    document.getElementById('n')!.textContent = `${nasty} (415) 555-0199 ${nasty}`;
    const away = gatedBackground();
    const scanner = createPageScanner({ defaultCountry: 'US', findAway: away.findAway });
    scanner.scanRoot(document.body);
    await settledPaced(scanner);
    expect(away.refused).toEqual([]);
    expect(scanner.matches().filter((m) => m.e164 === '+14155550132')).toHaveLength(MAX_FIND_ITEMS + 5);
    expect(scanner.matches().filter((m) => m.e164 === '+14155550199')).toHaveLength(1);
    // At the limits: requests as long as a batch may be, and none longer.
    expect(Math.max(...away.batchLengths)).toBeGreaterThan(0.95 * MAX_FIND_BATCH);
    expect(Math.max(...away.batchLengths)).toBeLessThanOrEqual(MAX_FIND_BATCH);
    for (const r of away.requests) expect(r.length).toBeLessThanOrEqual(MAX_FIND_ITEMS);
  });
});

describe('a frame’s share of the background', () => {
  it('the page keeps within it by itself: never more requests in flight, or begun in a second, than the background takes', async () => {
    // Long enough for more requests than a second's share (the background here finds nothing: it is quick).
    const { text } = csv(3_000);
    document.body.innerHTML = '<pre id="raw"></pre>';
    document.getElementById('raw')!.textContent = text;
    let inFlight = 0;
    let most = 0;
    const begun: number[] = [];
    const scanner = createPageScanner({
      defaultCountry: 'US',
      findAway: (request) => {
        inFlight++;
        most = Math.max(most, inFlight);
        begun.push(Date.now());
        return new Promise((resolve) =>
          setTimeout(() => {
            inFlight--;
            resolve(JSON.stringify(request.texts.length ? [] : null));
          }, 5),
        );
      },
    });
    scanner.scanRoot(document.body);
    await settledPaced(scanner);
    expect(begun.length).toBeGreaterThan(FIND_LIMITS.framePerSecond);
    expect(most).toBe(FIND_LIMITS.frameInFlight);
    for (let i = FIND_LIMITS.framePerSecond; i < begun.length; i++) expect(begun[i]! - begun[i - FIND_LIMITS.framePerSecond]!).toBeGreaterThanOrEqual(998); // (timer rounding)
  });

  it('a "busy" answer (other frames took the tab’s share) is asked again when it says, and the finder goes on finding', async () => {
    document.body.innerHTML = '<p>Desk: (415) 555-0132</p>';
    let busy = 3;
    const asked: string[][] = [];
    const scanner = createPageScanner({
      defaultCountry: 'US',
      findAway: (request) => {
        asked.push(request.texts);
        return Promise.resolve(busy-- > 0 ? { retryInMs: 20 } : JSON.stringify(findRows(request)));
      },
    });
    scanner.scanRoot(document.body);
    await settledPaced(scanner);
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']);
    expect(asked).toHaveLength(4);
    const p = document.createElement('p');
    p.textContent = 'Fax: 212-555-0147';
    document.body.append(p);
    scanner.scanRoot(p);
    await settledPaced(scanner);
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132', '+12125550147']);
  });
});
