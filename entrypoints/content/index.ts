/**
 * Content script, first stage: finds phone numbers on pages and offers to call them (lib/page/content.ts).
 * The finder itself (entrypoints/finder.ts) is a second file the background injects into a frame
 * only once the frame may hold a number.
 * Not in the manifest: the background registers it only where click-to-call is on
 * (lib/background/page-scripts.ts), in every frame of those sites; each frame talks to the
 * background directly. It uses WXT's `browser` (the browser's own global, no polyfill: every page
 * of a switched-on site loads this file, so it stays small).
 */
import { browser } from 'wxt/browser';
import { runContentScript, type ContentBrowser, type StartClickToCall } from '../../lib/page/content';
import { FINDER_KEY } from '../../lib/page/finder-global';
import { startWidgetBridge } from '../../lib/page/widget-bridge';

/** Set in this extension's isolated world (pages cannot see it) by the running copy. */
const RUNNING = Symbol.for('voice-agent-click-to-call');

export default defineContentScript({
  // The widest the background may register; WXT turns these into the manifest's host permission.
  matches: ['*://*/*'],
  registration: 'runtime',
  allFrames: true,
  runAt: 'document_idle',
  // WXT's "script started" window.postMessage is not needed (no old copies to stop) and tells pages about us.
  noScriptStartedPostMessage: true,
  main() {
    // Registered and injected into an open page (a site switched on) can meet: one live copy per frame.
    const world = globalThis as { [RUNNING]?: () => boolean };
    if (world[RUNNING]?.()) return;
    const ours = browser as unknown as ContentBrowser;
    world[RUNNING] = () => {
      try {
        return !!ours.runtime?.id;
      } catch {
        return false;
      }
    };
    // The `<voice-agent-call>` element's door (lib/page/widget-bridge.ts); the background decides everything.
    startWidgetBridge(window, (request) => ours.runtime.sendMessage(request));
    // WXT's ctx is not used: its invalidation can be triggered by a page's CustomEvent. An orphaned
    // script notices instead when the runtime is gone (see PageLink.alive).
    runContentScript(ours, async () => {
      const finder = globalThis as { [FINDER_KEY]?: StartClickToCall };
      if (!finder[FINDER_KEY]) await ours.runtime.sendMessage({ type: 'page/finder' });
      return finder[FINDER_KEY] ?? null;
    });
  },
});
