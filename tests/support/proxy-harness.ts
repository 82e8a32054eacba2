/**
 * A sandbox and the widget proxy in front of it, both real HTTP servers on loopback, for the proxy's
 * tests and its bench: tokens minted as an integrator's backend would, a transport per page origin
 * (Node's fetch sends the page's Origin header, as the browser would), the audit log and the
 * sandbox's own request log read back.
 */
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProxyTransport } from '../../lib/widget/proxy-transport';
import type { WidgetTransport } from '../../lib/widget/wire';
import { startProxy, type NodeProxy } from '../../proxy/node';
import { parsePolicy, type Policy } from '../../proxy/policy';
import { mintWidgetToken } from '../../proxy/token';
import type { AuditEntry } from '../../proxy/placements';
import { OWNER_KEY } from '../../sandbox/keys';
import { SEED } from '../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../sandbox/server';

export const SECRET = 'test-secret-that-is-long-enough-0123456789';
export const AGENT = SEED.A.agents.sales;
export const OTHER_AGENT = SEED.A.agents.reminder;
export const ALLOWED_ORIGIN = 'http://127.0.0.1:4101';
export const HOSTILE_ORIGIN = 'http://127.0.0.1:4666';
/** A second allowed page: a token of one allowed origin is still refused on another. */
export const SECOND_ORIGIN = 'http://127.0.0.1:4102';

export function testPolicy(overrides: Record<string, unknown> = {}): Policy {
  return parsePolicy(JSON.stringify({ origins: [ALLOWED_ORIGIN], agents: [AGENT, OTHER_AGENT], numbers: ['+1415'], ...overrides }), 'test policy');
}

export interface Harness {
  sb: Sandbox;
  proxy: NodeProxy;
  auditFile: string;
  mint(options?: { origin?: string; agents?: string[]; minutes?: number; who?: string; now?: number }): Promise<string>;
  /** A transport as a page on `origin` would have it. */
  transport(token: string, origin?: string): WidgetTransport;
  /** A raw request to the proxy, as a page (or anything else) could send it. */
  raw(method: string, path: string, init?: { origin?: string | null; token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  audit(): AuditEntry[];
  /** The sandbox's own request log (what reached the service). */
  sandboxRequests(): Promise<Array<{ method: string; path: string; status: number }>>;
  close(): Promise<void>;
}

export async function startHarness(options: { speed?: number; policy?: Policy; onRefused?: (code: string) => void; widgetDir?: string } = {}): Promise<Harness> {
  const sb = await startSandbox({ port: 0, speed: options.speed ?? 60 });
  const auditFile = join(mkdtempSync(join(tmpdir(), 'proxy-audit-')), 'audit.jsonl');
  const proxy = await startProxy({
    config: { apiKey: OWNER_KEY, baseUrl: sb.url, secret: SECRET },
    policy: options.policy ?? testPolicy(),
    port: 0,
    auditFile,
    widgetDir: options.widgetDir ?? join(auditFile, '..', 'no-widget'),
    onRefused: options.onRefused,
  });
  const pageFetch = (origin: string): typeof fetch => (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: origin } });
  return {
    sb,
    proxy,
    auditFile,
    async mint(o = {}) {
      return (await mintWidgetToken(SECRET, { origin: o.origin ?? ALLOWED_ORIGIN, agents: o.agents ?? [AGENT], minutes: o.minutes ?? 10, who: o.who ?? 'tester@crm.example', now: o.now })).token;
    },
    transport: (token, origin = ALLOWED_ORIGIN) => createProxyTransport({ url: proxy.url, token, fetch: pageFetch(origin) }),
    async raw(method, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      const origin = init.origin === undefined ? ALLOWED_ORIGIN : init.origin;
      if (origin) headers.Origin = origin;
      if (init.token) headers.Authorization = `Bearer ${init.token}`;
      if (init.body !== undefined) headers['Content-Type'] ??= 'application/json';
      const res = await fetch(`${proxy.url}${path}`, { method, headers, body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body) });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      return { status: res.status, body, headers: res.headers };
    },
    audit: () => (existsSync(auditFile) ? readFileSync(auditFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditEntry) : []),
    sandboxRequests: async () => (await fetch(`${sb.url}/__sandbox/requests`)).json(),
    async close() {
      await proxy.close();
      await sb.close();
    },
  };
}

/** Arms a sandbox fault (sandbox/faults.ts). */
export async function fault(sb: Sandbox, spec: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${sb.url}/__sandbox/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(spec) });
  if (!res.ok) throw new Error(`fault refused: ${await res.text()}`);
}

/** Reads a call through the transport until it is done (the element's loop, without its timer). */
export async function readUntilDone(transport: WidgetTransport, id: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  const seen: Array<{ status: string | null; message: string | null }> = [];
  for (;;) {
    const view = await transport.read(id);
    seen.push({ status: view.status, message: view.message });
    if (view.done) return { view, seen };
    if (Date.now() > deadline) throw new Error(`call ${id} not done after ${timeoutMs} ms (last: ${JSON.stringify(view)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The calls the sandbox made: POST /batches and POST /call that it answered with success. */
export function callsPlaced(log: Array<{ method: string; path: string; status: number }>): number {
  return log.filter((r) => r.method === 'POST' && (r.path === '/batches' || r.path === '/call') && r.status >= 200 && r.status < 300).length;
}
