// Vitest 5 prints failures with `Map.groupBy` (Node ≥ 21); Node 20 lacks it, and without this a
// failing test crashes the reporter instead of being shown.
if (typeof (Map as { groupBy?: unknown }).groupBy !== 'function') {
  (Map as unknown as { groupBy: (items: Iterable<unknown>, key: (item: unknown, i: number) => unknown) => Map<unknown, unknown[]> }).groupBy = (items, key) => {
    const groups = new Map<unknown, unknown[]>();
    let i = 0;
    for (const item of items) {
      const k = key(item, i++);
      const group = groups.get(k);
      if (group) group.push(item);
      else groups.set(k, [item]);
    }
    return groups;
  };
}
