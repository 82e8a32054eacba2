import { describe, expect, it } from 'vitest';
import { compactCount, countNumbers, tabTotal } from '../../../lib/page/count';
import { numbersToReport } from '../../../lib/page/report';
import type { PhoneMatch } from '../../../lib/phone/scan';

const n = (i: number) => ({ raw: `x${i}`, e164: `+1415555${String(i).padStart(4, '0')}` });

describe('honest counts (issue 11 point 4)', () => {
  it('the badge text: exact below 1,000, then compact and rounded down, never more than there is', () => {
    expect([0, 1, 7, 999, 1000, 1234, 1999, 5000, 9999, 12_345, 999_999, 1_000_000, 1_550_000].map(compactCount)).toEqual([
      '', '1', '7', '999', '1k', '1.2k', '1.9k', '5k', '9.9k', '12k', '999k', '1M', '1.5M',
    ]);
    for (const count of [1234, 5000, 99_999, 123_456]) expect(compactCount(count).length, String(count)).toBeLessThanOrEqual(4);
  });

  it('a frame counts every different number, though its report is capped', () => {
    const matches = Array.from({ length: 5000 }, (_, i) => n(i)).concat([n(1), n(2)]);
    expect(numbersToReport(matches as unknown as PhoneMatch[])).toHaveLength(500);
    expect(countNumbers(matches)).toBe(5000);
  });

  it('a tab adds what each frame found beyond its report to the numbers reported (each once across frames)', () => {
    const top = { numbers: Array.from({ length: 500 }, (_, i) => n(i)), total: 5000 };
    const frame = { numbers: [n(1), n(9000)], total: 2 };
    expect(tabTotal([top, frame])).toBe(5001);
    expect(tabTotal([{ numbers: [n(1)] }])).toBe(1); // an older report without a total
    expect(tabTotal([])).toBe(0);
  });
});
