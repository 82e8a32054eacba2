export interface TabDef<T extends string> {
  id: T;
  label: string;
}

/**
 * How many tabs, in order, fit in one row of `available` px with the "More" menu button after them.
 * `tabs`: each tab's width; `asMore`: each tab's width as the menu button (its label and the arrow,
 * shown there while it is the selected one); `more`: the button reading "More". The button is counted
 * at the widest it can get, so the number depends on the width alone. At least one tab stays.
 */
export function tabsThatFit(tabs: readonly number[], asMore: readonly number[], more: number, available: number, gap: number): number {
  const row = (k: number) => tabs.slice(0, k).reduce((sum, w) => sum + w, 0) + gap * Math.max(0, k - 1);
  if (row(tabs.length) <= available) return tabs.length;
  for (let k = tabs.length - 1; k >= 1; k--) {
    const button = Math.max(more, ...asMore.slice(k));
    if (row(k) + gap + button <= available) return k;
  }
  return Math.min(1, tabs.length);
}
