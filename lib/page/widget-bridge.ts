/**
 * The content script's door for the `<voice-agent-call>` element: messages on this frame's own
 * message bus, on one channel (./widget-ask.ts). Only this window's own messages from its own
 * origin are taken (a framed or framing page posts from another window and is ignored), each is
 * parsed strictly, and only the narrow request goes on to the background, which decides. Answers go
 * back to this window only. Nothing here learns a key, an agent list or another tab's calls.
 */
import { parseWidgetAsk, WIDGET_CHANNEL, type WidgetAskMessage } from './widget-ask';
import type { PageRequest } from './messages';

/** Requests of this frame in flight at once; more are dropped (a page polling in a loop gains nothing). */
const MAX_IN_FLIGHT = 8;

export function startWidgetBridge(win: Window, send: (request: PageRequest) => Promise<unknown>): () => void {
  let inFlight = 0;
  const seen = new Set<string>();
  const target = () => (win.location.origin === 'null' ? '*' : win.location.origin);
  const answer = (nonce: string, value: unknown) => win.postMessage({ channel: WIDGET_CHANNEL, dir: 'answer', nonce, answer: value }, target());

  function forward(ask: WidgetAskMessage): PageRequest | null {
    switch (ask.kind) {
      case 'hello':
        return null;
      case 'place':
        return { type: 'page/widget-place', request: ask.request };
      case 'read':
        return { type: 'page/widget-read', id: ask.id };
      case 'stop':
        return { type: 'page/widget-stop', id: ask.id };
    }
  }

  const listener = (event: MessageEvent) => {
    if (event.source !== win || event.origin !== win.location.origin) return;
    const data = event.data as { channel?: unknown; dir?: unknown } | null;
    if (!data || typeof data !== 'object' || data.channel !== WIDGET_CHANNEL || data.dir !== 'ask') return;
    const ask = parseWidgetAsk(data);
    if (!ask) return;
    // The element asks again when this script starts late; one answer per ask.
    if (seen.has(ask.nonce)) return;
    if (seen.size > 1000) seen.clear();
    seen.add(ask.nonce);
    const request = forward(ask);
    if (!request) return answer(ask.nonce, { ready: true });
    if (inFlight >= MAX_IN_FLIGHT) return;
    inFlight++;
    send(request)
      .then((value) => answer(ask.nonce, value ?? { code: 'unknown', error: 'No answer from the extension.' }))
      .catch(() => answer(ask.nonce, { code: 'extension-gone', error: 'The extension did not answer (it may have been updated or switched off).' }))
      .finally(() => inFlight--);
  };
  win.addEventListener('message', listener);
  // An element that asked before this script started asks again on this signal.
  win.postMessage({ channel: WIDGET_CHANNEL, dir: 'ready' }, target());
  return () => win.removeEventListener('message', listener);
}
