/**
 * Picks the element's transport from its attributes: the installed extension (the default) or the
 * project's proxy. The proxy's transport (lib/widget/proxy-transport.ts, built beside this) plugs in
 * through `registerProxyTransport`, so this module never imports it: a build without the proxy still
 * has the extension path, and says plainly that the proxy way is missing.
 */
import type { WidgetRoute } from './attributes';
import { extensionTransport } from './extension-transport';
import type { WidgetTransport } from './wire';

export type ProxyTransportFactory = (options: { url: string; token: string }) => WidgetTransport;

let proxyFactory: ProxyTransportFactory | null = null;
const listeners = new Set<() => void>();

/** Called once by the proxy transport's module (or a test's fake); elements already on the page pick it up. */
export function registerProxyTransport(factory: ProxyTransportFactory | null): void {
  proxyFactory = factory;
  for (const listener of listeners) listener();
}

/** Elements waiting for a proxy transport hear when one is registered (returns the unsubscribe). */
export function onProxyTransport(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type PickedTransport = { ok: true; transport: WidgetTransport; via: 'extension' | 'proxy' } | { ok: false; code: 'no-proxy-transport' | 'no-token' };

export function transportFor(route: WidgetRoute, win: Window, showTranscripts: () => boolean): PickedTransport {
  if (route.kind === 'extension') return { ok: true, via: 'extension', transport: extensionTransport(win, showTranscripts) };
  if (!route.token) return { ok: false, code: 'no-token' };
  if (!proxyFactory) return { ok: false, code: 'no-proxy-transport' };
  return { ok: true, via: 'proxy', transport: proxyFactory({ url: route.url, token: route.token }) };
}
