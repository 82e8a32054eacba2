/**
 * The element's way through the installed extension: asks this frame's content script on the page's
 * own message bus (one fixed channel, lib/page/widget-messages.ts). The content script forwards to
 * the background, which gates the request like any page call request; the call is placed only after
 * the person confirms in the extension's own window. Nothing here knows a key.
 */
import { WIDGET_CHANNEL } from '../page/widget-ask';
import { asCallView, asWidgetError } from './check';
import type { WidgetCallRequest, WidgetCallView, WidgetTransport } from './wire';

/** A refusal from the extension (or the proxy), in words, with its code. */
export class WidgetRefused extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'WidgetRefused';
  }
}

type Ask = { kind: 'hello' } | { kind: 'place'; request: WidgetCallRequest & { transcripts: boolean } } | { kind: 'read' | 'stop'; id: string };

function nonce(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface ExtensionTransport extends WidgetTransport {
  /** Whether a content script has answered in this frame yet (the extension is installed and on here). */
  readonly connected: boolean;
  /** Resolves once the content script has said it is here (its `ready`, or an answer). */
  whenConnected(): Promise<void>;
}

/**
 * `showTranscripts`: the host's choice, told to the background so a transcript it would hide is
 * never sent to the page at all.
 */
export function extensionTransport(win: Window, showTranscripts: () => boolean): ExtensionTransport {
  const pending = new Map<string, { ask: Ask; resolve: (value: unknown) => void }>();
  let connected = false;
  let onConnect: (() => void)[] = [];
  const target = () => (win.location.origin === 'null' ? '*' : win.location.origin);
  const post = (id: string, ask: Ask) => win.postMessage({ channel: WIDGET_CHANNEL, dir: 'ask', nonce: id, ...ask }, target());
  const connect = () => {
    if (connected) return;
    connected = true;
    for (const fn of onConnect) fn();
    onConnect = [];
  };

  win.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== win) return;
    const data = event.data as { channel?: unknown; dir?: unknown; nonce?: unknown; answer?: unknown } | null;
    if (!data || data.channel !== WIDGET_CHANNEL) return;
    if (data.dir === 'ready') {
      // The content script arrived after we asked (it starts at document idle): ask again.
      connect();
      for (const [id, { ask }] of pending) post(id, ask);
      return;
    }
    if (data.dir !== 'answer' || typeof data.nonce !== 'string') return;
    const waiting = pending.get(data.nonce);
    if (!waiting) return;
    pending.delete(data.nonce);
    connect();
    waiting.resolve(data.answer);
  });

  function ask(message: Ask): Promise<WidgetCallView> {
    const id = nonce();
    return new Promise<unknown>((resolve) => {
      pending.set(id, { ask: message, resolve });
      post(id, message);
    }).then((answer) => {
      const view = asCallView(answer);
      if (view) return view;
      const refused = asWidgetError(answer);
      if (refused) throw new WidgetRefused(refused.error, refused.code);
      throw new WidgetRefused('The extension gave an answer the widget does not understand.', 'bad-answer');
    });
  }

  return {
    get connected() {
      return connected;
    },
    whenConnected() {
      if (connected) return Promise.resolve();
      const answered = new Promise<void>((resolve) => onConnect.push(resolve));
      void ask({ kind: 'hello' }).catch(() => undefined);
      return answered;
    },
    place: (request) => ask({ kind: 'place', request: { ...request, transcripts: showTranscripts() } }),
    read: (id) => ask({ kind: 'read', id }),
    stop: (id) => ask({ kind: 'stop', id }),
  };
}
