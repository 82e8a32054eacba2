/**
 * Every frame (issue 11, point 3), end to end in Chromium with the production build: frames without a
 * URL of their own (about:blank written by the page, srcdoc, blob:) run the content script and report
 * their own numbers, and closed shadow roots are opened with the extension's dom API. Expected
 * numbers: tests/fixtures/pages/expected.json ('inFrames', 'withClosedShadowRoots').
 */
import AxeBuilder from '@axe-core/playwright';
import { EXPECTED, expect, expectListed, openFixture, test } from './page-fixtures';
import { tabEntry } from './tab-numbers';

const framed = (name: string) => EXPECTED[name] as (typeof EXPECTED)[string] & { inFrames: Record<string, number> };

/** Each reporting frame's numbers (E.164, sorted), sorted: the frames as the background holds them. */
async function frameReports(sw: Parameters<typeof tabEntry>[0], tabId: number): Promise<string[][]> {
  const entry = await tabEntry(sw, tabId);
  return Object.values(entry?.frames ?? {})
    .map((numbers) => numbers.map((n) => n.e164).sort())
    .filter((list) => list.length > 0)
    .sort((a, b) => a.join().localeCompare(b.join()));
}

test.describe('frames without a URL of their own', () => {
  for (const name of ['frames-about-blank.html', 'frames-srcdoc.html', 'frames-blob.html']) {
    test(`${name}: the frame reports its own numbers, the popup lists both`, async ({ context, ready, pages, serviceWorker }) => {
      void ready;
      const sw = await serviceWorker();
      const spec = framed(name);
      const { popup, tabId } = await openFixture(context, sw, `${pages.url}/${name}`);
      const want = [[...spec.expected].sort(), Object.keys(spec.inFrames).sort()].sort((a, b) => a.join().localeCompare(b.join()));
      // Two reports, one per frame: the page's own numbers, and the frame's.
      await expect.poll(() => frameReports(sw, tabId), { timeout: 20_000 }).toEqual(want);
      expect((await tabEntry(sw, tabId))?.frames['0']?.map((n) => n.e164).sort()).toEqual([...spec.expected].sort());
      await expectListed(popup, [...spec.expected, ...Object.keys(spec.inFrames)]);
    });
  }

  test('axe: the popup listing a framed page’s numbers has no serious or critical violations', async ({ context, ready, pages, serviceWorker }) => {
    void ready;
    const spec = framed('frames-srcdoc.html');
    const { popup } = await openFixture(context, await serviceWorker(), `${pages.url}/frames-srcdoc.html`);
    await expectListed(popup, [...spec.expected, ...Object.keys(spec.inFrames)]);
    const results = await new AxeBuilder({ page: popup }).analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  });
});

test('closed-shadow.html: closed shadow roots (one inside another) are read; the page still cannot open them', async ({ context, ready, pages, serviceWorker }) => {
  void ready;
  const spec = EXPECTED['closed-shadow.html'] as (typeof EXPECTED)[string] & { withClosedShadowRoots: Record<string, number> };
  const { page, popup } = await openFixture(context, await serviceWorker(), `${pages.url}/closed-shadow.html`);
  await expectListed(popup, [...spec.expected, ...Object.keys(spec.withClosedShadowRoots)]);
  // Nothing was opened for the page's own scripts.
  expect(await page.evaluate(() => document.querySelector('contact-chip')?.shadowRoot ?? null)).toBeNull();
});
