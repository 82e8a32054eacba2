/**
 * The finder: click-to-call with the phone library (lib/page/click-to-call.ts). Not in the manifest
 * and never registered: the background injects it into one frame when that frame's first stage
 * (entrypoints/content) has seen a possible number (`page/finder`). It only hands its start function
 * to the first stage, which runs it.
 */
import { startClickToCall } from '../lib/page/click-to-call';
import { FINDER_KEY } from '../lib/page/finder-global';

export default defineUnlistedScript(() => {
  const world = globalThis as { [FINDER_KEY]?: typeof startClickToCall };
  world[FINDER_KEY] ??= startClickToCall;
});
