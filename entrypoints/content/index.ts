/**
 * Content script: finds phone numbers on pages and offers to call them (lib/page/content.ts).
 * Runs in every frame; each frame talks to the background directly. It uses WXT's `browser`
 * (the browser's own global, no polyfill: the finder already takes most of the 50 KB budget).
 */
import { browser } from 'wxt/browser';
import { runContentScript, type ContentBrowser } from '../../lib/page/content';

export default defineContentScript({
  matches: ['<all_urls>'],
  allFrames: true,
  runAt: 'document_idle',
  // WXT's "script started" window.postMessage is not needed (no old copies to stop) and tells pages about us.
  noScriptStartedPostMessage: true,
  main() {
    // WXT's ctx is not used: its invalidation can be triggered by a page's CustomEvent. An orphaned
    // script notices instead when the runtime is gone (see PageLink.alive).
    runContentScript(browser as unknown as ContentBrowser);
  },
});
