// @vitest-environment happy-dom
/**
 * The scanner on every fixture page, against tests/fixtures/pages/expected.json.
 * Pages are loaded into their own happy-dom Window with JavaScript enabled, so the fixtures' inline
 * scripts (spa.html, shadow.html) really run. Precision and recall are counted over occurrences.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePhoneNumberFromString as parseMin } from 'libphonenumber-js/min';
import { parsePhoneNumberFromString as parseMax } from 'libphonenumber-js/max';
import { createScanner, scanNode, type PhoneMatch, type ScanOptions } from '../../../lib/phone/scan';
import { pageLanguages } from '../../../lib/page/content';
import { warmUpPlaces } from '../../../lib/phone/place-names';
import { regionNames } from '../../../lib/phone/region-names';

// A string path: under happy-dom the global URL is happy-dom's, not Node's.
const PAGES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/pages/');

interface PageSpec {
  defaultCountry: string;
  expected: string[];
  occurrences: Record<string, number>;
  notes: string;
  afterClick?: Record<string, number>;
  withClosedShadowRoots?: Record<string, number>;
  withFrames?: Record<string, number>;
  /** Numbers in about:blank, srcdoc and blob: frames, which the content script in each frame reports itself. */
  inFrames?: Record<string, number>;
  /** Occurrences the finder misses today: scored as misses, expected missing by the exact test. */
  knownMisses?: Record<string, number>;
}

/** `occurrences` less the known misses: what the finder finds today. */
function foundToday(s: PageSpec): Record<string, number> {
  const out = { ...s.occurrences };
  for (const [e164, n] of Object.entries(s.knownMisses ?? {})) {
    out[e164] = (out[e164] ?? 0) - n;
    if (out[e164]! <= 0) delete out[e164];
  }
  return out;
}

const spec = JSON.parse(readFileSync(`${PAGES}expected.json`, 'utf8')) as Record<string, PageSpec | string>;
const pages = Object.entries(spec).filter((entry): entry is [string, PageSpec] => !entry[0].startsWith('_'));

const windows: Window[] = [];
afterAll(async () => {
  await Promise.all(windows.map((w) => w.happyDOM.close()));
});

async function load(page: string, options: { childInFrame?: boolean } = {}): Promise<{ window: Window; document: Document }> {
  const window = new Window({
    url: `https://fixtures.test/${page}`,
    settings: {
      // Our own fixture scripts only.
      enableJavaScriptEvaluation: true,
      suppressInsecureJavaScriptEnvironmentWarning: true,
      disableIframePageLoading: true,
      disableCSSFileLoading: true,
    },
  });
  windows.push(window);
  let html = readFileSync(`${PAGES}${page}`, 'utf8');
  if (options.childInFrame) {
    // happy-dom does not load frame URLs here; inline the same-origin child document instead.
    const child = readFileSync(`${PAGES}iframe-child.html`, 'utf8').replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    html = html.replace('src="iframe-child.html"', `srcdoc="${child}"`);
  }
  window.document.write(html);
  await window.happyDOM.waitUntilComplete();
  return { window, document: window.document as unknown as Document };
}

function count(matches: PhoneMatch[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of matches) out[m.e164] = (out[m.e164] ?? 0) + 1;
  return out;
}

interface Score {
  tp: number;
  fp: number;
  fn: number;
}

function score(found: Record<string, number>, expected: Record<string, number>): Score {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...Object.keys(found), ...Object.keys(expected)])) {
    const f = found[key] ?? 0;
    const e = expected[key] ?? 0;
    tp += Math.min(f, e);
    fp += Math.max(0, f - e);
    fn += Math.max(0, e - f);
  }
  return { tp, fp, fn };
}

/** As on a page: the country names of the page's languages (page/config's answer) join the place index first. */
function scan(document: Document, options: ScanOptions): PhoneMatch[] {
  warmUpPlaces(regionNames(pageLanguages(document)));
  return scanNode(document, options);
}

describe('expected.json', () => {
  it('lists valid numbers (min and max metadata) with consistent counts', () => {
    for (const [page, s] of pages) {
      expect(Object.keys(s.occurrences).sort(), page).toEqual([...s.expected].sort());
      for (const [e164, n] of Object.entries(s.knownMisses ?? {})) expect(n, `${page} ${e164} known misses`).toBeLessThanOrEqual(s.occurrences[e164] ?? 0);
      const all = { ...s.occurrences, ...s.afterClick, ...s.withClosedShadowRoots, ...s.withFrames, ...s.inFrames };
      for (const e164 of Object.keys(all)) {
        expect(parseMin(e164)?.isValid(), `${page} ${e164} (min)`).toBe(true);
        expect(parseMax(e164)?.isValid(), `${page} ${e164} (max)`).toBe(true);
        expect(parseMax(e164)?.number).toBe(e164);
      }
    }
  });
});

describe('fixture pages', () => {
  const total: Score = { tp: 0, fp: 0, fn: 0 };

  for (const [page, s] of pages) {
    it(`${page}: finds exactly the expected numbers`, async () => {
      const { document } = await load(page);
      const found = count(scan(document, { defaultCountry: s.defaultCountry }));
      const result = score(found, s.occurrences);
      total.tp += result.tp;
      total.fp += result.fp;
      total.fn += result.fn;
      expect(found).toEqual(foundToday(s));
    });
  }

  it('overall precision ≥ 0.99 and recall ≥ 0.97', () => {
    expect(total.tp + total.fn).toBeGreaterThan(100);
    const precision = total.tp / (total.tp + total.fp);
    const recall = total.tp / (total.tp + total.fn);
    expect(precision).toBeGreaterThanOrEqual(0.99);
    expect(recall).toBeGreaterThanOrEqual(0.97);
  });

  it('negatives.html: nothing, whatever the default country', async () => {
    const { document } = await load('negatives.html');
    expect(scan(document, { defaultCountry: 'US' })).toEqual([]);
    // The unformatted ZIP+4 "941051234" is a well-formed 9-digit national number in DE, FR, BR…;
    // a bare digit run with no phone context around it is not taken as one.
    for (const country of ['GB', 'CA', 'IN', 'AU', 'IT', 'MX', 'SG', 'DE', 'FR', 'BR', 'JP', 'ES', 'NL', 'CN', 'SE', 'PL']) {
      expect(scan(document, { defaultCountry: country }).map((m) => m.raw), country).toEqual([]);
    }
  });

  it('contact-record.html: the read-only input is the only input match, nothing from editors or scripts', async () => {
    const { document } = await load('contact-record.html');
    const matches = scan(document, { defaultCountry: 'US' });
    const inputs = matches.filter((m) => m.source === 'input');
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({ e164: '+14155550150', ext: '12' });
    for (const hidden of ['0181', '0182', '0183', '0184', '0185', '0186', '0187', '0188', '0189']) {
      expect(matches.some((m) => m.e164.endsWith(hidden)), hidden).toBe(false);
    }
  });

  it('spa.html: initial render, then only the touched nodes after a click', async () => {
    const s = spec['spa.html'] as PageSpec;
    const { window, document } = await load('spa.html');
    const scanner = createScanner({ defaultCountry: s.defaultCountry, chunkSize: 25 });
    scanner.scanRoot(document);
    scanner.flush();
    expect(count(scanner.matches())).toEqual(s.occurrences);
    const fullScan = scanner.stats.textNodes;

    const observer = new window.MutationObserver(() => {});
    observer.observe(window.document, { childList: true, subtree: true, characterData: true });
    (document.getElementById('load-more') as HTMLButtonElement).click();
    const records = observer.takeRecords() as unknown as MutationRecord[];
    observer.disconnect();
    expect(records.length).toBeGreaterThan(0);

    scanner.scanMutations(records);
    expect(count(scanner.matches())['+16465550114']).toBeUndefined(); // the removed pinned note
    const before = scanner.stats.textNodes;
    while (scanner.runChunk()) {
      // each chunk would run in requestIdleCallback
    }
    expect(count(scanner.matches())).toEqual(s.afterClick);
    expect(scanner.stats.textNodes - before).toBeLessThan(fullScan);
  });

  it('shadow.html: closed shadow roots only through getShadowRoot', async () => {
    const s = spec['shadow.html'] as PageSpec;
    const { window, document } = await load('shadow.html');
    const widget = document.querySelector('closed-widget') as Element & { _root?: ShadowRoot };
    expect(widget.shadowRoot).toBeNull();
    const matches = scan(document, {
      defaultCountry: s.defaultCountry,
      getShadowRoot: (el) => el.shadowRoot ?? (el as Element & { _root?: ShadowRoot })._root ?? null,
    });
    expect(count(matches)).toEqual({ ...s.occurrences, ...s.withClosedShadowRoots });
    void window;
  });

  it('closed-shadow.html: closed roots (nested too) only through getShadowRoot; the closed ID chip stays out', async () => {
    const s = spec['closed-shadow.html'] as PageSpec;
    const { document } = await load('closed-shadow.html');
    expect(count(scan(document, { defaultCountry: s.defaultCountry }))).toEqual(s.occurrences);
    const matches = scan(document, {
      defaultCountry: s.defaultCountry,
      getShadowRoot: (el) => el.shadowRoot ?? (el as Element & { _root?: ShadowRoot })._root ?? null,
    });
    expect(count(matches)).toEqual({ ...s.occurrences, ...s.withClosedShadowRoots });
  });

  it('iframe.html: the child document is scanned with frames: true', async () => {
    const s = spec['iframe.html'] as PageSpec;
    const { document } = await load('iframe.html', { childInFrame: true });
    expect(count(scan(document, { defaultCountry: s.defaultCountry }))).toEqual(s.occurrences);
    expect(count(scan(document, { defaultCountry: s.defaultCountry, frames: true }))).toEqual({ ...s.occurrences, ...s.withFrames });
  });

  it('crm-list.html: chunked scanning gives the same result as one pass', async () => {
    const s = spec['crm-list.html'] as PageSpec;
    const { document } = await load('crm-list.html');
    const scanner = createScanner({ defaultCountry: s.defaultCountry, chunkSize: 10 });
    scanner.scanRoot(document);
    let chunks = 0;
    while (scanner.runChunk()) chunks++;
    expect(chunks).toBeGreaterThan(10);
    expect(count(scanner.matches())).toEqual(s.occurrences);
  });
});
