/**
 * Accuracy of the finder on every fixture page (issue 11, point 6), measured where it really runs:
 * Chromium, the production build, the content script in every frame (its layout rules need computed
 * styles, which happy-dom lacks). Per page: the numbers the tab reported (all frames, unique E.164)
 * against expected.json; precision, recall and F1 are printed (the exact-set test per page expects
 * the page's 'knownMisses' missing, the figures count them as misses). Then the issue's aims on the pages
 * nobody tuned the finder on (the `outside-` pages): pooled F1 ≥ 0.99, page-average F1 ≥ 0.97, no
 * wrong-country number, nothing on the look-alikes page.
 */
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { EXPECTED, expect, openFixture, setCountry, test } from './page-fixtures';
import { tabEntry, topFrameReport } from './tab-numbers';

const PAGES = Object.keys(EXPECTED).filter((name) => !name.startsWith('_'));
const OUTSIDE = PAGES.filter((name) => name.startsWith('outside-'));
const LOOK_ALIKES = 'outside-lookalikes.html';

/**
 * What the finder reports today: `wanted` less the numbers all of whose occurrences are known misses
 * (expected.json 'knownMisses'; the figures still count them as misses).
 */
function reportedToday(name: string): string[] {
  const s = EXPECTED[name]! as (typeof EXPECTED)[string] & { occurrences: Record<string, number>; knownMisses?: Record<string, number> };
  return wanted(name).filter((n) => (s.knownMisses?.[n] ?? 0) < (s.occurrences[n] ?? 1));
}

/** Every number the tab should report: the page's own, its frames' and its closed shadow roots'. */
function wanted(name: string): string[] {
  const s = EXPECTED[name]!;
  const all = [...s.expected, ...Object.keys(s.withClosedShadowRoots ?? {}), ...Object.keys(s.withFrames ?? {}), ...Object.keys(s.inFrames ?? {})];
  return [...new Set(all)].sort();
}

interface Figures {
  page: string;
  tp: number;
  fp: number;
  fn: number;
  f1: number;
  /** Found numbers that are an expected number's national digits read with another country. */
  wrongCountry: string[];
  missed: string[];
  extra: string[];
}

const national = (e164: string) => parsePhoneNumberFromString(e164);

function figures(page: string, found: string[], want: string[]): Figures {
  const wantSet = new Set(want);
  const foundSet = new Set(found);
  const tp = found.filter((n) => wantSet.has(n)).length;
  const extra = found.filter((n) => !wantSet.has(n));
  const missed = want.filter((n) => !foundSet.has(n));
  const wrongCountry = extra.filter((n) => {
    const f = national(n);
    return want.some((w) => {
      const e = national(w);
      return !!f && !!e && e.countryCallingCode !== f.countryCallingCode && e.nationalNumber === f.nationalNumber;
    });
  });
  const f1 = want.length === 0 && found.length === 0 ? 1 : (2 * tp) / (2 * tp + extra.length + missed.length);
  return { page, tp, fp: extra.length, fn: missed.length, f1, wrongCountry, missed, extra };
}

const row = (f: Figures) => {
  const p = f.tp + f.fp === 0 ? 1 : f.tp / (f.tp + f.fp);
  const r = f.tp + f.fn === 0 ? 1 : f.tp / (f.tp + f.fn);
  const detail = [f.missed.length ? `missed ${f.missed.join(' ')}` : '', f.extra.length ? `extra ${f.extra.join(' ')}` : ''].filter(Boolean).join('; ');
  return `${f.page.padEnd(28)} P ${p.toFixed(3)}  R ${r.toFixed(3)}  F1 ${f.f1.toFixed(3)}  wrong-country ${f.wrongCountry.length}${detail ? `  (${detail})` : ''}`;
};

/** Every frame's reported numbers, unique and sorted. */
async function reported(sw: Worker, tabId: number): Promise<string[]> {
  const entry = await tabEntry(sw, tabId);
  return [...new Set(Object.values(entry?.frames ?? {}).flatMap((list) => list.map((n) => n.e164)))].sort();
}

/**
 * Opens the page and reads what its frames reported: first the top frame's report (its scan is
 * done), then until the list is the expected one or the poll gives up, so that a page with a miss
 * is measured as it stands rather than failing before it is measured.
 */
async function measure(context: BrowserContext, sw: Worker, url: string, name: string): Promise<{ found: string[]; page: Page; popup: Page }> {
  const { page, popup, tabId } = await openFixture(context, sw, url);
  await expect.poll(() => topFrameReport(sw, tabId), { timeout: 20_000 }).not.toBeNull();
  await expect
    .poll(() => reported(sw, tabId), { timeout: 8_000 })
    .toEqual(reportedToday(name))
    .catch(() => undefined);
  return { found: await reported(sw, tabId), page, popup };
}

test.describe('accuracy on every fixture page', () => {
  for (const name of PAGES) {
    test(`${name}: the tab reports exactly the expected numbers (less its known misses)`, async ({ context, ready, pages, serviceWorker, extensionId }) => {
      void ready;
      const country = EXPECTED[name]!.defaultCountry;
      if (country !== 'US') await setCountry(context, extensionId, country);
      const { found } = await measure(context, await serviceWorker(), `${pages.url}/${name}`, name);
      const f = figures(name, found, wanted(name));
      console.log(row(f));
      expect(found).toEqual(reportedToday(name));
    });
  }
});

test('the aims on the outside pages: pooled F1 ≥ 0.99, page-average F1 ≥ 0.97, no wrong country, no look-alike', async ({
  context,
  ready,
  pages,
  serviceWorker,
  extensionId,
}) => {
  void ready;
  test.setTimeout(30_000 + OUTSIDE.length * 30_000);
  const sw = await serviceWorker();
  const all: Figures[] = [];
  let country = 'US';
  for (const name of OUTSIDE) {
    const want = EXPECTED[name]!.defaultCountry;
    if (want !== country) await setCountry(context, extensionId, (country = want));
    const { found, page, popup } = await measure(context, sw, `${pages.url}/${name}`, name);
    all.push(figures(name, found, wanted(name)));
    await Promise.all([page.close(), popup.close()]);
  }
  const sum = all.reduce((t, f) => ({ tp: t.tp + f.tp, fp: t.fp + f.fp, fn: t.fn + f.fn }), { tp: 0, fp: 0, fn: 0 });
  const pooled = (2 * sum.tp) / (2 * sum.tp + sum.fp + sum.fn);
  const average = all.reduce((t, f) => t + f.f1, 0) / all.length;
  const wrongCountry = all.flatMap((f) => f.wrongCountry);
  const lookAlikes = all.find((f) => f.page === LOOK_ALIKES)!;
  console.log(
    [
      ...all.map(row),
      `pooled: TP ${sum.tp} FP ${sum.fp} FN ${sum.fn}  P ${(sum.tp / (sum.tp + sum.fp)).toFixed(3)}  R ${(sum.tp / (sum.tp + sum.fn)).toFixed(3)}  F1 ${pooled.toFixed(3)}`,
      `page-average F1 ${average.toFixed(3)} over ${all.length} pages; wrong-country numbers ${wrongCountry.length}${wrongCountry.length ? ` (${wrongCountry.join(' ')})` : ''}; on the look-alikes page ${lookAlikes.fp}`,
    ].join('\n'),
  );
  expect(all.length).toBeGreaterThanOrEqual(8);
  expect(wrongCountry).toEqual([]);
  expect(lookAlikes.extra).toEqual([]);
  expect(pooled).toBeGreaterThanOrEqual(0.99);
  expect(average).toBeGreaterThanOrEqual(0.97);
});
