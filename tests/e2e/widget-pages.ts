/**
 * What the widget specs share: the widget build (.output/widget, `npm run build:widget`) served under
 * /widget/ of the pages server, a host page holding `<voice-agent-call>` elements that records their
 * events, the extension's confirmation windows, and the calls the sandbox was asked to place.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { sandboxRequests } from './fixtures';

export const WIDGET_DIR = join(process.cwd(), '.output/widget');

/** Serves the widget build under /widget/ of the pages server (module scripts need a JavaScript type). */
export async function serveWidget(context: BrowserContext): Promise<void> {
  await context.route(/\/widget\/[^?]*(\?.*)?$/, async (route) => {
    const path = new URL(route.request().url()).pathname.replace(/^\/widget\//, '');
    const type = path.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8';
    try {
      await route.fulfill({ status: 200, contentType: type, body: readFileSync(join(WIDGET_DIR, path)) });
    } catch {
      await route.fulfill({ status: 404, body: 'not found' });
    }
  });
}

const EVENTS = `<script>window.__events = []; for (const t of ['status', 'done', 'error']) document.addEventListener('voice-agent-call:' + t, (e) => window.__events.push({ type: e.type, detail: e.detail, id: e.target.id }));</script>`;

/** A host page with `elements`; the elements' events land in `window.__events`. */
export function hostPage(elements: string, lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>CRM record</title>${EVENTS}<script src="/widget/voice-agent-call.js"></script></head><body><h1>Record</h1>${elements}</body></html>`;
}

/** Calls the service was asked to place: POST /call, or a batch created. */
export async function placements(sandbox: Parameters<typeof sandboxRequests>[0]) {
  return (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && (r.path === '/call' || r.path.startsWith('/batches')));
}

/** The extension's open confirmations of a widget's request. */
export function widgetConfirmations(context: BrowserContext): Page[] {
  return context.pages().filter((p) => !p.isClosed() && p.url().includes('/popup.html?widget='));
}
