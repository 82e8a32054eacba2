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
