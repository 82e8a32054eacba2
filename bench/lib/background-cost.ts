/**
 * What the background pays for a page: the content script sends the texts that may hold a number
 * (page/find) and the background parses them, off the page's thread. A trace taken through the page
 * does not see the extension's worker, so this replays it: the scanner runs over the same page in
 * happy-dom (no layout: element joints may read a little differently than in Chromium), its requests
 * are collected, and the background's own function (findRows) is timed on them here, in Node's V8.
 */
import { Window } from 'happy-dom';
import type { FindRequest } from '../../lib/phone/find-batch';
import { findRows } from '../../lib/phone/find-rows';
import { warmUpSteps } from '../../lib/phone/find';
import { createScanner } from '../../lib/phone/scan';

export async function backgroundCost(html: string, defaultCountry = 'US'): Promise<{ texts: number; requests: number; ms: number }> {
  const window = new Window({ url: 'https://bench.test/', settings: { disableJavaScriptEvaluation: true, disableCSSFileLoading: true } });
  try {
    window.document.write(html);
    const requests: FindRequest[] = [];
    // Answered "no numbers" at once: only the requests matter here.
    const scanner = createScanner({
      defaultCountry,
      findAway: async (request) => {
        requests.push(request);
        return [];
      },
    });
    scanner.scanRoot(window.document as unknown as Document);
    scanner.flush();
    await new Promise((resolve) => setTimeout(resolve, 0)); // the last batch goes out when the task ends
    for (const step of warmUpSteps(defaultCountry)) step(); // the background warms up once, before the first request
    const start = performance.now();
    for (const request of requests) findRows(request);
    return { texts: requests.reduce((n, r) => n + r.texts.length, 0), requests: requests.length, ms: performance.now() - start };
  } finally {
    await window.happyDOM.close();
  }
}
