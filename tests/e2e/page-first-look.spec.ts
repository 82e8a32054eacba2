/**
 * The content script's two stages in Chromium, production build: a page with no possible number runs
 * only the small first stage (the phone finder is never loaded into it); a number the page adds later
 * loads the finder into that frame and is found.
 */
import type { Worker } from '@playwright/test';
import { expect, openFixture, test } from './page-fixtures';
import { topFrameReport } from './tab-numbers';

/** What this extension's isolated world in the tab's top frame holds: the first stage's marker, the finder. */
async function stages(sw: Worker, tabId: number): Promise<{ firstStage: boolean; finder: boolean }> {
  return sw.evaluate(async (id) => {
    const [result] = await (globalThis as any).chrome.scripting.executeScript({
      target: { tabId: id },
      // The content scripts' world (ISOLATED is the default), not the page's.
      func: () => ({
        firstStage: typeof (globalThis as any)[Symbol.for('voice-agent-click-to-call')] === 'function',
        finder: typeof (globalThis as any)[Symbol.for('voice-agent-click-to-call/finder')] === 'function',
      }),
    });
    return result.result;
  }, tabId);
}

test('a page without numbers never loads the finder; a number added later loads it and is found', async ({ context, ready, pages, serviceWorker }) => {
  void ready;
  const sw = await serviceWorker();
  const { page, tabId } = await openFixture(context, sw, `${pages.url}/article.html`);
  // The first stage has looked and said "nothing here" (the top frame always reports once).
  await expect.poll(() => topFrameReport(sw, tabId), { timeout: 20_000 }).toEqual([]);
  expect(await stages(sw, tabId)).toEqual({ firstStage: true, finder: false });

  await page.evaluate(() => {
    const p = document.createElement('p');
    p.innerHTML = 'Questions? Reception: <b>(415)</b> 555-0132';
    document.querySelector('article')!.append(p);
  });
  await expect.poll(async () => (await topFrameReport(sw, tabId))?.map((n) => n.e164), { timeout: 20_000 }).toEqual(['+14155550132']);
  expect(await stages(sw, tabId)).toEqual({ firstStage: true, finder: true });
});

test('the finder sends the texts that may hold numbers to the background (page/find) and keeps using it: parsing is off the page', async ({ context, ready, pages, serviceWorker }) => {
  void ready;
  const sw = await serviceWorker();
  // A second listener beside the background's own: it only records what frames ask to have parsed.
  await sw.evaluate(() => {
    const g = globalThis as any;
    g.__findTexts = [];
    g.chrome.runtime.onMessage.addListener((m: any) => {
      if (m?.type === 'page/find') g.__findTexts.push(...JSON.parse(m.batch).texts);
    });
  });
  const sent = () => sw.evaluate(() => (globalThis as any).__findTexts as string[]);
  const { page, tabId } = await openFixture(context, sw, `${pages.url}/article.html`);
  await expect.poll(() => topFrameReport(sw, tabId), { timeout: 20_000 }).toEqual([]);
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.textContent = 'Reception: (415) 555-0132';
    document.querySelector('article')!.append(p);
  });
  await expect.poll(async () => (await topFrameReport(sw, tabId))?.map((n) => n.e164), { timeout: 20_000 }).toEqual(['+14155550132']);
  expect(await sent()).toContain('Reception: (415) 555-0132');
  // A later text goes the same way: had the first request failed, the page would parse for itself from then on.
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.textContent = 'Fax: 212-555-0147';
    document.querySelector('article')!.append(p);
  });
  await expect.poll(async () => (await topFrameReport(sw, tabId))?.map((n) => n.e164), { timeout: 20_000 }).toEqual(['+14155550132', '+12125550147']);
  expect(await sent()).toContain('Fax: 212-555-0147');
});
