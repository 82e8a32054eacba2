/**
 * The site a frame's message comes from, from the browser-set sender fields only. Frames without a
 * URL of their own (about:blank, about:srcdoc, data:) belong to the document that made them: Chromium
 * and Firefox (seen in ESR 153) say which in `sender.origin`; elsewhere the tab's page stands in.
 * A blob: URL carries its origin. Pure.
 */
export interface FrameSender {
  url?: string;
  origin?: string;
  tab?: { url?: string };
}

function httpHost(url: string | undefined): string {
  if (!url) return '';
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.hostname;
    // blob:https://crm.example.com/uuid → its origin's host.
    if (parsed.protocol === 'blob:') return httpHost(parsed.origin);
    return '';
  } catch {
    return '';
  }
}

export function frameHost(sender: FrameSender): string {
  const url = sender.url ?? sender.tab?.url;
  const own = httpHost(url);
  if (own || (url && !/^(?:about|data):/i.test(url))) return own;
  return httpHost(sender.origin) || httpHost(sender.tab?.url);
}

/**
 * Who asked, for the confirmation to name: the asking frame's own site, from the browser's sender
 * fields only (`origin`, else `url`; never anything the page wrote). A frame with no site of its own —
 * an opaque origin ("null": data:, sandboxed frames, srcdoc or about:blank inside a sandbox), or no
 * origin given and a URL that names none — is `inside` the tab's top page: "a frame inside <top site>",
 * never the top site itself (the top page did not necessarily write it). Pure.
 */
export type AskingFrame = { site: string; topSite: string } | { inside: string };

export function askingFrame(sender: FrameSender & { frameId?: number }): AskingFrame {
  const topSite = httpHost(sender.tab?.url);
  // The top frame is the page in the address bar, whatever its origin (a CSP sandbox makes it opaque).
  if ((sender.frameId ?? 0) === 0) return { site: httpHost(sender.url) || topSite, topSite };
  const site = sender.origin !== undefined ? (sender.origin === 'null' ? '' : httpHost(sender.origin)) : httpHost(sender.url);
  return site ? { site, topSite } : { inside: topSite };
}
