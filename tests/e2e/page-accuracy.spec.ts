/**
 * Accuracy of the finder on every fixture page (issue 11, point 6), measured where it really runs:
 * Chromium, the production build, the content script in every frame (its layout rules need computed
 * styles, which happy-dom lacks). Per page: the numbers the tab reported (all frames, unique E.164)
 * against expected.json; precision, recall and F1 are printed (the exact-set test per page expects
 * the page's 'knownMisses' missing, the figures count them as misses). Then the issue's aims on the pages
 * nobody tuned the finder on (the `outside-` pages): pooled F1 ≥ 0.99, page-average F1 ≥ 0.97, no
 * wrong-country number, nothing on the look-alikes page; that test also checks each outside page's
 * exact set (softly, so one miss does not hide the others' figures) instead of measuring it twice.
 *
 * Measuring only reads what a tab reported, so the pages share one browser and one sandbox per worker
 * (a fresh launch per page cost about five seconds each); every page opens in a tab of its own.
 */
import { test as base, type BrowserContext, type Page, type Worker } from '@playwright/test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { startSandbox } from '../../sandbox/server';
import { launchExtension } from './fixtures';
import { EXPECTED, expect, openFixture, setCountry, setUpForPages, startPagesServer, stopPagesServer } from './page-fixtures';
import { tabEntry, topFrameReport } from './tab-numbers';

interface Shared {
  context: BrowserContext;
  extensionId: string;
  sw: Worker;
  pagesUrl: string;
  /** Sets the default country on the options page when it is not already `country`. */
  country(country: string): Promise<void>;
}

const test = base.extend<object, { shared: Shared }>({
  shared: [
    async ({}, use) => {
      const sandbox = await startSandbox({ port: 0, speed: 60 });
      const { server, pages } = await startPagesServer();
      const extension = await launchExtension({ grantPages: true });
      const { context, extensionId } = extension;
      const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
      await setUpForPages(context, sw, sandbox);
      let current = 'US';
      const country = async (wanted: string) => {
        if (wanted !== current) await setCountry(context, extensionId, (current = wanted));
      };
      await use({ context, extensionId, sw, pagesUrl: pages.url, country });
      await extension.close();
      await stopPagesServer(server);
      await sandbox.close();
    },
    { scope: 'worker' },
  ],
});

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
  // The outside pages are measured once, in the aims test below, which checks each one's exact set too.
  for (const name of PAGES.filter((n) => !OUTSIDE.includes(n))) {
    test(`${name}: the tab reports exactly the expected numbers (less its known misses)`, async ({ shared }) => {
      await shared.country(EXPECTED[name]!.defaultCountry);
      const { found, page, popup } = await measure(shared.context, shared.sw, `${shared.pagesUrl}/${name}`, name);
      await Promise.all([page.close(), popup.close()]);
      const f = figures(name, found, wanted(name));
      console.log(row(f));
      expect(found).toEqual(reportedToday(name));
    });
  }
});

test('the aims on the outside pages: pooled F1 ≥ 0.99, page-average F1 ≥ 0.97, no wrong country, no look-alike', async ({ shared }) => {
  test.setTimeout(30_000 + OUTSIDE.length * 30_000);
  const all: Figures[] = [];
  for (const name of OUTSIDE) {
    await shared.country(EXPECTED[name]!.defaultCountry);
    const { found, page, popup } = await measure(shared.context, shared.sw, `${shared.pagesUrl}/${name}`, name);
    all.push(figures(name, found, wanted(name)));
    await Promise.all([page.close(), popup.close()]);
    expect.soft(found, `${name}: the tab reports exactly the expected numbers (less its known misses)`).toEqual(reportedToday(name));
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
