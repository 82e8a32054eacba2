/**
 * A frame's report (lib/page/report.ts): one reading the message schema would refuse (a 16-digit
 * "E.164", as a long id once read) is left out, so the frame's other numbers still reach the popup.
 */
import { describe, expect, it } from 'vitest';
import { numbersToReport } from '../../../lib/page/report';
import { pageRequest } from '../../../lib/page/messages';
import type { PhoneMatch } from '../../../lib/phone/scan';

const match = (e164: string, raw: string) => ({ source: 'text', e164, raw }) as unknown as PhoneMatch;

describe('numbersToReport', () => {
  it('leaves out a reading longer than E.164 allows; the rest passes the page/numbers schema', () => {
    const numbers = numbersToReport([match('+498912345670', '+49 89 1234567-0'), match('+4912927339800001', 'DE 129 273 398 00001'), match('+33153456789', '01 53 45 67 89')]);
    expect(numbers.map((n) => n.e164)).toEqual(['+498912345670', '+33153456789']);
    expect(pageRequest.safeParse({ type: 'page/numbers', numbers }).success).toBe(true);
  });
});
