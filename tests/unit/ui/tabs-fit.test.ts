import { describe, expect, it } from 'vitest';
import { tabsThatFit } from '../../../components/shared/tabs-fit';

describe('tabsThatFit: one row of tabs and a More menu', () => {
  const tabs = [60, 70, 80, 90, 100];
  const asMore = tabs.map((w) => w + 14);
  it('every tab when they all fit, and no menu', () => {
    expect(tabsThatFit(tabs, asMore, 60, 408, 2)).toBe(5);
  });
  it('as many as fit beside the menu button at its widest (the longest label left in the menu)', () => {
    // 3 tabs: 214 + 2 + max(60, 104, 114) = 330.
    expect(tabsThatFit(tabs, asMore, 60, 330, 2)).toBe(3);
    expect(tabsThatFit(tabs, asMore, 60, 329, 2)).toBe(2);
  });
  it('keeps at least one tab, however narrow', () => {
    expect(tabsThatFit(tabs, asMore, 60, 10, 2)).toBe(1);
  });
});
