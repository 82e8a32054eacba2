// The background holds each tab's found numbers in module memory, as a worker does for its life
// (lib/background/tab-numbers.ts). Test cases reset the fake browser's storage, so each case also
// starts as a fresh worker would: nothing held, no write pending. Imported in a hook, after WxtVitest's fakes.
import { beforeEach } from 'vitest';

beforeEach(async () => {
  const { forgetHeldTabs } = await import('../../lib/background/tab-numbers');
  forgetHeldTabs();
});
