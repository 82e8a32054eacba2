/**
 * The proxy's Node shell: the app (app.ts) on @hono/node-server, the audit log appended to a file, the
 * built widget read from .output/widget/, and one timer that runs every due step of every call — the
 * same way the command line's runner drives the engine (lib/plans/run.ts), for many calls at once.
 */
import { appendFile, readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { createProxyApp, contentType, type WidgetFile } from './app';
import type { ProxyConfig } from './config';
import { WidgetPlacements, type Audit } from './placements';
import type { Policy } from './policy';
import { serviceClient, type ServiceClient } from './service';

export interface NodeProxyOptions {
  config: ProxyConfig;
  policy: Policy;
  port?: number;
  host?: string;
  /** The audit log (JSON lines); default ./proxy-audit.jsonl. */
  auditFile?: string;
  /** Where the built widget is; default .output/widget. */
  widgetDir?: string;
  onRefused?: (code: string) => void;
}

export interface NodeProxy {
  url: string;
  placements: WidgetPlacements;
  service: ServiceClient;
  close(): Promise<void>;
}

export async function startProxy(options: NodeProxyOptions): Promise<NodeProxy> {
  const auditFile = resolve(options.auditFile ?? 'proxy-audit.jsonl');
  const widgetDir = resolve(options.widgetDir ?? '.output/widget');
  // One line per call, appended in order (a queue, so two calls' lines never interleave).
  let writes = Promise.resolve();
  const audit: Audit = (entry) => {
    writes = writes.then(() => appendFile(auditFile, `${JSON.stringify(entry)}\n`, 'utf8'));
    return writes;
  };
  const service = serviceClient({ baseUrl: options.config.baseUrl, apiKey: options.config.apiKey, perMinute: options.policy.limits.serviceRequestsPerMinute });
  const placements = new WidgetPlacements(service, { baseUrl: options.config.baseUrl, audit });

  const widgetFile = async (path: string): Promise<WidgetFile | null> => {
    const full = join(widgetDir, path);
    if (!full.startsWith(widgetDir + '/')) return null;
    try {
      return { body: new Uint8Array(await readFile(full)), type: contentType(path) };
    } catch {
      return null;
    }
  };
  const app = createProxyApp({ policy: options.policy, secret: options.config.secret, placements, advanceOnRead: false, widgetFile, onRefused: options.onRefused });

  // The background loop: one timer at the earliest due step; re-armed whenever a call changes.
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const at = placements.nextDueAt();
    if (closed || at === null) return;
    timer = setTimeout(() => {
      timer = null;
      void placements.advanceDue().finally(arm);
    }, Math.max(0, at - Date.now()));
  };
  placements.onChange = arm;

  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 8790, options.host ?? '127.0.0.1', () => done());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    placements,
    service,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const done = new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
      await done;
      await placements.idle();
      await writes;
    },
  };
}
